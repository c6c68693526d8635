// Shared by the expression tests: the table's fixed environment and the table's value encoding.
import { readFileSync } from 'node:fs'
import * as E from 'fp-ts/lib/Either.js'
import * as Check from '../../../src/manifest/expr/Check.js'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Value from '../../../src/manifest/expr/Value.js'

export interface Case {
  readonly group: string
  readonly mode: 'full' | 'hiera'
  readonly expr: string
  readonly goType?: string
  readonly result?: Readonly<Record<string, unknown>>
  readonly error?: { readonly message: string; readonly line: number; readonly column: number }
}

export interface Table {
  readonly generator: string
  readonly env: {
    readonly facts: unknown
    readonly data: unknown
    readonly environ: Readonly<Record<string, string>>
    readonly files: Readonly<Record<string, string>>
    readonly now: string
  }
  readonly cases: ReadonlyArray<Case>
}

/** The table produced by tools/exprtable with expr-lang. */
export const table = JSON.parse(readFileSync(new URL('./table.json', import.meta.url), 'utf8')) as Table

/** The table's environment for a mode, with its files behind the readFile capability. */
export const tableEnv = (mode: Check.Mode): Evaluate.Env =>
  Evaluate.env({
    mode,
    facts: table.env.facts,
    data: table.env.data,
    environ: table.env.environ,
    now: Value.time(table.env.now)!,
    readFile: (p) => (Object.prototype.hasOwnProperty.call(table.env.files, p) ? E.right(table.env.files[p]!) : E.left('no such file or directory')),
  })

/** A value in the table's typed encoding: { int: "3" }, { float: 1.5 }, { array: [...] }, ... */
export const encode = (v: Value.Value): Readonly<Record<string, unknown>> => {
  switch (Value.kind(v)) {
    case 'nil':
      return { nil: null }
    case 'bool':
      return { bool: v }
    case 'int':
      return { int: (v as bigint).toString() }
    case 'float': {
      const f = v as number
      return { float: Number.isNaN(f) ? 'NaN' : f === Infinity ? '+Inf' : f === -Infinity ? '-Inf' : f }
    }
    case 'string':
      return { string: v }
    case 'time':
      return { time: Value.isoTime(v as Value.Time) }
    case 'array':
      return { array: (v as ReadonlyArray<Value.Value>).map(encode) }
    case 'map': {
      const m = v as Value.ValueMap
      return { map: Object.fromEntries(Object.keys(m).map((k) => [k, encode(m[k]!)])) }
    }
  }
}
