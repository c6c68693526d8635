// compiled: a manifest's text compiled in-process (no facts, no files), for decoder tests: its
// diagnostics as `file:line:col: message` lines, or its first resource.
import * as E from 'fp-ts/lib/Either.js'
import { compile } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'

/** Compiles a manifest's text as `m.yaml`. */
export const decode = (text: string) => compile('m.yaml', text, '/', {})

/** Its diagnostics, rendered, one a line ('' when it compiles). */
export const errors = (text: string): string => {
  const r = decode(text)
  return E.isLeft(r) ? r.left.map(Diagnostic.render).join('\n') : ''
}

/** Its first resource (throws with the diagnostics when it does not compile). */
export const specOf = (text: string) => {
  const r = decode(text)
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right.resources[0]
}
