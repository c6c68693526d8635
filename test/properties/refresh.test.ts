// Laws of ordering over the memory interpreter and a scripted command runner: a subscriber
// refreshes exactly when a subscribed resource changed; a resource whose requirement failed (or
// was itself skipped for one) is skipped; under fail_on_error nothing after the first failure runs.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Planner from '../../src/compiler/plan.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import { observe } from '../../src/observe/observe.js'
import type { Report } from '../../src/executor/Report.js'
import * as MemoryRunner from '../../src/interpreters/commands/memory.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { apply, hostFiles } from '../support/run.js'

interface FileItem {
  readonly kind: 'file'
  readonly changes: boolean
}
interface ExecItem {
  readonly kind: 'exec'
  readonly fails: boolean
  readonly refreshOnly: boolean
  /** Indexes of earlier resources. */
  readonly subscribe: ReadonlyArray<number>
  readonly require: ReadonlyArray<number>
}
type Item = FileItem | ExecItem

const itemsArb: fc.Arbitrary<{ items: Item[]; failOnError: boolean }> = fc
  .record({
    kinds: fc.array(fc.record({ file: fc.boolean(), changes: fc.boolean(), fails: fc.boolean(), refreshOnly: fc.boolean(), subs: fc.array(fc.nat(), { maxLength: 3 }), reqs: fc.array(fc.nat(), { maxLength: 2 }) }), { minLength: 1, maxLength: 8 }),
    failOnError: fc.boolean(),
  })
  .map(({ kinds, failOnError }) => ({
    failOnError,
    items: kinds.map((k, i): Item => {
      // References point at earlier resources only (the compiler refuses others); subscribe only to files.
      const earlier = (xs: ReadonlyArray<number>) => (i === 0 ? [] : [...new Set(xs.map((x) => x % i))])
      if (k.file || i === 0) return { kind: 'file', changes: k.changes }
      return { kind: 'exec', fails: k.fails, refreshOnly: k.refreshOnly, subscribe: [], require: earlier(k.reqs) }
    }),
  }))
  .map(({ items, failOnError }) => ({
    failOnError,
    items: items.map((it, i) => (it.kind === 'exec' ? { ...it, subscribe: items.slice(0, i).flatMap((x, j) => (x.kind === 'file' && (i + j) % 2 === 0 ? [j] : [])) } : it)),
  }))

const idOf = (items: ReadonlyArray<Item>, i: number): string => (items[i]!.kind === 'file' ? `file#/f${i}` : `exec#e${i}`)

const manifestOf = (items: ReadonlyArray<Item>, failOnError: boolean): string => {
  const groups = items.map((it, i) => {
    const links = it.kind === 'exec' ? [...(it.subscribe.length > 0 ? [`subscribe: [${it.subscribe.map((j) => idOf(items, j)).join(', ')}]`] : []), ...(it.require.length > 0 ? [`require: [${it.require.map((j) => idOf(items, j)).join(', ')}]`] : [])] : []
    const props =
      it.kind === 'file'
        ? ['content: "new\\n"', 'owner: root', 'group: root', 'mode: "0644"']
        : [`command: /bin/${it.fails ? 'false' : 'true'} e${i}`, `refresh_only: ${it.refreshOnly}`, ...links]
    return `    - ${it.kind}:\n        - ${it.kind === 'file' ? `/f${i}` : `e${i}`}:\n${props.map((p) => `            ${p}\n`).join('')}`
  })
  return `ccm:\n  fail_on_error: ${failOnError}\n  resources:\n${groups.join('')}`
}

const run = async (items: ReadonlyArray<Item>, failOnError: boolean): Promise<{ report: Report; ran: ReadonlyArray<string> }> => {
  const files: Record<string, Snapshot.Node> = {}
  items.forEach((it, i) => {
    if (it.kind === 'file') files[`/f${i}`] = Snapshot.file(it.changes ? 'old\n' : 'new\n', { mode: 0o644 })
  })
  const snapshot = Snapshot.make(files)
  if (E.isLeft(snapshot)) throw new Error(snapshot.left)
  const machine = Memory.make(snapshot.right)
  const runner = MemoryRunner.make((line) => ({ exit: line.startsWith('/bin/false') ? 1 : 0 }))
  const catalog = compile('m.yaml', manifestOf(items, failOnError), '/srv')
  if (E.isLeft(catalog)) throw new Error(catalog.left.map(Diagnostic.render).join('\n'))
  const obs = await observe(catalog.right, machine, hostFiles({}), undefined, runner)
  if (E.isLeft(obs)) throw new Error(obs.left.map(Diagnostic.render).join('\n'))
  const body = Planner.plan(catalog.right, obs.right, { version: 'test', root: machine.root })
  if (E.isLeft(body)) throw new Error(body.left.map(Diagnostic.render).join('\n'))
  const report = await apply(machine, PlanFile.seal(body.right), { runner })
  if (E.isLeft(report)) throw new Error(report.left.map(Diagnostic.render).join('\n'))
  return { report: report.right, ran: runner.calls().map((c) => c.split(' ')[1]!) }
}

describe('ordering laws over the memory interpreter', () => {
  fcTest.prop([itemsArb], { numRuns: 120 })('subscribers refresh iff a subscribed resource changed; requirements and fail_on_error gate what runs', async ({ items, failOnError }) => {
    const { report, ran } = await run(items, failOnError)
    const outcome = (i: number) => report.resources.find((r) => r.id === idOf(items, i))!.outcome
    const firstFailure = items.findIndex((_, i) => outcome(i) === 'failed')
    items.forEach((it, i) => {
      if (it.kind !== 'exec') return
      const aborted = failOnError && firstFailure >= 0 && i > firstFailure
      const unmet = it.require.some((j) => outcome(j) === 'failed' || (outcome(j) === 'skipped' && !aborted))
      const triggered = it.subscribe.some((j) => outcome(j) === 'changed')
      const shouldRun = !aborted && !unmet && (triggered || !it.refreshOnly)
      expect(ran.includes(`e${i}`), `e${i} ran`).toBe(shouldRun)
      if (aborted) expect(outcome(i)).toBe('skipped')
      if (unmet && !aborted) expect(outcome(i)).toBe('skipped')
      if (shouldRun) expect(outcome(i)).toBe(it.fails ? 'failed' : 'changed')
    })
    if (failOnError && firstFailure >= 0) {
      for (let i = firstFailure + 1; i < items.length; i++) expect(outcome(i), `${idOf(items, i)} after the first failure`).toBe('skipped')
    }
  })
})
