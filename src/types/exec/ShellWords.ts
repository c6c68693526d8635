// ShellWords: splits a command line into words the way CCM's posix exec provider does
// (github.com/kballard/go-shellquote's Split): whitespace separates words; single quotes keep
// everything literally; in double quotes a backslash escapes only $ ` " \ and a newline; outside
// quotes a backslash escapes any character; a backslash-newline disappears. No expansion of any
// kind happens: `$USER` stays `$USER`.
import * as E from 'fp-ts/lib/Either.js'

// constructors

const space = (c: string): boolean => c === ' ' || c === '\t' || c === '\n'

/** The words of a command line, or the quoting error go-shellquote reports. */
export const split = (line: string): E.Either<string, ReadonlyArray<string>> => {
  const words: string[] = []
  let word = ''
  let inWord = false
  let i = 0
  while (i < line.length) {
    const c = line[i]!
    if (space(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
      i += 1
      continue
    }
    // A backslash-newline between words is a line continuation, not the start of a word.
    if (!inWord && c === '\\' && line[i + 1] === '\n') {
      i += 2
      continue
    }
    inWord = true
    if (c === '\\') {
      if (i + 1 >= line.length) return E.left('Unterminated backslash-escape')
      if (line[i + 1] !== '\n') word += line[i + 1]
      i += 2
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) return E.left('Unterminated single-quoted string')
      word += line.slice(i + 1, end)
      i = end + 1
    } else if (c === '"') {
      i += 1
      let closed = false
      while (i < line.length) {
        const d = line[i]!
        if (d === '"') {
          closed = true
          i += 1
          break
        }
        if (d === '\\' && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1]!)) {
          if (line[i + 1] !== '\n') word += line[i + 1]
          i += 2
          continue
        }
        word += d
        i += 1
      }
      if (!closed) return E.left('Unterminated double-quoted string')
    } else {
      word += c
      i += 1
    }
  }
  if (inWord) words.push(word)
  return E.right(words)
}

// interop

/** Quotes a word so that `split` gives it back unchanged (single quotes, `'\''` for a quote). */
export const quote = (word: string): string => (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)
