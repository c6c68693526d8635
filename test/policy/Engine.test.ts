// Engine and Verdict: findings at the manifest lines of the offending resources, the levels'
// meaning, overrides, and the laws: the verdict is a function of the plan alone (whatever the
// order of its JSON keys or of evaluation), a matching hard rule always fails, advisory never does.
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Plan from '../../src/core/Plan.js'
import * as Engine from '../../src/policy/Engine.js'
import type * as Policy from '../../src/policy/Policy.js'
import * as Verdict from '../../src/policy/Verdict.js'
import * as View from '../../src/policy/View.js'
import * as Value from '../../src/manifest/expr/Value.js'
import type { FileDesired, FileResourcePlan } from '../../src/types/file/ResourcePlan.js'
import { corpus, plan } from '../cli/plans.js'
import { bodies, policies, policy, policyText } from './support.js'

/** A small plan: a file deleted (line 8), a file created (line 10), a package unchanged (line 14). */
const resource = (id: string, type: string, action: Plan.Action, line: number, steps: ReadonlyArray<Plan.Step> = []): Plan.ResourcePlan => ({
  kind: type,
  id,
  type,
  name: id.slice(id.indexOf('#') + 1),
  at: `site.yaml:${line}:11`,
  action,
  observed: { summary: 'seen', digest: 'd' },
  steps,
})
/** A file created at `line`, with the desired properties a rule reads. */
const desiredFile = (id: string, line: number, desired: FileDesired): FileResourcePlan => ({
  kind: 'file',
  id,
  type: 'file',
  name: id.slice(id.indexOf('#') + 1),
  at: `site.yaml:${line}:11`,
  action: 'create',
  observed: { summary: 'seen', digest: 'd' },
  desired,
  steps: [],
})
const step = (tag: string, reason = 'because'): Plan.Step => ({ _tag: tag, reason, noop: '' })
const small: Plan.Body = {
  format: Plan.formatVersion,
  plait: '0.1.0',
  root: '/',
  inputs: { manifest: { path: 'site.yaml', sha256: 'x' }, sources: [], reads: [] },
  failOnError: true,
  resources: [
    resource('file#/etc/old', 'file', 'delete', 8, [step('file.remove', 'ensure: absent')]),
    resource('file#/etc/new', 'file', 'create', 10, [step('file.write')]),
    resource('package#curl', 'package', 'none', 14),
  ],
  summary: { create: 1, update: 0, delete: 1, unchanged: 1 },
}

const check = (text: string, p: Plan.Body = small): Engine.Outcome => Engine.check(policy(text), p)
const where = (o: Engine.Outcome): ReadonlyArray<string> => o.findings.map((f) => `${f.at.file}:${f.at.line}:${f.at.col} ${f.rule} ${f.message}`)

describe('Engine.check', () => {
  it('gives one finding per offending resource of `any(resources, ...)`, at its manifest line', () => {
    const o = check(policyText([{ name: 'no-delete', level: 'hard', body: ['deny: any(resources, {.action == "delete"})', 'message: "{{ item.id }} is deleted"'] }]))
    expect(where(o)).toEqual(['site.yaml:8:11 no-delete file#/etc/old is deleted'])
    expect(o.findings[0]!.resource).toBe('file#/etc/old')
  })

  it('judges every element of `each`, with #index, and `assert` gives a finding where it fails', () => {
    const o = check(policyText([
      { name: 'even', level: 'advisory', body: ['each: resources', 'deny: "#index % 2 == 0"', 'message: "{{ item.name }}"'] },
      { name: 'files-only', level: 'soft', body: ['assert: all(resources, {.type == "file"})', 'message: "{{ item.type }} {{ item.name }}"'] },
    ]))
    expect(where(o)).toEqual(['site.yaml:8:11 even /etc/old', 'site.yaml:14:11 even curl', 'site.yaml:14:11 files-only package curl'])
  })

  it('places a finding about a step at its resource, and one about the whole plan at the manifest\'s first line', () => {
    const o = check(policyText([
      { name: 'destroys', level: 'hard', body: ['each: steps', 'deny: .destructive', 'message: "{{ item.tag }}: {{ item.reason }}"'] },
      { name: 'busy', level: 'soft', body: ['deny: summary.changes >= 2', 'message: "{{ summary.changes }} resources change"'] },
    ]))
    expect(where(o)).toEqual(['site.yaml:8:11 destroys file.remove: ensure: absent', 'site.yaml:1:1 busy 2 resources change'])
  })

  it('sees the desired properties of a resource', () => {
    const files = { ...small, resources: [desiredFile('file#/etc/w', 20, { ensure: 'present', force: false, mode: '0666' }), desiredFile('file#/etc/r', 22, { ensure: 'present', force: false, mode: '0644' })] }
    const o = check(policyText([{ name: 'ww', level: 'hard', body: ['each: filter(resources, {.type == "file"})', 'assert: .properties.mode == nil || !(int(.properties.mode[3:]) in [2, 3, 6, 7])', 'message: "{{ item.name }} mode {{ item.properties.mode }}"'] }]), files)
    expect(where(o)).toEqual(['site.yaml:20:11 ww /etc/w mode 0666'])
  })

  it('checks a rule only when its `when` holds', () => {
    const rule = (when: string): string => policyText([{ name: 'r', level: 'hard', body: [`when: ${when}`, 'deny: "true"', 'message: m'] }])
    expect(check(rule('summary.delete > 0')).findings).toHaveLength(1)
    expect(check(rule('summary.delete > 5')).findings).toHaveLength(0)
  })

  it('reports a rule that cannot be evaluated on this plan as an error at its policy line and column, which fails the check', () => {
    const p = policy(policyText([{ name: 'broken', level: 'advisory', body: ['deny: resources[0].name + 1 > 0', 'message: m'] }]))
    const o = Engine.check(p, small)
    expect(o.errors.map((e) => `${e.at?.line}:${e.at?.col} ${e.message}`)).toEqual(['4:29 rule broken: invalid operation: string + int'])
    expect(Verdict.of(p, o, []).passed).toBe(false)
  })

  it('refuses an `each` that is not a list, at the policy line', () => {
    const o = check(policyText([{ name: 'each-map', level: 'hard', body: ['each: summary', 'deny: "true"', 'message: m'] }]))
    expect(o.errors.map((e) => `${e.at?.line}:${e.at?.col} ${e.message}`)).toEqual(['4:11 rule each-map: the list a rule judges must be a list, not map'])
  })

  it('shows the plan as documented in docs/policy.md: these fields, these variables', () => {
    const v = View.of({ ...small, hash: 'sha256:x' } as Plan.Plan)
    expect([...v.keys()]).toEqual(['resources', 'steps', 'summary', 'plan'])
    const first = (v.get('resources') as ReadonlyArray<Value.ValueMap>)[0]!
    expect(Value.keys(first)).toEqual(['action', 'at', 'destructive', 'id', 'kind', 'name', 'observed', 'position', 'properties', 'require', 'skipped', 'steps', 'subscribe', 'type'])
    expect(Value.keys((v.get('steps') as ReadonlyArray<Value.ValueMap>)[0]!)).toEqual(['destructive', 'family', 'position', 'reason', 'resource', 'tag', 'type', 'verb'])
    expect(Value.keys(v.get('summary') as Value.ValueMap)).toEqual(['changes', 'create', 'delete', 'destructive', 'resources', 'run', 'skipped', 'unchanged', 'update'])
    expect(Value.keys(v.get('plan') as Value.ValueMap)).toEqual(['failOnError', 'hash', 'manifest', 'plait', 'root'])
    expect(first['position']).toEqual({ file: 'site.yaml', line: 8n, col: 11n })
    expect(first['destructive']).toBe(true)
  })

  it('refuses a test that does not give a bool', () => {
    const o = check(policyText([{ name: 'num', level: 'hard', body: ['deny: summary.create', 'message: m'] }]))
    expect(o.errors[0]!.message).toBe('rule num: deny must give a bool, not int')
  })
})

describe('Verdict', () => {
  const text = policyText([
    { name: 'hard-one', level: 'hard', body: ['deny: any(resources, {.action == "delete"})', 'message: m'] },
    { name: 'soft-one', level: 'soft', body: ['deny: any(resources, {.action == "create"})', 'message: m'] },
    { name: 'note', level: 'advisory', body: ['deny: "true"', 'message: m'] },
  ])
  const p = policy(text)
  const outcome = Engine.check(p, small)
  const overrides = (args: ReadonlyArray<string>): ReadonlyArray<Verdict.Override> => {
    const o = Verdict.overrides(p, args)
    if (E.isLeft(o)) throw new Error(o.left.map((d) => d.message).join('\n'))
    return o.right
  }

  it('fails on a hard finding even when the soft one is overridden, and records the reason', () => {
    const v = Verdict.of(p, outcome, overrides(['soft-one=approved in #42']))
    expect(v.passed).toBe(false)
    expect(v.findings.find((f) => f.rule === 'soft-one')).toMatchObject({ overridden: 'approved in #42', fails: false })
    expect(v.overrides).toEqual([{ rule: 'soft-one', reason: 'approved in #42', used: true }])
    expect(Verdict.summaryLine(v)).toBe('policy failed: 1 hard, 1 soft (1 overridden), 1 advisory findings')
  })

  it('says of each override whether its rule found anything', () => {
    const soft = policy(text.replace('level: hard', 'level: soft'))
    const quiet = Verdict.of(soft, { ...Engine.check(soft, small), findings: Engine.check(soft, small).findings.filter((f) => f.rule !== 'soft-one') }, overrides(['soft-one=not needed']))
    expect(quiet.overrides).toEqual([{ rule: 'soft-one', reason: 'not needed', used: false }])
    expect(Verdict.of(soft, Engine.check(soft, small), overrides(['soft-one=needed'])).overrides).toEqual([{ rule: 'soft-one', reason: 'needed', used: true }])
  })

  it('passes once the only failing rules are overridden soft ones', () => {
    const soft = policy(text.replace('level: hard', 'level: soft'))
    const v = Verdict.of(soft, Engine.check(soft, small), E.getOrElseW(() => [])(Verdict.overrides(soft, ['hard-one=ok', 'soft-one=ok'])))
    expect(v.passed).toBe(true)
    expect(Verdict.of(soft, Engine.check(soft, small), []).passed).toBe(false)
  })

  it.each([
    ['soft-one', 'expected RULE=REASON with a reason'],
    ['soft-one=  ', 'expected RULE=REASON with a reason'],
    ['nope=x', 'no rule named "nope" in policy.yaml'],
    ['hard-one=x', 'rule hard-one is hard: only soft rules can be overridden'],
    ['note=x', 'rule note is advisory: only soft rules can be overridden'],
  ])('refuses --override %s', (arg, message) => {
    const o = Verdict.overrides(p, [arg])
    expect(E.isLeft(o) && o.left[0]!.message).toContain(message)
  })

  it('refuses a rule overridden twice', () => {
    const o = Verdict.overrides(p, ['soft-one=a', 'soft-one=b'])
    expect(E.isLeft(o) && o.left[0]!.message).toContain('overridden twice')
  })
})

/** A plan with the keys of every object in reverse order (the same plan to anyone reading it as data). */
const reversedKeys = (x: unknown): unknown => {
  if (Array.isArray(x)) return x.map(reversedKeys)
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).reverse().map(([k, v]) => [k, reversedKeys(v)]))
  return x
}

const withLevel = (p: Policy.Policy, level: Policy.Level): Policy.Policy => ({ ...p, rules: p.rules.map((r) => ({ ...r, level })) })

describe('policy laws', () => {
  it('are not vacuous: the rules of the pool evaluate on every real plan of the corpus, and most find something somewhere', () => {
    const found = bodies.map((b) => {
      const pol = policy(policyText([{ name: 'r', level: 'hard', body: b }]))
      const outcomes = corpus.map((p) => Engine.check(pol, p))
      expect(outcomes.flatMap((o) => o.errors)).toEqual([])
      return outcomes.some((o) => o.findings.length > 0)
    })
    expect(found.filter((x) => x).length).toBeGreaterThanOrEqual(bodies.length - 2)
  })

  test.prop([plan(12), policies], { numRuns: 60 })('the verdict is a function of the plan: key order and a JSON round trip change nothing', (p, pol) => {
    const a = Engine.check(pol, p)
    expect(Engine.check(pol, reversedKeys(p) as Plan.Body)).toEqual(a)
    expect(Engine.check(pol, JSON.parse(JSON.stringify(p)) as Plan.Body)).toEqual(a)
  })

  test.prop([plan(12), policies, fc.infiniteStream(fc.nat())], { numRuns: 40 })('evaluating the rules in another order gives the same findings of each rule', (p, pol, seeds) => {
    const order = pol.rules.map((r) => ({ r, k: seeds.next().value })).sort((x, y) => x.k - y.k).map((x) => x.r)
    const byRule = (o: Engine.Outcome): ReadonlyArray<ReadonlyArray<Engine.Finding>> => pol.rules.map((r) => o.findings.filter((f) => f.rule === r.name))
    expect(byRule(Engine.check({ ...pol, rules: order }, p))).toEqual(byRule(Engine.check(pol, p)))
  })

  test.prop([plan(12), policies], { numRuns: 60 })('a hard rule that finds something always fails; advisory rules never fail', (p, pol) => {
    const hard = withLevel(pol, 'hard')
    const o = Engine.check(hard, p)
    const v = Verdict.of(hard, o, [])
    if (o.findings.length > 0 || o.errors.length > 0) expect(v.passed).toBe(false)
    else expect(v.passed).toBe(true)
    const advisory = withLevel(pol, 'advisory')
    const w = Verdict.of(advisory, Engine.check(advisory, p), [])
    expect(w.passed).toBe(w.errors.length === 0)
    expect(w.findings.every((f) => !f.fails)).toBe(true)
  })

  test.prop([plan(12), fc.nat({ max: bodies.length - 1 })], { numRuns: 40 })('a finding about a resource points at that resource\'s manifest line, never elsewhere', (p, b) => {
    const pol = policy(policyText([{ name: 'r', level: 'hard', body: bodies[b]! }]))
    for (const f of Engine.check(pol, p).findings) {
      if (f.resource === undefined) continue
      const r = p.resources.find((x) => x.id === f.resource)!
      expect(r.at).toBe(`${f.at.file}:${f.at.line}:${f.at.col}`)
    }
  })
})
