// The cache of `_cache` references (src/interpreters/bolt/cache.ts), on real files in a temporary
// directory: read once a run, each value kept appended as one line, the last line of a key
// winning; a file of the earlier form (one JSON object), or with more dead lines than live ones,
// rewritten whole at the first write; damage an empty cache, never an error.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Cache from '../../../src/interpreters/bolt/cache.js'

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-cache-'))
afterAll(() => fs.rmSync(base, { recursive: true, force: true }))
let n = 0
const fresh = (): string => path.join(base, `c${++n}`, 'plait', 'bolt-plugin-cache.json')
const lines = (file: string): ReadonlyArray<string> => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '')

describe('Cache.parse', () => {
  const entry = fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), value: fc.jsonValue({ maxDepth: 2 }), expires: fc.integer() })
  test.prop([fc.array(fc.oneof(entry, fc.constantFrom('garbage', '{"key": 1}', '{"cut')), { maxLength: 30 })])('reads each key as its last whole line, skipping lines that are not entries', (items) => {
    const text = items.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n'
    const model = new Map<string, { value: unknown; expires: number }>()
    for (const x of items) if (typeof x !== 'string') model.set(x.key, { value: JSON.parse(JSON.stringify(x.value)) as unknown, expires: x.expires })
    const got = Cache.parse(text)
    expect(got.entries).toEqual(model)
    expect(got.lines).toBe(items.length)
  })

  it('reads the earlier form, one object of entries by key, as entries to rewrite', () => {
    const got = Cache.parse(JSON.stringify({ k1: { value: 1, expires: 5 }, k2: { nope: true } }))
    expect(got.entries).toEqual(new Map([['k1', { value: 1, expires: 5 }]]))
    expect(got.lines).toBeUndefined()
  })
})

describe('Cache.open', () => {
  it('keeps a value by appending one line for it, and a later run reads every value kept', async () => {
    const file = fresh()
    let t = 1_000_000
    const run1 = Cache.open(file, () => t)
    for (let i = 0; i < 50; i++) expect(await run1.put(`k${i}`, { i }, 60)).toEqual(E.right(undefined))
    expect(lines(file)).toHaveLength(50)
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600')
    const run2 = Cache.open(file, () => t)
    expect(await run2.get('k7')).toEqual({ value: { i: 7 } })
    await run2.put('k7', 'again', 60)
    expect(lines(file)).toHaveLength(51)
    expect(await Cache.open(file, () => t).get('k7')).toEqual({ value: 'again' })
    // past its ttl: a miss
    t += 61_000
    expect(await Cache.open(file, () => t).get('k7')).toBeUndefined()
  })

  it('rewrites a file of mostly dead lines whole at the first write, keeping only the live entries', async () => {
    const file = fresh()
    let t = 1_000_000
    const old = Cache.open(file, () => t)
    for (let i = 0; i < 200; i++) await old.put(`k${i}`, i, 10)
    await old.put('long', 'kept', 3600)
    t += 20_000
    const later = Cache.open(file, () => t)
    await later.put('new', 'value', 60)
    expect(lines(file)).toHaveLength(2)
    expect(await Cache.open(file, () => t).get('long')).toEqual({ value: 'kept' })
    expect(await Cache.open(file, () => t).get('new')).toEqual({ value: 'value' })
  })

  it('reads a file of the earlier form and rewrites it as lines at the first write', async () => {
    const file = fresh()
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, JSON.stringify({ k1: { value: 'one', expires: 2_000_000 } }))
    const c = Cache.open(file, () => 1_000_000)
    expect(await c.get('k1')).toEqual({ value: 'one' })
    await c.put('k2', 'two', 60)
    expect(lines(file).map((l) => (JSON.parse(l) as { key: string }).key)).toEqual(['k1', 'k2'])
  })

  it('is an empty cache when the file is damaged, and the first write replaces it', async () => {
    const file = fresh()
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, '{"key":"k1","value":1,"expires":9e15}\n\u0000\u0001 not json\n{"key":"k2","val')
    const c = Cache.open(file, () => 1_000_000)
    expect(await c.get('k1')).toEqual({ value: 1 })
    expect(await c.get('k2')).toBeUndefined()
    await c.put('k3', 3, 60)
    // two whole lines of three: not rewritten, the new line appended after a newline of its own
    expect(await Cache.open(file, () => 1_000_000).get('k3')).toEqual({ value: 3 })
  })
})
