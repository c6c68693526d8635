// Invalid: a package name, version or tool output refused, with the value and the reason, as a
// value (never thrown). One shape for every parser of the package type, drawn by one function.
import * as E from 'fp-ts/lib/Either.js'
import * as Terminal from '../../core/Terminal.js'

// model

export interface Invalid {
  readonly _tag: 'Invalid'
  /** What was refused, for a person: "package name", "Debian version", "dpkg-query output". */
  readonly what: string
  /** The refused text as given (unbounded, unescaped: `message` bounds and escapes it). */
  readonly value: string
  /** Why, as a clause: "contains \";\", which is not allowed". */
  readonly reason: string
}

// constructors

/** An input refused with a reason. */
export const invalid = (what: string, value: string, reason: string): Invalid => Object.freeze({ _tag: 'Invalid', what, value, reason })

// combinators

/** A function of two parsed values as a function of two texts: the first text that does not parse is the refusal. */
export const onTexts =
  <A, R>(parse: (text: string) => E.Either<Invalid, A>, f: (a: A, b: A) => R) =>
  (a: string, b: string): E.Either<Invalid, R> => {
    const pa = parse(a)
    if (E.isLeft(pa)) return pa
    const pb = parse(b)
    return E.isLeft(pb) ? pb : E.right(f(pa.right, pb.right))
  }

// interop

/** The longest part of a refused value that a message shows. */
export const shown = 80

/** A value as a message quotes it: at most `shown` characters, every control character visible. */
export const quote = (value: string): string => {
  const cut = [...value]
  const head = cut.length > shown ? cut.slice(0, shown).join('') + '…' : value
  return `"${Terminal.field(head).replaceAll('"', '\\"')}"`
}

/** One character as a message names it: `";"` when printable ASCII, `U+001B` otherwise. */
export const char = (c: string): string => (/^[\x21-\x7e]$/.test(c) ? JSON.stringify(c) : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)

/** The first character of `s` that `allowed` (a one-character pattern) refuses, named as `char` names it. */
export const offending = (s: string, allowed: RegExp): string => char([...s].find((c) => !allowed.test(c)) ?? '')

/** The one-line message of a refusal: `package name "a;b": contains ";", which is not allowed`. */
export const message = (e: Invalid): string => `${e.what} ${quote(e.value)}: ${e.reason}`
