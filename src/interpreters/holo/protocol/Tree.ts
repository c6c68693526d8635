// Tree: the file system dump of holo-test(7) (`source-tree`, `expected-tree`, `tree`), read as
// Holo's dump-to-tree.sh reads it and written as tree-to-dump.sh writes it. An entry is a header
// line `TYPE MODE PATH` (TYPE file, symlink or directory; MODE octal; PATH relative, `./...`) and
// then, for a file, its content lines up to a separator line of dashes; for a symlink, its
// target and a separator; for a directory, a separator. The dump lists directories recursively
// (names sorted bytewise, dot files left out but `.ssh`), and a directory only when it is empty
// or its mode is not 0755. Lines are read as bash's `read` reads them (without -r): a backslash
// escapes the next character and a backslash at the end of a line joins the next line.
import * as E from 'fp-ts/lib/Either.js'
import * as WhiteSpace from '../../../core/WhiteSpace.js'

// model

/** What to make, in order (paths relative to the tree's root, as written). */
export type Entry =
  | { readonly _tag: 'File'; readonly mode: string; readonly path: string; readonly content: string }
  | { readonly _tag: 'Symlink'; readonly path: string; readonly target: string }
  | { readonly _tag: 'Directory'; readonly mode: string; readonly path: string }

/** A directory tree as read from a file system, for a dump. */
export type Node =
  | { readonly _tag: 'File'; readonly mode: number; readonly content: string }
  | { readonly _tag: 'Symlink'; readonly target: string }
  | { readonly _tag: 'Directory'; readonly mode: number; readonly children: ReadonlyMap<string, Node> }
  /** A FIFO, socket or device: left out of a dump. */
  | { readonly _tag: 'Other' }

/** The separator line a dump writes. */
export const separator = '----------------------------------------'

// interop

/** Reads a dump into the entries to make; or the error at its line, as dump-to-tree.sh reports it. */
export const parse = (text: string): E.Either<string, ReadonlyArray<Entry>> => {
  // a last line without its newline is not read (bash's `read` fails on it)
  const raw = text.split('\n')
  raw.pop()
  let at = 0
  let lineNumber = 0
  /** The next logical line (bash `read` without -r), or undefined at the end. */
  const next = (): string | undefined => {
    // like read_and_inc, a read at the end counts a line too
    lineNumber++
    if (at >= raw.length) return undefined
    let out = ''
    while (at < raw.length) {
      const r = unescape(raw[at]!)
      at++
      out += r.text
      if (!r.continues) return out
    }
    return out
  }
  const fail = (why: string): E.Either<string, never> => E.left(`error: ${why} on input line ${lineNumber}`)
  const entries: Entry[] = []
  for (;;) {
    const header = next()
    if (header === undefined) break
    // blanks are trimmed by index: the regex `[ \t]+$` is quadratic in a run of blanks inside the line (WhiteSpace.ts)
    const words = WhiteSpace.trim(header, WhiteSpace.blank).split(/[ \t]+/u)
    const [type, mode] = words
    const path = WhiteSpace.trimEnd(header.replace(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]*/u, ''), WhiteSpace.blank)
    if (words.length === 1 && type === '') continue
    if (type === undefined || mode === undefined || words.length < 3 || path === '') return fail('unexpected end of entry header')
    if (path.startsWith('/')) return fail('absolute path not allowed in entry header')
    if (!/^[0-7]{1,5}$/u.test(mode)) return fail(`invalid mode ${JSON.stringify(mode)} in entry header`)
    if (type === 'file') {
      const lines: string[] = []
      for (;;) {
        const l = next()
        if (l === undefined) return fail('unexpected end of input')
        if (/^-+$/u.test(l)) break
        lines.push(l + '\n')
      }
      entries.push({ _tag: 'File', mode, path, content: lines.join('') })
    } else if (type === 'symlink') {
      const symlink = next()
      const target = symlink === undefined ? undefined : WhiteSpace.trim(symlink, WhiteSpace.blank)
      if (target === undefined) return fail('unexpected end of input')
      if (target === '') return fail('missing symlink target')
      const sep = next()
      if (sep === undefined) return fail('unexpected end of input')
      if (!/^-+$/u.test(sep)) return fail('unexpected content line, expected separator')
      entries.push({ _tag: 'Symlink', path, target })
    } else if (type === 'directory') {
      const sep = next()
      if (sep === undefined) return fail('unexpected end of input')
      if (!/^-+$/u.test(sep)) return fail('unexpected content line, expected separator')
      entries.push({ _tag: 'Directory', mode, path })
    } else {
      return fail('unknown file type in entry header')
    }
  }
  return E.right(entries)
}

/** Dumps a directory's contents as tree-to-dump.sh does (the root itself is not listed). */
export const print = (root: Node): string => (root._tag === 'Directory' ? dump(root, '.') : '')

const dump = (dir: Extract<Node, { _tag: 'Directory' }>, prefix: string): string => {
  const names = [...dir.children.keys()].filter((n) => !n.startsWith('.')).sort(compareBytes)
  if (dir.children.has('.ssh')) names.push('.ssh')
  let out = ''
  for (const name of names) {
    const node = dir.children.get(name)!
    const path = `${prefix}/${name}`
    if (node._tag === 'Symlink') out += `symlink   0777 ${path}\n${node.target}\n${separator}\n`
    else if (node._tag === 'File') out += `file      ${mode(node.mode)} ${path}\n${node.content}${separator}\n`
    else if (node._tag === 'Directory') {
      const contents = dump(node, path)
      if (contents === '' || mode(node.mode) !== '0755') out += `directory ${mode(node.mode)} ${path}/\n${separator}\n`
      out += contents
    }
  }
  return out
}

/** `stat -c 0%a`. */
const mode = (m: number): string => `0${(m & 0o7777).toString(8)}`

/** Orders names as the C locale does (by bytes of UTF-8, that is by code point). */
const compareBytes = (a: string, b: string): number => {
  const x = [...a].map((c) => c.codePointAt(0)!)
  const y = [...b].map((c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/** One physical line as `read` without -r takes it: escapes removed, and whether a final backslash joins the next line. */
const unescape = (line: string): { readonly text: string; readonly continues: boolean } => {
  let text = ''
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c !== '\\') {
      text += c
      continue
    }
    if (i === line.length - 1) return { text, continues: true }
    text += line[++i]!
  }
  return { text, continues: false }
}
