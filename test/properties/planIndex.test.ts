// Planners look earlier resources up by id (an index the plan stage keeps as its list grows)
// instead of scanning the list for each resource, which made planning quadratic. Laws: the index
// and the lookups built on it answer what the scans they replace answered, and a whole plan is the
// plan made with scans only.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as CatalogM from '../../src/compiler/Catalog.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Plan from '../../src/core/Plan.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { observe } from '../../src/observe/observe.js'
import { holo } from '../../src/types/holo/index.js'
import * as HoloPlan from '../../src/types/holo/plan.js'
import * as Registry from '../../src/types/registry.js'
import { allSettled, changingSubscriptions, earlierMayChange, type PlanEnv } from '../../src/types/ResourceType.js'
import { hostFiles } from '../support/run.js'

// --- the index and its lookups, over generated lists of planned resources

/** A planned resource: its id is its position (ids are unique in a catalog); `changes` decides mayChange. */
interface Item {
  readonly changes: boolean
  readonly feedsHolo: boolean
}
const planOf = (it: Item, i: number): Plan.ResourcePlan =>
  ({ kind: 'file', id: `r${i}`, type: 'file', name: it.feedsHolo ? `/etc/holorc.d/r${i}` : `/r${i}`, at: 'm.yaml:1:1', action: it.changes ? 'update' : 'none', steps: [] }) as unknown as Plan.ResourcePlan
const mayChange = (r: Plan.ResourcePlan): boolean => r.action !== 'none'

const listArb = fc.array(fc.record({ changes: fc.boolean(), feedsHolo: fc.boolean() }), { maxLength: 30 })
/** Ids asked of the list: some planned, some not (yet). */
const idsArb = fc.array(fc.nat({ max: 40 }).map((n) => `r${n}`), { maxLength: 6 })

describe('the index of earlier resources', () => {
  fcTest.prop([listArb, idsArb])('gives, after each resource, what scanning the list gives', (items, ids) => {
    const index = Planner.earlier(mayChange)
    items.forEach((it, i) => {
      index.push(planOf(it, i))
      const list = index.resources
      for (const id of [...ids, `r${i}`]) expect(index.byId(id)).toBe(list.find((r) => r.id === id))
      expect(index.someMayChange()).toBe(list.some(mayChange))
    })
  })

  fcTest.prop([listArb, idsArb, idsArb])('answers the planners as the scans they replace did, with an index and without', (items, subscribe, after) => {
    const index = Planner.earlier(mayChange)
    const list = index.resources
    const indexed: PlanEnv = { earlier: list, byId: index.byId, someMayChange: index.someMayChange, subscribe, mayChange, accounts: { users: new Map(), groups: new Map() } as never }
    const scanned: PlanEnv = { earlier: list, subscribe, mayChange, accounts: indexed.accounts }
    const check = () => {
      // the expressions the exec, service and file planners used before the index
      const changing = subscribe.filter((id) => list.some((r) => r.id === id && mayChange(r)))
      const settled = after.every((id) => list.some((r) => r.id === id && !mayChange(r)))
      const installable = list.some((r) => mayChange(r))
      for (const env of [indexed, scanned]) {
        expect(changingSubscriptions(env)).toEqual(changing)
        expect(allSettled(env, after)).toBe(settled)
        expect(earlierMayChange(env)).toBe(installable)
      }
    }
    check()
    items.forEach((it, i) => {
      index.push(planOf(it, i))
      check()
    })
  })

  fcTest.prop([listArb, fc.array(fc.nat({ max: 30 }), { maxLength: 5 })])('gives a holo resource the earlier resources that feed the plugins and may change, as the scan did', (items, at) => {
    // holo resources planned at the given positions of a growing list, by one run's planner
    const plan = holo.planner()
    const index = Planner.earlier(mayChange)
    const list = index.resources
    const env: PlanEnv = { earlier: list, byId: index.byId, someMayChange: index.someMayChange, subscribe: [], mayChange, accounts: undefined as never }
    const spec = { _tag: 'holo' as const, id: 'holo#*', name: '*', at: { file: 'm.yaml', line: 1, col: 1 }, selector: { _tag: 'All' as const } }
    const positions = new Set(at.map((n) => n % (items.length + 1)))
    for (let i = 0; i <= items.length; i++) {
      if (positions.has(i)) {
        const r = plan(spec, { plugins: [], entities: [] }, env)
        const rescan = list.filter((x) => HoloPlan.feedsHolo(x.name) && mayChange(x)).map((x) => x.id)
        expect(E.isRight(r) && (r.right.rescan ?? [])).toEqual(rescan)
      }
      if (i < items.length) index.push(planOf(items[i]!, i))
    }
  })
})

// --- whole plans: generated manifests with subscriptions and deferred values

/**
 * A resource of the manifest: a file that changes or not, a file whose content reads an earlier
 * managed file (deferred, or settled when that file changes nothing), or an exec that subscribes to
 * earlier files and whose command may read one.
 */
type Res =
  | { readonly kind: 'file'; readonly changes: boolean; readonly reads?: number }
  | { readonly kind: 'exec'; readonly subscribe: ReadonlyArray<number>; readonly reads?: number; readonly refreshOnly: boolean }

const manifestArb: fc.Arbitrary<ReadonlyArray<Res>> = fc
  .array(fc.record({ file: fc.boolean(), changes: fc.boolean(), reads: fc.option(fc.nat(), { nil: undefined }), subs: fc.array(fc.nat(), { maxLength: 4 }), refreshOnly: fc.boolean() }), { minLength: 1, maxLength: 12 })
  .map((raw) => {
    const out: Res[] = []
    raw.forEach((k, i) => {
      // references name earlier plain files only (a file's content may read one; an exec subscribes to them)
      const files = out.flatMap((r, j) => (r.kind === 'file' && r.reads === undefined ? [j] : []))
      const reads = k.reads === undefined || files.length === 0 ? undefined : files[k.reads % files.length]
      if (k.file || i === 0) out.push({ kind: 'file', changes: k.changes, ...(reads !== undefined ? { reads } : {}) })
      else out.push({ kind: 'exec', subscribe: files.length === 0 ? [] : [...new Set(k.subs.map((s) => files[s % files.length]!))], refreshOnly: k.refreshOnly, ...(reads !== undefined ? { reads } : {}) })
    })
    return out
  })

const idOf = (rs: ReadonlyArray<Res>, i: number): string => (rs[i]!.kind === 'file' ? `file#/f${i}` : `exec#e${i}`)

const manifestText = (rs: ReadonlyArray<Res>): string => {
  const entries = rs.map((r, i) => {
    const read = r.reads !== undefined ? `{{ readFile('f${r.reads}') }}` : ''
    const props =
      r.kind === 'file'
        ? [`content: "new${read}\\n"`, 'owner: root', 'group: root', 'mode: "0644"']
        : [`command: "/bin/true e${i} ${read}"`, `refresh_only: ${r.refreshOnly}`, ...(r.subscribe.length > 0 ? [`subscribe: [${r.subscribe.map((j) => idOf(rs, j)).join(', ')}]`] : [])]
    return `    - ${r.kind}:\n        - ${r.kind === 'file' ? `/f${i}` : `e${i}`}:\n${props.map((p) => `            ${p}\n`).join('')}`
  })
  return `ccm:\n  resources:\n${entries.join('')}`
}

/** The plan's resources made the old way: each planner given only the list, which it scans. */
const scannedPlan = (catalog: CatalogM.Catalog, obs: Planner.Observations, made: ReadonlyArray<Plan.ResourcePlan>): ReadonlyArray<Plan.ResourcePlan> => {
  const list: Plan.ResourcePlan[] = []
  const planners = new Map<string, ReturnType<ReturnType<typeof Registry.ofKind>['planner']>>()
  const changes = (r: Plan.ResourcePlan): boolean => Plan.isFailed(r) || Registry.mayChange(r)
  catalog.resources.forEach((spec, i) => {
    if (CatalogM.isSkipped(spec)) return void list.push(made[i]!)
    const planner = planners.get(spec._tag) ?? Registry.ofKind(spec._tag).planner()
    planners.set(spec._tag, planner)
    const r = planner(spec, obs.byId.get(spec.id), { earlier: list, subscribe: catalog.links.get(spec.id)?.subscribe ?? [], mayChange: changes, accounts: obs.accounts })
    list.push(E.isRight(r) ? r.right : made[i]!)
  })
  return list
}

/** A resource's plan without its links (the plan stage adds them after planning). */
const unlinked = (r: Plan.ResourcePlan): Plan.ResourcePlan => {
  const { require: _r, subscribe: _s, healthChecks: _h, ...rest } = r as Plan.ResourcePlan & Plan.Links
  return rest as Plan.ResourcePlan
}

describe('plans of manifests with subscriptions and deferred values', () => {
  fcTest.prop([manifestArb], { numRuns: 60 })('are the plans made by scanning the earlier resources', async (rs) => {
    const files: Record<string, Snapshot.Node> = {}
    rs.forEach((r, i) => {
      if (r.kind === 'file') files[`/f${i}`] = Snapshot.file(r.changes ? 'old\n' : `new${r.reads !== undefined ? 'x' : ''}\n`, { mode: 0o644 })
    })
    const snapshot = Snapshot.make(files)
    if (E.isLeft(snapshot)) throw new Error(snapshot.left)
    const machine = Memory.make(snapshot.right)
    const catalog = compile('m.yaml', manifestText(rs), '/srv/root', { root: '/srv/root', readFile: () => E.right('on disk\n') })
    if (E.isLeft(catalog)) throw new Error(catalog.left.map(Diagnostic.render).join('\n'))
    const obs = await observe(catalog.right, machine, hostFiles({}), undefined, undefined, true)
    if (E.isLeft(obs)) throw new Error(obs.left.map(Diagnostic.render).join('\n'))
    const made = Planner.planAll(catalog.right, obs.right, { version: 'test', root: machine.root })
    expect(made.body.resources.map(unlinked)).toEqual(scannedPlan(catalog.right, obs.right, made.body.resources).map(unlinked))
    // the links are the manifest's
    rs.forEach((r, i) => {
      if (r.kind === 'exec' && r.subscribe.length > 0) expect(made.body.resources[i]!.subscribe).toEqual(r.subscribe.map((j) => idOf(rs, j)))
    })
  })
})
