// The plugin cache and sensitive values: a reference whose parameters hold a sensitive value (an
// inner reference a secret plugin answered, or a string holding one of its texts) neither reads nor
// writes the cache, even with `_cache`: its key would be a digest of the secret, and its value is
// sensitive. Plugins run for real (shell modules of our own) under a temp dir.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Resolve from '../../../src/load/resolve.js'
import * as References from '../../../src/manifest/References.js'
import * as Cache from '../../../src/interpreters/bolt/cache.js'
import * as Resolvers from '../../../src/interpreters/bolt/resolvers.js'

let tmp: string
beforeAll(async () => {
  tmp = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-bolt-cache-sensitive-'))
})
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true })
})

const at = { file: 'm.yaml', line: 1, col: 1 }

/** A project with a secret plugin `vault` (gives Cs5-secret-value) and a plain plugin `wrap` (gives `wrapped:` and its token, counting its runs). */
const project = async (name: string): Promise<string> => {
  const dir = nodePath.join(tmp, name)
  const files: Readonly<Record<string, string>> = {
    'modules/vault/bolt_plugin.json': '{}',
    'modules/vault/tasks/resolve_reference.sh': '#!/bin/sh\ncat > /dev/null\necho \'{"value": "Cs5-secret-value"}\'\n',
    'modules/vault/tasks/secret_decrypt.sh': '#!/bin/sh\necho \'{"value": ""}\'\n',
    'modules/wrap/bolt_plugin.json': '{}',
    'modules/wrap/tasks/resolve_reference.sh': '#!/bin/sh\necho run >> count\nprintf \'{"value": "wrapped:%s"}\' "$PT_token"\n',
    'modules/wrap/tasks/resolve_reference.json': JSON.stringify({ input_method: 'environment', parameters: { token: { type: 'String' } } }),
  }
  for (const [p, text] of Object.entries(files)) {
    await fs.mkdir(nodePath.dirname(nodePath.join(dir, p)), { recursive: true })
    await fs.writeFile(nodePath.join(dir, p), text, { mode: 0o755 })
  }
  return dir
}

const runs = async (dir: string): Promise<number> => (await fs.readFile(nodePath.join(dir, 'count'), 'utf8').catch(() => '')).split('\n').filter((l) => l !== '').length

/** Resolves a document (as the resolve stage does) with the project's plugins, its cache in the project. */
const resolve = async (dir: string, doc: unknown, held?: (value: unknown) => void): Promise<Resolve.Outcome> => {
  const table = await Resolvers.resolversFor({ projectDir: dir, env: { ...process.env }, tmpdir: tmp, cacheFile: nodePath.join(dir, 'cache.json'), defaults: [], ...(held !== undefined ? { held } : {}) })
  if (E.isLeft(table)) throw new Error(table.left)
  const r = await Resolve.resolve(References.nodeOf(doc, at), table.right)
  if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('; '))
  return r.right
}

describe('_cache and sensitive parameters', () => {
  it('runs a cached reference whose parameter is a secret reference every time, and the cache never holds it', async () => {
    const dir = await project('inner')
    const doc = { d: { _plugin: 'wrap', token: { _plugin: 'vault' }, _cache: { ttl: 60 } }, p: { _plugin: 'wrap', token: 'public', _cache: { ttl: 60 } } }
    for (const n of [2, 3, 4]) {
      const out = await resolve(dir, doc)
      expect(out.resolved.map((r) => [r.value, r.sensitive])).toEqual([
        ['wrapped:Cs5-secret-value', true],
        ['wrapped:public', false],
      ])
      expect(await runs(dir)).toBe(n) // the plain one ran once and is cached since
    }
    const cache = await fs.readFile(nodePath.join(dir, 'cache.json'), 'utf8')
    expect(cache).not.toContain('Cs5')
    expect([...Cache.parse(cache).entries.values()].map((e) => e.value)).toEqual(['wrapped:public'])
  })

  it('tells `held` of each value a secret plugin gives, and of no other', async () => {
    const dir = await project('held')
    const told: unknown[] = []
    await resolve(dir, { s: { _plugin: 'vault' }, p: { _plugin: 'wrap', token: 'public' }, d: { _plugin: 'wrap', token: { _plugin: 'vault' } } }, (v) => told.push(v))
    // the inner reference's secret is told as its plugin gives it; `wrap` is no secret plugin (its value holds the secret's text)
    expect(told).toEqual(['Cs5-secret-value', 'Cs5-secret-value'])
  })

  it("neither reads an entry kept before: a cached value is not given for parameters that hold a secret", async () => {
    const dir = await project('read')
    // the same parameters as written, cached by a run in which no secret plugin answered
    await resolve(dir, { d: { _plugin: 'wrap', token: 'Cs5-secret-value', _cache: { ttl: 60 } } })
    expect(await runs(dir)).toBe(1)
    await resolve(dir, { s: { _plugin: 'vault' }, d: { _plugin: 'wrap', token: 'Cs5-secret-value', _cache: { ttl: 60 } } })
    expect(await runs(dir)).toBe(2)
  })
})

describe('Resolvers.sensitiveGiven', () => {
  it('holds nothing before a sensitive value is given', () => {
    expect(Resolvers.sensitiveGiven().heldBy({ a: 'x', b: [1, true, null] })).toBe(false)
  })

  it('finds a value whole, a text of it in a string, key or number, and nothing else', () => {
    const given = Resolvers.sensitiveGiven()
    given.add({ pw: 'Sg2-secret', n: 4821, flag: true })
    expect(given.heldBy({ token: { pw: 'Sg2-secret', n: 4821, flag: true } })).toBe(true)
    expect(given.heldBy({ token: 'prefix-Sg2-secret-suffix' })).toBe(true)
    expect(given.heldBy({ list: [1, 4821] })).toBe(true)
    expect(given.heldBy({ nested: { 'Sg2-secret': 1 } })).toBe(true)
    expect(given.heldBy({ token: 'Sg2-secre', n: 482, flag: true })).toBe(false)
  })

  it('answers the same once it searches for every text at once as while it searches text by text', () => {
    const texts = fc.string({ unit: fc.constantFrom('Q', 'R', 'S', '\n', ' '), maxLength: 12 })
    fc.assert(
      fc.property(fc.array(texts, { minLength: 1, maxLength: 4 }), fc.array(texts, { maxLength: 40 }), (secrets, asked) => {
        const make = () => {
          const given = Resolvers.sensitiveGiven()
          for (const v of secrets) given.add(v)
          return given
        }
        const one = make() // searches text by text until that has cost more than the automaton, then with it
        expect(asked.map((a) => one.heldBy({ p: a }))).toEqual(asked.map((a) => make().heldBy({ p: a })))
      }),
    )
  })

  it('law: parameters that embed a given value anywhere hold it; parameters built of other texts do not', () => {
    const jsonArb = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: 'small' }, fc.constantFrom('a', 'b', 'ab', 1, 2, true, null), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('k', 'l'), tie('v'), { maxKeys: 2 })) })).v
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('Q', 'R', 'S'), minLength: 1, maxLength: 8 }), jsonArb, fc.constantFrom('k', 'l'), (secret, params, key) => {
        const given = Resolvers.sensitiveGiven()
        given.add(secret)
        return given.heldBy({ [key]: [params, secret] }) && !given.heldBy({ [key]: params })
      }),
    )
  })
})
