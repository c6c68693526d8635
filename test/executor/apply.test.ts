// apply, in process: what the executor reports for each way a run can go, on the memory machine
// with a scripted command runner. The end-to-end tests cover the same through the binary; these
// are what mutation testing can see (it never reaches dist/).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Apply from '../../src/executor/apply.js'
import * as Journal from '../../src/executor/Journal.js'
import * as MemoryRunner from '../../src/interpreters/commands/memory.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { observe } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { hostFiles } from '../support/run.js'

const stateDir = '/var/lib/plait'
const attrs = '            owner: root\n            group: root\n            mode: "0644"\n'
const file = (path: string, content: string, extra = ''): string => `        - ${path}:\n            content: "${content}"\n${attrs}${extra}`

/** A machine with /etc and what is given. */
const machine = (files: Record<string, Snapshot.Node> = {}, options: Memory.Options = {}) => {
  const s = Snapshot.make({ '/etc': Snapshot.directory(), ...files })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

/** Commands: /bin/true exits 0, /bin/false 1; `ok-after N` exits 0 from its Nth run on. */
const runner = () => {
  let runs = 0
  return MemoryRunner.make((line) => {
    if (line === '/bin/true') return { exit: 0, stdout: 'all good\n' }
    if (line === '/bin/false') return { exit: 1, stderr: 'it broke\n' }
    if (line.startsWith('ok-after ')) return { exit: ++runs >= Number(line.slice(9)) ? 0 : 2, stdout: `try ${runs}\n` }
    return undefined
  })
}

const planOf = async (m: Memory.MemoryMachine, manifest: string, r = runner()): Promise<Plan.Plan> => {
  const c = compile('m.yaml', manifest, '/')
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const o = await observe(c.right, m, hostFiles({}), undefined, r)
  if (E.isLeft(o)) throw new Error(o.left.map(Diagnostic.render).join('\n'))
  const b = Planner.plan(c.right, o.right, { version: 'test', root: m.root })
  if (E.isLeft(b)) throw new Error(b.left.map(Diagnostic.render).join('\n'))
  return PlanFile.seal(b.right)
}

const run = (m: Memory.MemoryMachine, plan: Plan.Plan, options: Partial<Apply.Options> = {}) =>
  Apply.apply(m, plan, { stateDir, atomic: false, noop: false, runner: runner(), sleep: async () => undefined, ...options })

const report = async (m: Memory.MemoryMachine, plan: Plan.Plan, options: Partial<Apply.Options> = {}) => {
  const r = await run(m, plan, options)
  if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
  return r.right
}

const outcomes = (r: { resources: ReadonlyArray<{ id: string; outcome: string; messages: ReadonlyArray<string> }> }) => r.resources.map((x) => [x.id, x.outcome, ...x.messages])

describe('apply in process', () => {
  it('refuses a plan made for another root, saying both', async () => {
    const m = machine()
    const plan = await planOf(m, `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}`)
    const r = await run(m, { ...plan, root: '/elsewhere' })
    expect(E.isLeft(r) && r.left.map((d) => [d.code, d.message, d.hint])).toEqual([['PlanFile', 'the plan was made for root /elsewhere, but this apply targets /', 'apply with the same --root the plan was made with']])
  })

  it('creates the state directory 0700 and its parents 0755, owned like the root, and leaves no journal after a run', async () => {
    const m = machine()
    const plan = await planOf(m, `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}`)
    await report(m, plan)
    const s = m.snapshot()
    expect([s.files['/var'], s.files['/var/lib'], s.files[stateDir]].map((n) => n !== undefined && 'mode' in n && n.mode)).toEqual([0o755, 0o755, 0o700])
    expect(s.files[`${stateDir}/journal`]).toBeUndefined()
    expect(s.files[`${stateDir}/lock`]).toBeUndefined()
  })

  it('says why the state directory cannot be made', async () => {
    const m = machine({}, { denied: ['/var'] })
    const plan = await planOf(m, `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}`)
    const r = await run(m, plan)
    expect(E.isLeft(r) && r.left[0]!.message).toMatch(new RegExp(`^cannot create the state directory ${stateDir}: `))
  })

  it('refuses a stale plan, counting what drifted, and a noop run calls it stale', async () => {
    const m = machine({ '/etc/a': Snapshot.file('old'), '/etc/b': Snapshot.file('old') })
    const plan = await planOf(m, `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}${file('/etc/b', 'b')}`)
    await m.remove('/etc/a', { recursive: false })()
    const one = await run(m, plan)
    expect(E.isLeft(one) && one.left.map((d) => d.message).at(-1)).toBe('refusing a stale plan: 1 resource changed since it was made')
    expect(E.isLeft(one) && one.left.at(-1)!.hint).toBe('make and review a new plan')
    await m.remove('/etc/b', { recursive: false })()
    const two = await run(m, plan)
    expect(E.isLeft(two) && two.left.map((d) => [d.resource, d.message.slice(0, 40)])).toEqual([
      ['file#/etc/a', 'changed since the plan was made: was fil'],
      ['file#/etc/b', 'changed since the plan was made: was fil'],
      [undefined, 'refusing a stale plan: 2 resources chang'],
    ])
    const noop = await run(m, plan, { noop: true })
    expect(E.isLeft(noop) && [noop.left.at(-1)!.message, noop.left.at(-1)!.hint]).toEqual(['the plan is stale', 'make and review a new plan'])
  })

  it('reports a noop run: what would change, what is stable, what is skipped, and an unfinished run it would roll back', async () => {
    const m = machine({ '/etc/b': Snapshot.file('b', { mode: 0o644 }) })
    const manifest = `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}${file('/etc/b', 'b')}${file('/etc/c', 'c', '            control:\n              if: "false"\n')}`
    const plan = await planOf(m, manifest)
    const r = await report(m, plan, { noop: true })
    expect(outcomes(r)).toEqual([
      ['file#/etc/a', 'changed', 'Would have created the file'],
      ['file#/etc/b', 'stable'],
      ['file#/etc/c', 'skipped', expect.stringMatching(/^control: /)],
    ])
    expect([r.noop, r.recovered, r.rolledBack, r.irreversible]).toEqual([true, [], [], []])
    expect(m.snapshot().files['/etc/a']).toBeUndefined()
    // an unfinished run's journal: noop says it would be rolled back first
    const journal = [{ _tag: 'run', plan: 'x', atomic: false, pid: 77 }, { _tag: 'step', seq: 1, id: 'file#/etc/z', what: 'write /etc/z', undo: { _tag: 'Remove', paths: ['/etc/z'] } }]
    const withJournal = machine({ '/etc/b': Snapshot.file('b', { mode: 0o644 }), '/var': Snapshot.directory(), '/var/lib': Snapshot.directory(), [stateDir]: Snapshot.directory(), [`${stateDir}/journal`]: Snapshot.file(journal.map((x) => Journal.encode(x as Journal.Record)).join('')) })
    const again = await report(withJournal, await planOf(withJournal, manifest), { noop: true })
    expect(again.recovered).toEqual(['an unfinished run of pid 77 would be rolled back first (1 steps)'])
  })

  it('a noop run skips what requires a failed resource, and what requires that, down a chain', async () => {
    const m = machine()
    const chain = ['/etc/a', '/etc/b', '/etc/c', '/etc/d'].map((p, i, all) => file(p, p, i === 0 ? '' : `            require:\n              - file#${all[i - 1]!}\n`)).join('')
    const planned = await planOf(m, `ccm:\n  resources:\n    - file:\n${chain}`)
    // /etc/b failed at plan time: what follows it is skipped, each for the one before
    const plan = { ...planned, resources: planned.resources.map((r) => (r.id === 'file#/etc/b' ? { ...r, action: 'none' as const, steps: [], failed: 'cannot observe it' } : r)) }
    const r = await report(m, plan, { noop: true })
    expect(outcomes(r)).toEqual([
      ['file#/etc/a', 'changed', 'Would have created the file'],
      ['file#/etc/b', 'failed', 'cannot observe it'],
      ['file#/etc/c', 'skipped', 'unmet requirement: file#/etc/b failed'],
      ['file#/etc/d', 'skipped', 'unmet requirement: file#/etc/c was skipped for an unmet requirement'],
    ])
  })

  it('runs a command, lists it as irreversible, and skips what requires a failed resource', async () => {
    const m = machine()
    const manifest = `ccm:\n  resources:\n    - exec:\n        - ok:\n            command: /bin/true\n            logoutput: true\n        - broken:\n            command: /bin/false\n    - file:\n${file('/etc/a', 'a', '            require:\n              - exec#broken\n')}${file('/etc/b', 'b', '            require:\n              - file#/etc/a\n')}`
    const r = await report(m, await planOf(m, manifest))
    expect(outcomes(r)).toEqual([
      ['exec#ok', 'changed', expect.any(String), 'output: all good'],
      ['exec#broken', 'failed', 'run /bin/false failed: exit code 1 is not one of the accepted returns [0]; stderr: it broke'],
      ['file#/etc/a', 'skipped', 'unmet requirement: exec#broken failed'],
      ['file#/etc/b', 'skipped', 'unmet requirement: file#/etc/a was skipped for an unmet requirement'],
    ])
    expect(r.irreversible).toEqual(['exec#ok: run /bin/true', 'exec#broken: run /bin/false (it failed)'])
  })

  it('rolls back a resource whose health check fails, and with --atomic every earlier one, skipping the rest', async () => {
    const m = machine({ '/etc/keep': Snapshot.file('kept', { mode: 0o644 }) })
    const manifest = `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}${file('/etc/b', 'b', '            health_checks:\n              - command: /bin/false\n')}${file('/etc/c', 'c')}`
    const plan = await planOf(m, manifest)
    const plain = await report(machine(), plan)
    expect(outcomes(plain).map((o) => o.slice(0, 3))).toEqual([
      ['file#/etc/a', 'changed', 'file does not exist'],
      ['file#/etc/b', 'failed', 'health check /bin/false: WARNING'],
      ['file#/etc/c', 'changed', 'file does not exist'],
    ])
    expect(plain.resources[1]!.messages).toContain('rolled back to how it was')
    const atomic = await report(m, plan, { atomic: true })
    expect(outcomes(atomic).map((o) => o.slice(0, 3))).toEqual([
      ['file#/etc/a', 'rolled back', 'file does not exist'],
      ['file#/etc/b', 'failed', 'health check /bin/false: WARNING'],
      ['file#/etc/c', 'skipped', 'not run: file#/etc/b failed and the run is atomic'],
    ])
    expect(atomic.rolledBack).toEqual(['file#/etc/b: undid write /etc/b (1 bytes, root:root 0644)', 'file#/etc/a: undid write /etc/a (1 bytes, root:root 0644)'])
    expect(Object.keys(m.snapshot().files).filter((p) => p.startsWith('/etc/'))).toEqual(['/etc/keep'])
  })

  it('skips the rest after a failure with fail_on_error', async () => {
    const m = machine()
    const manifest = `ccm:\n  fail_on_error: true\n  resources:\n    - exec:\n        - broken:\n            command: /bin/false\n    - file:\n${file('/etc/a', 'a')}`
    const r = await report(m, await planOf(m, manifest))
    expect(outcomes(r).map((o) => o.slice(0, 3))).toEqual([
      ['exec#broken', 'failed', expect.stringMatching(/^run \/bin\/false failed/)],
      ['file#/etc/a', 'skipped', 'not run: exec#broken failed and fail_on_error is set'],
    ])
  })

  it('retries a health check as many times as it may, and reports a stable resource by its checks', async () => {
    const m = machine({ '/etc/a': Snapshot.file('a', { mode: 0o644 }) })
    const manifest = `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a', '            health_checks:\n              - name: eventually\n                command: ok-after 3\n                tries: 3\n                try_sleep: 1s\n')}`
    const waits: number[] = []
    const r = await report(m, await planOf(m, manifest), { sleep: async (ms) => void waits.push(ms) })
    expect(outcomes(r)).toEqual([['file#/etc/a', 'stable', 'health check eventually: OK: try 3 (after 3 tries)']])
    expect(waits).toEqual([1000, 1000])
  })

  it('stops a run whose journal cannot be written, saying the next apply rolls back what it began', async () => {
    const plan = await planOf(machine(), `ccm:\n  resources:\n    - file:\n${file('/etc/a', 'a')}`)
    // fail each mutation of the run in turn: the one that is the journal's first append stops the run
    const said: string[] = []
    for (let n = 1; n <= 12; n++) {
      const r = await run(machine({}, { failAt: { mutation: n } }), plan)
      if (E.isLeft(r)) said.push(...r.left.map((d) => d.message))
    }
    expect(said).toContainEqual(expect.stringMatching(/^cannot write the journal: .*; the run stopped, and the next apply rolls back what it began$/))
  })
})
