// YamlCursor: where the block-subset reader (YamlBlock.ts) is in its text: the current line, its
// number and indentation, and the scratch results its readers hand back. One cursor reads one
// text once; it is the reader's own mutable state and never leaves it.
import * as Position from '../core/Position.js'
import type { Entry, Node } from './Node.js'

// model

/** Thrown where the text leaves the block subset; caught at the top of `YamlBlock.block`. */
export const outside: unique symbol = Symbol('outside the block subset')

/** Slots of the table of recent short strings (a power of two). */
const wordSlots = 512

/** Longest string the table keeps (longer ones rarely repeat: paths, contents). */
const wordLimit = 24

export interface Cursor {
  readonly file: string
  readonly text: string
  /** text.length */
  readonly n: number
  /** Start of the current line. */
  ls: number
  /** End of the current line: the offset of its '\n', or n. Always ls <= le <= n. */
  le: number
  /** Number of the current line, 1-based. */
  ln: number
  /** Indentation of the current content line, set by `seek`. */
  ind: number
  /** Whether the reader has gone past the last line. */
  eof: boolean
  /** The last quoted scalar read: its value, and the offset after its closing quote. */
  qValue: string
  qEnd: number
  /** The last key read (`YamlScalar.keyAt`, `YamlFlow`). */
  kText: string
  /** The offset after the last flow collection or flow scalar read. */
  fEnd: number
  /**
   * The first backslash at or after bsFrom is at bs (n when there is none; nothing is known while
   * bs < bsFrom): a memo that lets the reader find all of them with indexOf calls that together
   * pass over the text once, however far apart they are (`YamlQuoted.doubleQuoted`).
   */
  bsFrom: number
  bs: number
  /**
   * Recent short strings of the text by a hash of their characters, so a key or value spelled
   * again (`ensure`, `root`, `0644`) is one string instead of a new slice per occurrence.
   */
  readonly words: Array<string | undefined>
  /**
   * The entries and items of the collections being read, innermost last: a collection pushes its
   * own above where it started and takes them off as one array of the exact length when it ends
   * (`take`), instead of growing an array of its own with room to spare.
   */
  readonly entries: Entry[]
  readonly items: Node[]
  /** The lines of the literal block scalar being read (`YamlScalar.literal`). */
  readonly lines: string[]
}

// constructors

/** A cursor on the first line of text. */
export const make = (file: string, text: string): Cursor => {
  const c: Cursor = {
    file, text, n: text.length, ls: 0, le: 0, ln: 1, ind: 0, eof: false, qValue: '', qEnd: 0, kText: '', fEnd: 0, bsFrom: 0, bs: -1,
    words: new Array<string | undefined>(wordSlots).fill(undefined), entries: [], items: [], lines: [],
  }
  startLine(c, 0)
  return c
}

// combinators

/** The character codes the readers compare with (charCodeAt), named once for all of them. */
export const SPACE = 32
export const HASH = 35
export const DQUOTE = 34
export const SQUOTE = 39
export const DASH = 45
export const COLON = 58
export const COMMA = 44
export const BACKSLASH = 92
export const BAR = 124
export const LBRACKET = 91
export const RBRACKET = 93
export const LBRACE = 123
export const RBRACE = 125

const startLine = (c: Cursor, start: number): void => {
  c.ls = start
  const le = c.text.indexOf('\n', start)
  c.le = le < 0 ? c.n : le
}

/** Moves to the next line (or past the last one: eof). */
export const nextLine = (c: Cursor): void => {
  if (c.le >= c.n) c.eof = true
  else {
    startLine(c, c.le + 1)
    c.ln += 1
  }
}

/** The position of an offset on the current line. */
export const at = (c: Cursor, offset: number): Position.Position => Position.make(c.file, c.ln, offset - c.ls + 1)

/** The first offset at or after i on the current line that is not a space (le when none is). */
export const spaces = (c: Cursor, i: number): number => {
  const { text, le } = c
  while (i < le && text.charCodeAt(i) === SPACE) i++
  return i
}

/** Moves to the next line with content (the current one included), skipping blank and comment lines. */
export const seek = (c: Cursor): void => {
  const text = c.text
  while (!c.eof) {
    const i = spaces(c, c.ls)
    if (i < c.le && text.charCodeAt(i) !== HASH) {
      c.ind = i - c.ls
      // a document marker or a directive: another document, or one the library must read
      if (c.ind === 0 && (text.startsWith('---', i) || text.startsWith('...', i) || text.charCodeAt(i) === 37)) throw outside
      return
    }
    nextLine(c)
  }
}

/** Whether the current line's remainder from i is empty or a comment. */
export const endsAt = (c: Cursor, i: number): boolean => {
  const j = spaces(c, i)
  return j === c.le || (c.text.charCodeAt(j) === HASH && j > i)
}

/** Whether p starts a block sequence item (`-` then a space or the line's end). */
export const isDash = (c: Cursor, p: number): boolean => c.text.charCodeAt(p) === DASH && (p + 1 === c.le || c.text.charCodeAt(p + 1) === SPACE)

/**
 * The text from `from` to `to`: the same string as last time when this text was read before and
 * its table slot still holds it, else a new slice that takes the slot.
 */
export const word = (c: Cursor, from: number, to: number): string => {
  const len = to - from
  if (len > wordLimit || len === 0) return c.text.slice(from, to)
  const text = c.text
  // a hash of the length and the first, middle and last characters: a collision only costs a slice
  const slot = (len * 31 + text.charCodeAt(from) * 7 + text.charCodeAt((from + to) >> 1) * 3 + text.charCodeAt(to - 1)) & (wordSlots - 1)
  const known = c.words[slot]
  if (known !== undefined && known.length === len && spelledAt(text, from, known)) return known
  const fresh = text.slice(from, to)
  c.words[slot] = fresh
  return fresh
}

/** Whether `w` is spelled at `from` in text. */
const spelledAt = (text: string, from: number, w: string): boolean => {
  for (let k = 0; k < w.length; k++) if (text.charCodeAt(from + k) !== w.charCodeAt(k)) return false
  return true
}

/** Takes the elements of a stack (the cursor's entries or items) from `base` up, as an array of their own. */
export const take = <A>(stack: A[], base: number): A[] => {
  const out = stack.slice(base)
  stack.length = base
  return out
}
