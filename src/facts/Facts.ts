// Facts: what plait knows about a machine, under CCM's names (`host.info.platformFamily`,
// `memory.virtual.total`, ...), assembled from layers of increasing precedence: system facts <
// facts files (/etc/plait, then ~/.config/plait) < `--facts FILE` < `--fact k=v`. Layers merge as
// CCM merges facts: maps key by key, lists concatenated, anything else replaced.
import * as E from 'fp-ts/lib/Either.js'
import * as Y from 'yaml'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Hierarchy from '../manifest/Hierarchy.js'

// model

/** A fact tree: a map of JSON-like values. */
export type Facts = Readonly<Record<string, unknown>>

/** The fact layers, each in its own precedence order (later wins). */
export interface Layers {
  /** Gathered from the machine. */
  readonly system: Facts
  /** Facts files: /etc/plait then ~/.config/plait, each facts.json, facts.yaml, facts.d/* by name. */
  readonly files: ReadonlyArray<Facts>
  /**
   * `--facts FILE`: the facts of another machine (as `plait facts --json` prints them there). It
   * stands for that machine, so it replaces the system facts and facts files of this one.
   */
  readonly factsFile?: Facts
  /** `--fact k=v`, in command-line order. */
  readonly assignments: ReadonlyArray<Facts>
}

/** The system facts plait gathers, by CCM's (gopsutil's) names, for documentation and tests. */
export const systemNames: ReadonlyArray<string> = Object.freeze([
  'host.info.hostname',
  'host.info.uptime',
  'host.info.bootTime',
  'host.info.procs',
  'host.info.os',
  'host.info.platform',
  'host.info.platformFamily',
  'host.info.platformVersion',
  'host.info.kernelVersion',
  'host.info.kernelArch',
  'host.info.virtualizationSystem',
  'host.info.virtualizationRole',
  'host.info.hostId',
  'network.interfaces',
  'network.addresses',
  'network.default_ipv4',
  'network.default_ipv6',
  'partition.partitions',
  'partition.usage',
  'cpu.info',
  'memory.virtual',
  'memory.swap.info',
  'memory.swap.devices',
])

/** No facts. */
export const empty: Facts = Object.freeze({})

// constructors

const isMap = (v: unknown): v is Facts => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Parses one `--fact` assignment, `key=value`: a dotted key builds nested maps
 * (`host.info.platformFamily=debian`), and the value is always a string, as CCM's `--fact` keeps
 * it (`--fact port=8080` is "8080"; typed values belong in a facts file).
 */
export const assignment = (text: string): E.Either<Diagnostic.Diagnostic, Facts> => {
  const eq = text.indexOf('=')
  const bad = (why: string): E.Either<Diagnostic.Diagnostic, Facts> =>
    E.left(Diagnostic.make('Validation', `--fact ${JSON.stringify(text)}: ${why}`, { hint: 'write --fact key=value, for example --fact role=web or --fact host.info.platformFamily=debian' }))
  if (eq < 0) return bad('no "="')
  const key = text.slice(0, eq)
  const value = text.slice(eq + 1)
  if (key === '') return bad('the key is empty')
  const path = key.split('.')
  if (path.some((p) => p === '')) return bad('the key has an empty segment')
  let out: unknown = value
  for (let i = path.length - 1; i >= 0; i--) {
    const level: Record<string, unknown> = {}
    Hierarchy.setKey(level, path[i]!, out)
    out = level
  }
  return E.right(out as Facts)
}

// combinators

/** Merges one fact layer over another: maps key by key, lists concatenated, anything else replaced. */
export const merge = (base: Facts, over: Facts): Facts => Hierarchy.deepValues(base, over) as Facts

/** Assembles the layers into the facts a manifest sees. */
export const assemble = (layers: Layers): Facts => {
  const below = layers.factsFile !== undefined ? [layers.factsFile] : [layers.system, ...layers.files]
  return Hierarchy.deepValuesAll([empty, ...below, ...layers.assignments]) as Facts
}

// a GJSON-like query: `host.info.platform`, `cpu.info.0.modelName`, `network.interfaces.#`
// (a length), `cpu.info.#.modelName` (one field of every element); `\.` escapes a dot in a key

const splitQuery = (q: string): ReadonlyArray<string> => {
  const out: string[] = []
  let cur = ''
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!
    if (c === '\\' && i + 1 < q.length) {
      cur += q[i + 1]
      i += 1
    } else if (c === '.') {
      out.push(cur)
      cur = ''
    } else {
      cur += c
    }
  }
  out.push(cur)
  return out
}

const step = (v: unknown, path: ReadonlyArray<string>, done: ReadonlyArray<string>): E.Either<string, unknown> => {
  if (path.length === 0) return E.right(v)
  const [seg, ...rest] = path as [string, ...string[]]
  const here = done.length === 0 ? 'the top level' : done.join('.')
  if (Array.isArray(v)) {
    if (seg === '#') {
      if (rest.length === 0) return E.right(v.length)
      const all: unknown[] = []
      for (const item of v) {
        const r = step(item, rest, [...done, '#'])
        if (E.isRight(r)) all.push(r.right)
      }
      return E.right(all)
    }
    if (/^[0-9]+$/.test(seg)) {
      const i = Number(seg)
      return i < v.length ? step(v[i], rest, [...done, seg]) : E.left(`${here} has ${v.length} element${v.length === 1 ? '' : 's'}, no ${seg}`)
    }
    return E.left(`${here} is a list: use an index, or # for its length`)
  }
  if (isMap(v)) {
    if (!Object.prototype.hasOwnProperty.call(v, seg)) {
      const keys = Object.keys(v)
      return E.left(`${here} has no key "${seg}"${keys.length > 0 ? ` (it has ${keys.slice(0, 12).join(', ')}${keys.length > 12 ? ', ...' : ''})` : ''}`)
    }
    return step(v[seg], rest, [...done, seg])
  }
  return E.left(`${here} is ${v === null ? 'null' : `a ${typeof v}`}, it has no "${seg}"`)
}

/** Looks a dotted query up; the empty query gives everything. */
export const query = (facts: unknown, q: string): E.Either<string, unknown> => (q === '' ? E.right(facts) : step(facts, splitQuery(q), []))

// interop

/** Draws facts (or one queried value) for `plait facts`: YAML for people, or JSON; a string prints bare. */
export const render = (value: unknown, format: 'text' | 'json'): string => {
  if (format === 'json') return JSON.stringify(value, null, 2) + '\n'
  if (typeof value === 'string') return value.endsWith('\n') ? value : value + '\n'
  if (value === null || typeof value !== 'object') return String(value) + '\n'
  return Y.stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })
}
