// PlanDiff: what changed between an approved plan and a new one of the same manifest.
import { test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as PlanDiff from '../../src/cli/PlanDiff.js'
import type * as Plan from '../../src/core/Plan.js'
import { corpus, plan } from './plans.js'

const sameManifest = (a: Plan.Plan, b: Plan.Plan): Plan.Plan => ({ ...b, root: a.root, inputs: { ...b.inputs, manifest: a.inputs.manifest } })

const right = <A>(e: E.Either<string, A>): A => {
  if (E.isLeft(e)) throw new Error(e.left)
  return e.right
}

describe('PlanDiff.compare', () => {
  test.prop([plan(20)])('a plan compared with itself has no differences', (p) => {
    const c = right(PlanDiff.compare(p, p))
    expect(PlanDiff.isSame(c)).toBe(true)
    expect(c.same).toBe(p.resources.length)
    expect(PlanDiff.render(c)).toContain('No differences')
  })

  test.prop([plan(20), plan(20)])('swapping the plans swaps added and removed, and every resource is counted once', (a, b0) => {
    const b = sameManifest(a, b0)
    const ab = right(PlanDiff.compare(a, b))
    const ba = right(PlanDiff.compare(b, a))
    const ids = (c: PlanDiff.Comparison, tag: PlanDiff.Entry['_tag']): string[] => c.entries.filter((e) => e._tag === tag).map((e) => e.id).sort()
    expect(ids(ab, 'Added')).toEqual(ids(ba, 'Removed'))
    expect(ids(ab, 'Changed')).toEqual(ids(ba, 'Changed'))
    const all = new Set([...a.resources.map((r) => r.id), ...b.resources.map((r) => r.id)])
    expect(ab.entries.length + ab.same).toBe(all.size)
  })

  it('refuses plans of different manifests or roots, naming both', () => {
    const p = corpus[0]!
    const other = { ...p, inputs: { ...p.inputs, manifest: { ...p.inputs.manifest, path: 'other.yaml' } } }
    const l = PlanDiff.compare(p, other)
    expect(E.isLeft(l) && l.left).toMatch(/different manifests \(manifest\.yaml and other\.yaml\)/)
    const r = PlanDiff.compare(p, { ...p, root: '/srv/x' })
    expect(E.isLeft(r) && r.left).toMatch(/different roots/)
  })

  it('shows a step whose reason changed, a resource added and one removed', () => {
    const p = corpus.find((x) => x.resources.filter((r) => r.steps.length > 0).length >= 2)!
    const [first, second] = p.resources.filter((r) => r.steps.length > 0)
    const edited = { ...first!, steps: first!.steps.map((s, i) => (i === 0 ? { ...s, reason: 'a new reason' } : s)) }
    const added = { ...second!, id: `${second!.id}-new` }
    const now = { ...p, resources: [edited, ...p.resources.filter((r) => r !== first && r !== second), added], hash: 'sha256:new' }
    const c = right(PlanDiff.compare(p, now))
    const text = PlanDiff.render(c)
    expect(text).toContain(`~ ${first!.id}\n    ~ ${first!.steps[0]!._tag}: ${first!.steps[0]!.reason} → a new reason`)
    expect(text).toContain(`+ ${added.id} (only in the new plan)`)
    expect(text).toContain(`- ${second!.id} (only in the approved plan)`)
    expect(text).toContain('Changes: 1 added, 1 removed, 1 changed,')
  })
})
