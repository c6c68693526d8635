// Redact: a sealed plan holds no sensitive value in clear, anywhere; its marker tells a changed
// secret from an unchanged one under the same key; a plan without secrets is unchanged; revealing
// (apply, in memory) gives the clear plan back, its text contents with their clear digests.
import { createHash } from 'node:crypto'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import * as Redact from '../../src/planfile/Redact.js'
import type { FileResourcePlan } from '../../src/types/file/ResourcePlan.js'

const key = new Uint8Array(32).fill(7)
const otherKey = new Uint8Array(32).fill(9)

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

const root = { name: 'root', id: 0 }

/** A file resource with some text in its content, in its step's reason and in one key of `desired`. */
const appConf = (text: string): FileResourcePlan => ({
  kind: 'file',
  id: 'file#/etc/app.conf',
  type: 'file',
  name: '/etc/app.conf',
  at: 'm.yaml:4:11',
  action: 'create',
  desired: { ensure: 'present', force: false, mode: '0600', owner: root, group: root, [`key-${text}`]: true },
  observed: { summary: 'absent', digest: 'sha256:00' },
  steps: [{ _tag: 'file.write', path: '/etc/app.conf', reason: `was ${text}`, noop: 'Would have created the file', content: { encoding: 'utf8', data: `password=${text}\n`, sha256: '00', size: 1 }, owner: root, group: root, mode: '0600' }],
})

/** A plan body with some text in a file's content, in a step's reason and in one key. */
const bodyWith = (text: string): Plan.Body => ({
  format: 'plait.plan/2',
  plait: '0.1.0',
  root: '/',
  inputs: { manifest: { path: 'm.yaml', sha256: 'ab'.repeat(32) }, sources: [], reads: [] },
  failOnError: false,
  resources: [appConf(text)],
  summary: { create: 1, update: 0, delete: 0, unchanged: 0 },
})

describe('Redact', () => {
  it('leaves no sensitive value in a sealed plan file, in values or keys, and seals the redacted body', () => {
    const plan = PlanFile.seal(bodyWith('hunter2-s3cret'), { values: ['hunter2-s3cret'], key })
    const text = PlanFile.serialize(plan)
    expect(text).not.toContain('hunter2-s3cret')
    const m = Redact.marker(key, 'hunter2-s3cret')
    expect(m).toMatch(/^⟦sensitive:[0-9a-f]{16}⟧$/)
    expect(text).toContain(`password=${m}`)
    expect(text).toContain(`was ${m}`)
    expect(text).toContain(`key-${m}`)
    const { hash, ...sealed } = JSON.parse(text) as Plan.Plan
    expect(hash).toBe(PlanFile.hashOf(sealed as Plan.Body))
  })

  it('gives the same marker for the same value and key, another for another value or key', () => {
    expect(Redact.marker(key, 'a-secret')).toBe(Redact.marker(key, 'a-secret'))
    expect(Redact.marker(key, 'a-secret')).not.toBe(Redact.marker(key, 'b-secret'))
    expect(Redact.marker(key, 'a-secret')).not.toBe(Redact.marker(otherKey, 'a-secret'))
  })

  it('gives back a body without secrets as it is, so plans without them are byte-identical', () => {
    const body = bodyWith('public')
    expect(Redact.body(body, { values: [], key })).toBe(body)
    expect(Redact.body(body, { values: [''], key })).toBe(body)
    expect(PlanFile.serialize(PlanFile.seal(body, { values: [], key }))).toBe(PlanFile.serialize(PlanFile.seal(body)))
  })

  it('replaces the longer of two overlapping values, and characters special to patterns literally', () => {
    const body = { note: 'x a.b+c a.b y' } as unknown as Plan.Body
    const out = Redact.body(body, { values: ['a.b', 'a.b+c'], key }) as unknown as { note: string }
    expect(out.note).toBe(`x ${Redact.marker(key, 'a.b+c')} ${Redact.marker(key, 'a.b')} y`)
    const none = Redact.body({ note: 'aXb' } as unknown as Plan.Body, { values: ['a.b'], key }) as unknown as { note: string }
    expect(none.note).toBe('aXb')
  })

  const secret = fc.string({ minLength: 1, maxLength: 12 })
  const json = fc.jsonValue({ maxDepth: 3 })

  test.prop([json, fc.array(secret, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(), { maxLength: 4 })])(
    'no string of a redacted body holds a whole sensitive value outside a marker (law)',
    (value, secrets, spots) => {
      // Plant the secrets into the value's text, then redact.
      const planted = { value, text: spots.map((i) => `<${secrets[i % secrets.length]}>`).join(''), [secrets[0]!]: secrets.join('') }
      const out = Redact.body(planted as unknown as Plan.Body, { values: secrets, key })
      const strings: string[] = []
      const collect = (v: unknown): void => {
        if (typeof v === 'string') strings.push(v)
        else if (Array.isArray(v)) v.forEach(collect)
        else if (v !== null && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            strings.push(k)
            collect(x)
          }
        }
      }
      collect(out)
      for (const s of strings) for (const piece of s.split(Redact.markerPattern)) for (const x of secrets) expect(piece).not.toContain(x)
    },
  )

  it('gives a redacted text content the digest and size of its redacted data, and a revealed one those of its clear data', () => {
    const clear = bodyWith('hunter2-s3cret')
    const withDigest = { ...clear, resources: clear.resources.map((r) => ({ ...r, steps: r.steps.map((st) => ({ ...st, content: { encoding: 'utf8', data: 'password=hunter2-s3cret\n', sha256: sha('password=hunter2-s3cret\n'), size: 24 } })) })) } as Plan.Body
    const secrets = { values: ['hunter2-s3cret'], key }
    const redacted = Redact.body(withDigest, secrets)
    const content = (b: Plan.Body) => (b.resources[0]!.steps[0] as unknown as { content: { data: string; sha256: string; size: number } }).content
    expect(content(redacted).sha256).toBe(sha(content(redacted).data))
    expect(content(redacted).size).toBe(Buffer.byteLength(content(redacted).data))
    expect(JSON.stringify(redacted)).not.toContain(sha('password=hunter2-s3cret\n'))
    const back = Redact.reveal(redacted, secrets)
    expect(back.unknown).toEqual([])
    expect(content(back.value)).toEqual({ encoding: 'utf8', data: 'password=hunter2-s3cret\n', sha256: sha('password=hunter2-s3cret\n'), size: 24 })
  })

  it('names the markers no given value stands for, and leaves them in place', () => {
    const redacted = Redact.body(bodyWith('one-secret'), { values: ['one-secret'], key })
    const r = Redact.reveal(redacted, { values: ['another'], key })
    expect(r.unknown).toEqual([Redact.marker(key, 'one-secret')])
    expect(JSON.stringify(r.value)).toContain(Redact.marker(key, 'one-secret'))
  })

  it('redacts any value (a report, diagnostics) and texts, and digests a value under a key', () => {
    expect(Redact.value({ messages: ['wrote pw=xyz-9'], n: 1 }, { values: ['xyz-9'], key })).toEqual({ messages: [`wrote pw=${Redact.marker(key, 'xyz-9')}`], n: 1 })
    expect(Redact.text({ values: [], key })('xyz-9')).toBe('xyz-9')
    expect(Redact.digest(key, { a: 1, b: 'x' })).toMatch(/^hmac-sha256:[0-9a-f]{64}$/)
    expect(Redact.digest(key, { b: 'x', a: 1 })).toBe(Redact.digest(key, { a: 1, b: 'x' }))
    expect(Redact.digest(otherKey, { a: 1, b: 'x' })).not.toBe(Redact.digest(key, { a: 1, b: 'x' }))
  })

  const noMarks = fc.jsonValue({ maxDepth: 3 }).filter((v) => !JSON.stringify(v).includes('⟦'))

  test.prop([fc.array(noMarks, { maxLength: 6 }), fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 4 })])(
    'a redactor compiled once redacts each of many values as redacting it alone does',
    (vs, secrets) => {
      const s = { values: secrets, key }
      const redact = Redact.values(s)
      for (const v of vs) expect(redact(v)).toEqual(Redact.value(v, s))
    },
  )

  test.prop([noMarks, fc.array(fc.string({ minLength: 1, maxLength: 8 }).filter((x) => !x.includes('⟦') && !x.includes('⟧')), { minLength: 1, maxLength: 4 })])(
    'revealing a redacted value with the same values gives the value back (law: round trip)',
    (value, secrets) => {
      const planted = { value, text: secrets.join('|') }
      const s = { values: secrets, key }
      const r = Redact.reveal(Redact.value(planted, s), s)
      expect(r.unknown).toEqual([])
      expect(r.value).toEqual(planted)
    },
  )
})
