// Args: the command line of a `simple` provider: `ral_action=ACTION name='NAME' attr='value' ...`,
// each value shell-quoted so that a bash provider's `eval "$@"` (and python's `shlex.split`) gets it
// back intact, whatever it holds: spaces, both quotes, newlines, '=', '$', backticks.
//
// libral wrapped values in single quotes without escaping the quotes inside them, so a value with
// a "'" broke the provider (or ran as shell code). Here each "'" is closed, escaped and reopened.
import * as E from 'fp-ts/lib/Either.js'
import type { Change } from './Resource.js'
import * as Value from './Value.js'

// model

/** The actions of the simple convention. */
export type Action = 'describe' | 'list' | 'find' | 'update'

/** Linux refuses a single argument longer than this (MAX_ARG_STRLEN, 32 pages), counting its NUL. */
export const maxArgBytes = 131072

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/

// constructors

/** Quotes text for a POSIX shell: in single quotes, each "'" written as '\''. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** One `key='value'` argument, or why it can not be passed (a key that is no identifier, NUL, too long). */
export const arg = (key: string, text: string): E.Either<string, string> => {
  if (!identifier.test(key)) return E.left(`"${key}" can not be passed as an argument: not an identifier`)
  if (text.includes('\u0000')) return E.left(`the value of "${key}" holds a NUL character, which no argument can carry`)
  const a = `${key}=${shellQuote(text)}`
  if (new TextEncoder().encode(a).length + 1 > maxArgBytes) return E.left(`the value of "${key}" is too long to pass as an argument (over ${maxArgBytes} bytes)`)
  return E.right(a)
}

/** The arguments of an action: `ral_action=...` first, then `name`, then attributes, then `ral_noop=true` when asked. */
export const forAction = (
  action: Action,
  options: { readonly name?: string; readonly changes?: ReadonlyArray<Change>; readonly noop?: boolean } = {},
): E.Either<string, ReadonlyArray<string>> => {
  const out: string[] = [`ral_action=${action}`]
  const push = (key: string, text: string): string | undefined => {
    const a = arg(key, text)
    if (E.isLeft(a)) return a.left
    out.push(a.right)
    return undefined
  }
  if (options.name !== undefined) {
    const bad = push('name', options.name)
    if (bad !== undefined) return E.left(bad)
  }
  for (const c of options.changes ?? []) {
    const text = Value.writeText(c.is)
    if (E.isLeft(text)) return E.left(`attribute "${c.attr}": ${text.left}`)
    const bad = push(c.attr, text.right)
    if (bad !== undefined) return E.left(bad)
  }
  if (options.noop === true) out.push('ral_noop=true')
  return E.right(out)
}

// interop

/**
 * Reads arguments back as a POSIX shell would after `eval "$@"` (the arguments joined by spaces),
 * for assignments of single-quoted words as `forAction` writes them. Used by tests and
 * `plait provider test` to check the encoding against its own reading; bash is the real judge.
 */
export const read = (argv: ReadonlyArray<string>): E.Either<string, ReadonlyArray<readonly [string, string]>> => {
  const text = argv.join(' ')
  const out: [string, string][] = []
  let i = 0
  while (i < text.length) {
    if (text[i] === ' ') {
      i++
      continue
    }
    const eq = text.indexOf('=', i)
    if (eq < 0) return E.left(`no '=' after position ${i}`)
    const key = text.slice(i, eq)
    if (!identifier.test(key)) return E.left(`"${key}" is not an identifier`)
    i = eq + 1
    let value = ''
    while (i < text.length && text[i] !== ' ') {
      if (text[i] === "'") {
        const close = text.indexOf("'", i + 1)
        if (close < 0) return E.left('unterminated quote')
        value += text.slice(i + 1, close)
        i = close + 1
      } else if (text[i] === '\\' && i + 1 < text.length) {
        value += text[i + 1]
        i += 2
      } else {
        value += text[i]
        i++
      }
    }
    out.push([key, value])
  }
  return E.right(out)
}
