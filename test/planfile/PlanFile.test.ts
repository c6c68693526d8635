import { createHash } from 'node:crypto'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Digest from '../../src/core/Digest.js'
import * as Plan from '../../src/core/Plan.js'
import type { FileResourcePlan } from '../../src/types/file/ResourcePlan.js'
import type { FileStep as Step, FileWrite } from '../../src/types/file/Step.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import * as Registry from '../../src/types/registry.js'

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex')

/** A write step's content for some bytes, as the planner makes it. */
const contentOf = (bytes: Buffer, encoding: 'utf8' | 'base64' = 'utf8'): FileWrite['content'] => ({
  encoding,
  data: encoding === 'utf8' ? bytes.toString('utf8') : bytes.toString('base64'),
  sha256: sha(bytes),
  size: bytes.length,
})

const root = { name: 'root', id: 0 }

/** The file resource /etc/motd, to be created by these steps. */
const motd = (steps: ReadonlyArray<Step>, id: string): FileResourcePlan => ({
  kind: 'file',
  id,
  type: 'file',
  name: '/etc/motd',
  at: 'm.yaml:4:11',
  action: 'create',
  desired: { ensure: 'present', force: false, mode: '0644', owner: root, group: root },
  observed: { summary: 'absent', digest: 'sha256:00' },
  steps: [...steps],
})

const bodyWith = (steps: ReadonlyArray<Step>, id = 'file#/etc/motd'): Plan.Body => ({
  format: 'plait.plan/2',
  plait: '0.1.0',
  root: '/',
  inputs: { manifest: { path: 'm.yaml', sha256: 'ab'.repeat(32) }, sources: [], reads: [] },
  failOnError: false,
  resources: [motd(steps, id)],
  summary: { create: 1, update: 0, delete: 0, unchanged: 0 },
})

const write = (content: FileWrite['content']): FileWrite => ({
  _tag: 'file.write',
  path: '/etc/motd',
  reason: 'file does not exist',
  noop: 'Would have created the file',
  content,
  owner: root,
  group: root,
  mode: '0644',
})

export const samplePlan = (content = 'hello\n'): Plan.Plan => PlanFile.seal(bodyWith([write(contentOf(Buffer.from(content, 'utf8')))]))

/** Every kind of step, with utf8 and base64 content, a diff, and the optional plan fields. */
const fullBody = (): Plan.Body => ({
  ...bodyWith([
    { ...write(contentOf(Buffer.from('new\n'))), diff: '--- /etc/motd\n+++ /etc/motd\n@@ -1 +1 @@\n-old\n+new\n' },
    write(contentOf(Buffer.from([0, 1, 2, 255]), 'base64')),
    { _tag: 'file.mkdir', path: '/etc/d', reason: 'directory does not exist', noop: 'Would have created directory', owner: root, group: root, mode: '0755' },
    { _tag: 'file.attrs', path: '/etc/d', reason: 'mode 0700 → 0755', noop: 'Would have updated directory attributes', owner: root, group: root, mode: '0755' },
    { _tag: 'file.remove', path: '/etc/old', reason: 'file exists', noop: 'Would have removed the file', kind: 'file', recursive: false },
  ]),
  preMessage: 'before',
  postMessage: 'after',
})

/** The plan text with one resource's step replaced by `f` of it, and the plan hash recomputed (a careful attacker). */
const edited = (plan: Plan.Plan, f: (s: Record<string, unknown>) => void): string => {
  const raw = JSON.parse(PlanFile.serialize(plan)) as Plan.Plan & { resources: { steps: Record<string, unknown>[] }[] }
  f(raw.resources[0]!.steps[0]!)
  const { hash: _hash, ...body } = raw
  return PlanFile.serialize(PlanFile.seal(body as Plan.Body))
}

describe('PlanFile', () => {
  it('round-trips a plan byte for byte', () => {
    const text = PlanFile.serialize(samplePlan())
    const back = PlanFile.parse('plan.json', text)
    expect(E.isRight(back)).toBe(true)
    if (E.isRight(back)) expect(PlanFile.serialize(back.right)).toBe(text)
    expect(text.endsWith('\n')).toBe(true)
  })

  it('refuses a plan nested deeper than plait makes one, as malformed, before hashing it (a stack overflow before)', () => {
    const text = PlanFile.serialize(samplePlan())
    const deep = `${text.slice(0, text.lastIndexOf('}'))},"zzz":${'['.repeat(6000)}${']'.repeat(6000)}}`
    const r = PlanFile.parse('deep.json', deep)
    expect(E.isLeft(r) && r.left.message).toBe('malformed plan: it nests deeper than 1000 levels')
  })

  fcTest.prop([fc.string()])('any content round-trips and serializes deterministically', (content) => {
    const a = PlanFile.serialize(samplePlan(content))
    const b = PlanFile.serialize(samplePlan(content))
    expect(a).toBe(b)
    const back = PlanFile.parse('plan.json', a)
    expect(E.isRight(back) && PlanFile.serialize(back.right)).toBe(a)
  })

  fcTest.prop([fc.uint8Array({ maxLength: 64 })])('binary content round-trips', (bytes) => {
    const text = PlanFile.serialize(PlanFile.seal(bodyWith([write(contentOf(Buffer.from(bytes), 'base64'))])))
    expect(E.isRight(PlanFile.parse('plan.json', text))).toBe(true)
  })

  fcTest.prop([fc.string({ minLength: 1 })])('a plan whose content was changed is refused as tampered', (extra) => {
    const plan = samplePlan()
    const raw = JSON.parse(PlanFile.serialize(plan)) as { resources: { steps: { content: { data: string } }[] }[] }
    raw.resources[0]!.steps[0]!.content.data += extra
    const r = PlanFile.parse('plan.json', JSON.stringify(raw))
    expect(E.isLeft(r) && r.left.message).toMatch(/plan has been modified since it was made/)
  })

  /** A JSON value with every object's keys in an order `pick` chooses (a tool that rewrote the file). */
  const reordered = (v: unknown, pick: (keys: string[]) => string[]): unknown => {
    if (Array.isArray(v)) return v.map((x) => reordered(x, pick))
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const k of pick(Object.keys(v))) out[k] = reordered((v as Record<string, unknown>)[k], pick)
    return out
  }

  fcTest.prop([fc.integer()])('accepts a plan whose keys another tool put in any order, as the same plan', (seed) => {
    const text = PlanFile.serialize(PlanFile.seal(fullBody()))
    // a deterministic shuffle of each object's keys from the seed
    const pick = (keys: string[]): string[] => keys.map((k, i) => [k, Math.sin(seed + i * 7919)] as const).sort((a, b) => a[1] - b[1]).map(([k]) => k)
    const back = PlanFile.parse('plan.json', JSON.stringify(reordered(JSON.parse(text), pick), null, 1))
    expect(E.isRight(back) && PlanFile.serialize(back.right)).toBe(text)
  })

  it('refuses a plan with a key added that decoding would drop, as tampered', () => {
    const raw = JSON.parse(PlanFile.serialize(samplePlan())) as { resources: Record<string, unknown>[] }
    raw.resources[0]!['note'] = 'added after review'
    const r = PlanFile.parse('plan.json', JSON.stringify(raw))
    expect(E.isLeft(r) && r.left.message).toMatch(/plan has been modified since it was made|malformed plan/)
  })

  it('hashes a body as the canonical JSON of its encoding, for every kind of step', () => {
    const body = fullBody()
    expect(PlanFile.hashOf(body)).toBe(PlanFile.hashOf(Registry.bodyCodec().encode(body)))
    expect(Registry.bodyCodec().encode(body)).toStrictEqual(body)
    expect(E.isRight(PlanFile.parse('plan.json', PlanFile.serialize(PlanFile.seal(body))))).toBe(true)
  })

  it('seals lazily to the same plan, computing the hash once when it is read', () => {
    const body = fullBody()
    const lazy = PlanFile.sealLazily(body)
    const eager = PlanFile.seal(body)
    expect(PlanFile.serialize(lazy)).toBe(PlanFile.serialize(eager))
    expect(lazy).toStrictEqual(eager)
    expect({ ...lazy }).toStrictEqual(eager)
    expect(lazy.hash).toBe(eager.hash)
    expect(Object.keys(lazy)).toStrictEqual(Object.keys(eager))
  })

  it('serializes as the sorted copy of the whole plan, however the plan was sealed or read', () => {
    const reference = (p: Plan.Plan): string => JSON.stringify(Digest.sortKeys(JSON.parse(JSON.stringify(p))), null, 2) + '\n'
    const body = fullBody()
    const eager = PlanFile.seal(body)
    const lazy = PlanFile.sealLazily(body)
    const parsed = PlanFile.parse('plan.json', PlanFile.serialize(eager))
    const resealed = PlanFile.seal(eager) // a plan sealed again: its old hash is part of the body
    for (const p of [eager, lazy, E.getOrElseW(() => eager)(parsed), resealed, { ...eager }]) expect(PlanFile.serialize(p)).toBe(reference(p))
    expect(PlanFile.serialize(lazy)).toBe(PlanFile.serialize(eager))
  })

  it.each([
    ['not json', /invalid JSON/],
    ['[1]', /expected a JSON object/],
    ['{}', /no "format" field/],
    ['{"format": "plait.plan/99"}', /unknown plan format "plait.plan\/99"/],
    ['{"format": "plait.plan/2"}', /malformed plan/],
    ['{"format": "plait.plan/1"}', /made by an older plait/],
  ])('refuses %s', (text, why) => {
    const r = PlanFile.parse('plan.json', text)
    expect(E.isLeft(r) && r.left.message).toMatch(why)
    expect(E.isLeft(r) && r.left.code).toBe('PlanFile')
  })
})

describe('PlanFile.parse: write contents', () => {
  it('refuses a write whose content was edited and whose hashes were recomputed, naming the resource and the step', () => {
    const text = edited(samplePlan('hello\n'), (s) => {
      ;(s['content'] as { data: string }).data = 'rm -rf /\n'
    })
    const r = PlanFile.parse('plan.json', text)
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    expect(r.left.code).toBe('PlanFile')
    expect(r.left.resource).toBe('file#/etc/motd')
    expect(r.left.message).toMatch(/^step 1 \(file\.write \/etc\/motd\): its content does not match its declared sha256 and size/)
    expect(r.left.message).toContain('6 bytes')
    expect(r.left.message).toContain('9 bytes')
  })

  it('refuses a write whose size alone is wrong', () => {
    const r = PlanFile.parse('plan.json', edited(samplePlan(), (s) => void ((s['content'] as { size: number }).size += 1)))
    expect(E.isLeft(r) && r.left.message).toMatch(/does not match its declared sha256 and size/)
  })

  it('refuses binary content whose bytes changed, or that is not canonical base64', () => {
    const plan = PlanFile.seal(bodyWith([write(contentOf(Buffer.from([1, 2, 3, 4, 5]), 'base64'))]))
    const changed = PlanFile.parse('plan.json', edited(plan, (s) => void ((s['content'] as { data: string }).data = Buffer.from([1, 2, 3, 4, 6]).toString('base64'))))
    expect(E.isLeft(changed) && changed.left.message).toMatch(/does not match its declared sha256/)
    const junk = PlanFile.parse('plan.json', edited(plan, (s) => void ((s['content'] as { data: string }).data += '!!')))
    expect(E.isLeft(junk) && junk.left.message).toMatch(/not canonical base64/)
  })

  it('names the step by its position among the resource’s steps', () => {
    const body = bodyWith([{ _tag: 'file.mkdir', path: '/etc', reason: 'r', noop: 'n', owner: root, group: root, mode: '0755' }, write({ ...contentOf(Buffer.from('x')), sha256: '0'.repeat(64) })], 'file#/etc/x')
    const r = PlanFile.parse('plan.json', PlanFile.serialize(PlanFile.seal(body)))
    expect(E.isLeft(r) && r.left.message).toMatch(/^step 2 \(file\.write/)
    expect(E.isLeft(r) && r.left.resource).toBe('file#/etc/x')
  })
})

describe('PlanFile.parse: malformed plans', () => {
  const malformed = (f: (raw: Record<string, unknown> & { resources: Record<string, unknown>[] }) => void): string => {
    const raw = JSON.parse(PlanFile.serialize(PlanFile.seal(fullBody()))) as Record<string, unknown> & { resources: Record<string, unknown>[] }
    f(raw)
    const r = PlanFile.parse('plan.json', JSON.stringify(raw))
    if (E.isRight(r)) throw new Error('expected a refusal')
    expect(r.left.code).toBe('PlanFile')
    return r.left.message
  }

  it('names the offending JSON path, what was expected and what was found', () => {
    const m = malformed((raw) => {
      ;((raw.resources[0]!['steps'] as Record<string, unknown>[])[2]!)['mode'] = 420
    })
    expect(m).toBe('malformed plan: resources[0].steps[2].mode: expected string, found 420')
  })

  it('names a missing field and an unknown step kind once', () => {
    expect(malformed((raw) => void delete raw.resources[0]!['name'])).toBe('malformed plan: resources[0].name: missing (expected string)')
    const m = malformed((raw) => void (((raw.resources[0]!['steps'] as Record<string, unknown>[])[4]!)['_tag'] = 'file.chmod'))
    expect(m).toBe('malformed plan: resources[0].steps[4]._tag: expected "file.write" | "file.mkdir" | "file.attrs" | "file.remove", found "file.chmod"')
  })

  it('names an unknown resource kind at its kind, and a missing one', () => {
    expect(malformed((raw) => void (raw.resources[0]!['kind'] = 'mount'))).toBe('malformed plan: resources[0].kind: expected "file" | "exec" | "service" | "package" | "holo" | "libral", found "mount"')
    expect(malformed((raw) => void delete raw.resources[0]!['kind'])).toBe('malformed plan: resources[0].kind: missing (expected "file" | "exec" | "service" | "package" | "holo" | "libral")')
  })

  it('stays short when everything is wrong: the first few paths, then how many more', () => {
    const m = malformed((raw) => {
      raw.resources = Array.from({ length: 50 }, () => ({ kind: 'file', id: 1, steps: [{ _tag: 'file.write' }] }))
    })
    const lines = m.split('; ')
    expect(m).not.toContain('\n')
    expect(lines.length).toBeLessThanOrEqual(4)
    expect(lines[0]).toMatch(/^malformed plan: resources\[0\]\.id: expected string, found 1$/)
    expect(lines[lines.length - 1]).toMatch(/^\(and \d+ more\)$/)
    expect(m.length).toBeLessThan(400)
  })

  it('says what a whole section should have been', () => {
    expect(malformed((raw) => void (raw.resources = 'none' as never))).toBe('malformed plan: resources: expected a list, found "none"')
    expect(malformed((raw) => void (raw['summary'] = null))).toBe('malformed plan: summary: expected an object, found null')
  })
})

describe('PlanFile.parse: what is not a plan at all', () => {
  const refusal = (text: string) => {
    const r = PlanFile.parse('p.json', text)
    if (E.isRight(r)) throw new Error('expected a refusal')
    return r.left
  }

  it('refuses what is not a JSON object, naming the file at its first line', () => {
    for (const text of ['[]', 'null', '42', '"plan"']) {
      expect(refusal(text)).toMatchObject({ code: 'PlanFile', message: 'not a plan file: expected a JSON object', at: { file: 'p.json', line: 1, col: 1 } })
    }
    expect(refusal('{"plait":"x"}').message).toBe('not a plan file: no "format" field')
    expect(refusal('{"format":3}').message).toBe('not a plan file: no "format" field')
  })

  it('says a format 1 plan was made by an older plait, and an unknown one is unknown, each with what to do', () => {
    expect(refusal('{"format":"plait.plan/1"}')).toMatchObject({
      message: 'made by an older plait: plan format "plait.plan/1", and this plait reads "plait.plan/2"',
      hint: 'plan again with this version of plait, and review the new plan',
    })
    expect(refusal('{"format":"plait.plan/9"}')).toMatchObject({ message: 'unknown plan format "plait.plan/9"; this plait reads "plait.plan/2"', hint: 'make the plan again with this version of plait' })
  })

  it('names the plan itself when the whole of it is wrong, and shows long or structured values briefly', () => {
    const raw = JSON.parse(PlanFile.serialize(samplePlan())) as Record<string, unknown>
    expect(refusal(JSON.stringify({ format: 'plait.plan/2' })).message).toMatch(/^malformed plan: plait: missing \(expected string\)/)
    expect(refusal(JSON.stringify({ ...raw, plait: 'x'.repeat(100) })).message).toMatch(/^plan has been modified/)
    expect(refusal(JSON.stringify({ ...raw, root: 'y'.repeat(100), plait: 1 })).message).toBe('malformed plan: plait: expected string, found 1')
    expect(refusal(JSON.stringify({ ...raw, failOnError: 'z'.repeat(60) })).message).toBe(`malformed plan: failOnError: expected boolean, found "${'z'.repeat(36)}...`)
    expect(refusal(JSON.stringify({ ...raw, failOnError: [1] })).message).toBe('malformed plan: failOnError: expected boolean, found a list')
    expect(refusal(JSON.stringify({ ...raw, failOnError: { a: 1 } })).message).toBe('malformed plan: failOnError: expected boolean, found an object')
    expect(refusal(JSON.stringify({ ...raw, hash: 7 })).message).toBe('malformed plan: hash: expected string, found 7')
  })

  it('reports a step of a known kind by its own fields only, not by every other kind it is not', () => {
    const raw = JSON.parse(PlanFile.serialize(samplePlan())) as { resources: { steps: Record<string, unknown>[] }[] }
    raw.resources[0]!.steps[0]!['owner'] = 'root'
    expect(refusal(JSON.stringify(raw)).message).toBe('malformed plan: resources[0].steps[0].owner: expected an object, found "root"')
  })

  it('refuses a plan whose hash does not match, saying both', () => {
    const plan = samplePlan()
    const raw = JSON.parse(PlanFile.serialize(plan)) as Record<string, unknown>
    const r = refusal(JSON.stringify({ ...raw, hash: 'sha256:' + '0'.repeat(64) }))
    expect(r.message).toBe(`plan has been modified since it was made: hash sha256:${'0'.repeat(64)} does not match its content (${plan.hash})`)
    expect(r.hint).toBe('review and make the plan again; plait never applies a tampered plan')
  })

  it('refuses an impossible plan with at most three problems, then how many more', () => {
    const body = bodyWith([1, 2, 3, 4, 5].map((i) => ({ ...write(contentOf(Buffer.from('x'))), path: `/etc/../x${i}` })))
    const r = refusal(PlanFile.serialize(PlanFile.seal(body)))
    expect(r.message.split('; ')).toEqual([
      'malformed plan: resources[0].steps[0].path: "/etc/../x1" is not a clean absolute path',
      'resources[0].steps[1].path: "/etc/../x2" is not a clean absolute path',
      'resources[0].steps[2].path: "/etc/../x3" is not a clean absolute path',
      '(and 2 more)',
    ])
    expect(r.hint).toBe('no plait compile makes such a plan; make the plan again and review it')
    const three = refusal(PlanFile.serialize(PlanFile.seal(bodyWith([1, 2, 3].map((i) => ({ ...write(contentOf(Buffer.from('x'))), path: `x${i}` }))))))
    expect(three.message.split('; ')).toHaveLength(3)
  })
})

/** The arrangement as it was before it grouped problems by union (quadratic: it scanned every problem for each union), the model of the one now. */
const arrangedBefore = (given: ReadonlyArray<PlanFile.Problem>): ReadonlyArray<PlanFile.Problem> => {
  const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`)
  let problems = [...given]
  for (const at of new Set(problems.flatMap((p) => p.branches.map((b) => b.at)))) {
    const members = new Set<string>()
    const mismatched = new Set<string>()
    for (const p of problems) {
      const b = p.branches.find((x) => x.at === at)
      if (b === undefined) continue
      members.add(b.member)
      if (p.path === join(at, '_tag')) mismatched.add(b.member)
    }
    if (members.size === 0) continue
    const inUnion = (p: PlanFile.Problem): boolean => p.branches.some((b) => b.at === at)
    if ([...members].some((m) => !mismatched.has(m))) {
      problems = problems.filter((p) => !p.branches.some((b) => b.at === at && mismatched.has(b.member)))
    } else {
      const tags = problems.filter((p) => p.path === join(at, '_tag') && inUnion(p))
      const merged: PlanFile.Problem = { path: join(at, '_tag'), expected: [...new Set(tags.map((p) => p.expected))].join(' | '), actual: tags[0]?.actual, branches: [] }
      const first = problems.findIndex(inUnion)
      problems = [...problems.slice(0, first), merged, ...problems.slice(first).filter((p) => !inUnion(p))]
    }
  }
  return problems
}

describe('the report of a malformed plan', () => {
  /** Ways to damage a step or a resource: a wrong field, a missing one, a tag of another kind or of none. */
  const damage = fc.constantFrom<(x: Record<string, unknown>) => void>(
    (x) => void (x['mode'] = 420),
    (x) => void delete x['path'],
    (x) => void (x['owner'] = 'root'),
    (x) => void (x['_tag'] = 'file.mkdir'),
    (x) => void (x['_tag'] = 'file.remove'),
    (x) => void (x['_tag'] = 'file.nothing'),
    (x) => void (x['_tag'] = 7),
    (x) => void (x['kind'] = 'nothing'),
    (x) => void (x['reason'] = ['a']),
    () => undefined,
  )
  fcTest.prop([fc.array(fc.tuple(fc.nat(), fc.nat(), damage, fc.boolean()), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 })])(
    'arranges the problems of any damaged plan as the arrangement by scanning did',
    (damages, copies) => {
      const raw = JSON.parse(PlanFile.serialize(PlanFile.seal(fullBody()))) as { resources: Array<Record<string, unknown> & { steps: Record<string, unknown>[] }> }
      const one = raw.resources[0]!
      raw.resources = Array.from({ length: copies }, (_, i) => ({ ...structuredClone(one), id: `file#/etc/m${i}`, name: `/etc/m${i}` }))
      for (const [r, st, f, onResource] of damages) {
        const resource = raw.resources[r % copies]!
        f(onResource ? resource : resource.steps[st % resource.steps.length]!)
      }
      const decoded = Registry.planCodec().decode(raw)
      if (E.isRight(decoded)) return
      const problems = decoded.left.map(PlanFile.problemOf)
      expect(PlanFile.arrange(problems).map(PlanFile.line)).toEqual(arrangedBefore(problems).map(PlanFile.line))
    },
  )

  it('of 20,000 bad steps: the first three, then how many more', () => {
    const raw = JSON.parse(PlanFile.serialize(PlanFile.seal(bodyWith(Array.from({ length: 20_000 }, (_, i) => ({ ...write(contentOf(Buffer.from('x'))), path: `/etc/x${i}` })))))) as { resources: { steps: Record<string, unknown>[] }[] }
    for (const s of raw.resources[0]!.steps) s['mode'] = 420
    const decoded = Registry.planCodec().decode(raw)
    expect(E.isLeft(decoded) && PlanFile.report(decoded.left)).toEqual([
      'resources[0].steps[0].mode: expected string, found 420',
      'resources[0].steps[1].mode: expected string, found 420',
      'resources[0].steps[2].mode: expected string, found 420',
      '(and 19997 more)',
    ])
  })
})

describe('PlanFile.serialize and sealLazily', () => {
  it('write a lazily sealed plan byte for byte as a sealed one, with the hash in its sorted place', () => {
    const body = bodyWith([write(contentOf(Buffer.from('hi\n')))])
    const eager = PlanFile.serialize(PlanFile.seal(body))
    const lazy = PlanFile.sealLazily(body)
    expect(Object.keys(lazy)).toContain('hash')
    expect(PlanFile.serialize(lazy)).toBe(eager)
    expect(lazy.hash).toBe(PlanFile.seal(body).hash)
    expect(Object.keys(JSON.parse(eager) as object)).toEqual(['failOnError', 'format', 'hash', 'inputs', 'plait', 'resources', 'root', 'summary'])
    // a plan made by hand (not sealed here) is written the same way
    expect(PlanFile.serialize({ ...body, hash: lazy.hash })).toBe(eager)
  })
})
