// PlaitHints: the plait extension of a libral provider's metadata, the map under
// `provider.plait`: `noop` (the provider honours ral_noop), `timeout` (seconds) and `test` (the
// patterns `plait provider test` generates names and values from). Upstream libral ignores it.
import * as Node from '../../../manifest/Node.js'
import type { Position } from '../../../core/Position.js'
import * as Value from './Value.js'

// model

/** Records a problem at a position (decoding goes on, to report every problem). */
export type Fail = (message: string, at: Position, hint?: string) => void

/** What the hints need of an attribute of the provider (Metadata.Attribute is one). */
export interface Attribute {
  readonly name: string
  readonly type: Value.DataType
}

/** Hints for `plait provider test`: regular expressions that generated names and values must match. */
export interface TestHints {
  readonly name?: string
  readonly attributes: Readonly<Record<string, string>>
}

/** The plait extension keys under `provider.plait`. */
export const plaitKeys = ['noop', 'timeout', 'test'] as const

/** What `provider.plait` says; its defaults when the map is absent. */
export interface Plait {
  readonly noop: boolean
  readonly timeoutSeconds?: number
  readonly test: TestHints
}

// decoding

/** Decodes `provider.plait` of the provider map `p`; undefined after `fail` was told every problem. */
export const decode = (p: Node.MapNode, attributes: ReadonlyArray<Attribute>, fail: Fail): Plait | undefined => {
  const e = Node.get(p, 'plait')
  if (e === undefined) return { noop: false, test: { attributes: {} } }
  if (e.value._tag !== 'Map') {
    fail(`provider.plait must be a map, found ${Node.describe(e.value)}`, e.value.at)
    return undefined
  }
  const m = e.value
  let ok = true
  for (const x of m.entries) {
    if (!(plaitKeys as ReadonlyArray<string>).includes(x.key)) {
      fail(`provider.plait: unknown key "${x.key}"`, x.keyAt, `plait keys are ${plaitKeys.join(', ')}`)
      ok = false
    }
  }
  let noop = false
  const n = Node.get(m, 'noop')
  if (n !== undefined) {
    if (n.value._tag === 'Scalar' && typeof n.value.value === 'boolean') noop = n.value.value
    else {
      fail(`provider.plait.noop must be true or false, found ${Node.describe(n.value)}`, n.value.at)
      ok = false
    }
  }
  let timeoutSeconds: number | undefined
  const t = Node.get(m, 'timeout')
  if (t !== undefined) {
    if (t.value._tag === 'Scalar' && typeof t.value.value === 'number' && t.value.value > 0 && Number.isFinite(t.value.value)) timeoutSeconds = t.value.value
    else {
      fail('provider.plait.timeout must be a positive number of seconds', t.value.at)
      ok = false
    }
  }
  const test = decodeTest(Node.get(m, 'test'), attributes, fail)
  if (test === undefined) ok = false
  if (!ok || test === undefined) return undefined
  return timeoutSeconds === undefined ? { noop, test } : { noop, timeoutSeconds, test }
}

const decodeTest = (e: Node.Entry | undefined, attributes: ReadonlyArray<Attribute>, fail: Fail): TestHints | undefined => {
  if (e === undefined) return { attributes: {} }
  if (e.value._tag !== 'Map') {
    fail(`provider.plait.test must be a map (name, attributes), found ${Node.describe(e.value)}`, e.value.at)
    return undefined
  }
  let ok = true
  const regex = (n: Node.Node, what: string): string | undefined => {
    if (n._tag !== 'Scalar' || typeof n.value !== 'string') {
      fail(`provider.plait.test: ${what} must be a regular expression (a string), found ${Node.describe(n)}`, n.at)
      ok = false
      return undefined
    }
    try {
      new RegExp(n.value)
    } catch (err) {
      fail(`provider.plait.test: ${what} is not a valid regular expression: ${(err as Error).message}`, n.at)
      ok = false
      return undefined
    }
    return n.value
  }
  let name: string | undefined
  const attrs: Record<string, string> = {}
  for (const x of e.value.entries) {
    if (x.key === 'name') name = regex(x.value, 'name')
    else if (x.key === 'attributes') {
      if (x.value._tag !== 'Map') {
        fail('provider.plait.test.attributes must map attribute names to regular expressions', x.value.at)
        ok = false
        continue
      }
      for (const a of x.value.entries) {
        const attr = attributes.find((y) => y.name === a.key)
        if (attr === undefined) {
          fail(`provider.plait.test.attributes: "${a.key}" is not an attribute of this provider`, a.keyAt)
          ok = false
          continue
        }
        if (attr.type._tag === 'Boolean' || attr.type._tag === 'Enum') {
          fail(`provider.plait.test.attributes: "${a.key}" is ${Value.formatType(attr.type)}; only string and array[string] values are generated from a pattern`, a.keyAt)
          ok = false
          continue
        }
        const r = regex(a.value, `attributes.${a.key}`)
        if (r !== undefined) attrs[a.key] = r
      }
    } else {
      fail(`provider.plait.test: unknown key "${x.key}"`, x.keyAt, 'keys are name and attributes')
      ok = false
    }
  }
  if (!ok) return undefined
  return name === undefined ? { attributes: attrs } : { name, attributes: attrs }
}
