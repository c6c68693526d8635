// Params: a task's parameters checked against its metadata before it runs, as Bolt checks them:
// defaults fill what was left out, and every unknown, missing or ill-typed parameter is reported
// at once in Puppet's words, naming the task. Never throws, whatever the values.
import * as E from 'fp-ts/lib/Either.js'
import type * as Metadata from './Metadata.js'
import * as Type from './Type.js'

// model

/** Parameters as a reference gives them (plain data). */
export type Params = Readonly<Record<string, unknown>>

// constructors

/** The parameters with defaults applied, or one message listing every problem: "Task m::t: has no parameter named 'x'; expects a value for parameter 'y'". */
export const validate = (task: string, meta: Metadata.Metadata, given: Params): E.Either<string, Params> => {
  const declared = meta.parameters
  if (declared === undefined) return E.right(given)
  const problems: string[] = []
  const out: Record<string, unknown> = {}
  for (const [name, p] of declared) {
    if (Object.hasOwn(p, 'default') && !Object.hasOwn(given, name)) out[name] = p.default
  }
  for (const name of Object.keys(given).sort()) {
    const p = declared.get(name)
    if (p === undefined) problems.push(`has no parameter named '${quote(name)}'`)
    else {
      const problem = Type.check(p.type, given[name])
      if (problem !== undefined) problems.push(`parameter '${name}' ${problem}`)
      else out[name] = given[name]
    }
  }
  for (const [name, p] of declared) {
    if (!Object.hasOwn(given, name) && !Object.hasOwn(p, 'default') && !Type.acceptsUndef(p.type)) problems.push(`expects a value for parameter '${name}'`)
  }
  return problems.length > 0 ? E.left(`Task ${task}: ${problems.join('; ')}`) : E.right(out)
}

/** A name from a reference, shortened and with control characters shown as escapes (it reaches a terminal). */
const quote = (name: string): string => {
  const short = name.length > 100 ? `${name.slice(0, 100)}...` : name
  return JSON.stringify(short).slice(1, -1)
}
