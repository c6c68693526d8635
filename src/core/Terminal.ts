// Terminal: text that is safe to show on a terminal, whatever it was made of.
//
// Names, contents, diffs, messages and plugin output are hostile: a newline in a resource name
// could add a fake summary line to a reviewed plan, and an ESC sequence in a file's content could
// erase or rewrite what the reviewer already read. Every human output goes through this module:
// fields are drawn with `field` (every control character visible, newlines included), whole
// texts pass `text` at the stream (newlines kept, every other control character visible), and
// JSON is made terminal-safe with `json` without changing the value it parses to.

// model

// C0 controls, DEL, C1 controls, the line and paragraph separators, and the bidirectional
// formatting characters (which reorder what a reader sees: "Trojan Source").
// eslint-disable-next-line no-control-regex -- matching control characters is this module's purpose
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu
// eslint-disable-next-line no-control-regex -- as above
const unsafeBesideNewline = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu
const unsafeInJson = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu

const named: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0', '\x1b': '\\x1b' }

const hex = (c: string, width: number): string => c.charCodeAt(0).toString(16).padStart(width, '0')

/** The visible form of one unsafe character: `\n`, `\x1b`, `\u202e`. */
const visible = (c: string): string => named[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`)

// guards

/** True when a text holds no character that a terminal would interpret, newlines and tabs aside. */
export const isSafeText = (s: string): boolean => !new RegExp(unsafeBesideNewline.source, 'u').test(s)

// combinators

/** One field (a name, a value, a message): every control character shown visibly, newlines too. */
export const field = (s: string): string => s.replace(unsafe, visible)

/** A whole text of lines: newlines and tabs kept, every other control character shown visibly. */
export const text = (s: string): string => s.replace(unsafeBesideNewline, visible)

/**
 * A JSON text made terminal-safe: the characters JSON.stringify leaves raw (DEL, C1, the separators
 * and bidi controls; they can only occur inside strings) written as \u escapes. The text parses to
 * the same value.
 */
export const json = (s: string): string => s.replace(unsafeInJson, (c) => `\\u${hex(c, 4)}`)

/** A multi-line block drawn line by line, each line's content escaped, each line prefixed. */
export const lines = (s: string, prefix: string): string =>
  s
    .split('\n')
    .map((l) => prefix + field(l))
    .join('\n')
