// providerTest: `plait provider test PATH`, a property test of one libral provider, offline. Each
// run starts from a fresh sandbox (PLAIT_ROOT_DIR, optionally seeded from a fixture directory) and
// applies a generated sequence of desired states. It checks that:
// - the metadata is valid (sibling .yaml or describe) and the provider can list;
// - every output parses, every error is well-formed (a message, exit 0), nothing times out;
// - after an update, find shows the desired values (a new plan is empty);
// - a second identical update reports no change;
// - an update changes no other resource, and a refused update changes nothing;
// - for providers that opt in (plait.noop: true), a noop update changes nothing and reports the
//   changes the real update then makes;
// - list and find agree (on the names the steps used, and a few others).
// A failure is shrunk by fast-check and reported with its counterexample as `plait ral` commands.
import { field as T } from '../../core/Terminal.js'
import * as fsp from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import type * as Diagnostic from '../../core/Diagnostic.js'
import * as Fault from '../../core/Fault.js'
import * as Args from './protocol/Args.js'
import * as Changes from './protocol/Changes.js'
import * as Metadata from './protocol/Metadata.js'
import * as Render from './protocol/Render.js'
import * as Resource from './protocol/Resource.js'
import * as Value from './protocol/Value.js'
import * as Discover from './discover.js'
import * as Invoke from './invoke.js'
import * as Session from './Session.js'
import * as Append from '../../core/Append.js'

// model

/** One generated desired state: a resource name and some of its writable attributes. */
export interface Step {
  readonly name: string
  readonly attrs: Resource.Attrs
}

export interface Options {
  /** The provider file (`.prov`). */
  readonly path: string
  readonly runs?: number
  /** The most updates per run. */
  readonly steps?: number
  readonly seed?: number
  /** A fast-check replay path (with `seed`), to rerun a reported failure directly. */
  readonly replayPath?: string
  readonly timeoutSeconds?: number
  /** A directory copied into each run's sandbox before it starts. */
  readonly fixture?: string
  readonly hostEnv?: Readonly<Record<string, string | undefined>>
  /** Called after each run with its number. */
  readonly onRun?: (n: number) => void
}

export interface Failure {
  readonly message: string
  readonly counterexample: ReadonlyArray<Step>
  readonly shrinks: number
  readonly replayPath: string
}

export interface Report {
  readonly meta: Metadata.Metadata
  readonly path: string
  readonly metaSource: string
  readonly runs: number
  readonly seed: number
  /** The most steps per run, and the fixture, as given (a replay needs them). */
  readonly steps: number
  readonly fixture?: string
  /** How many times the provider ran, in all. */
  readonly invocations: number
  readonly durationMs: number
  /** Parser notes and provider stderr lines at warn or error, deduplicated. */
  readonly warnings: ReadonlyArray<string>
  /** Why the property checks did not run (a provider that can not update). */
  readonly skipped?: string
  readonly failure?: Failure
}

export const defaultRuns = 20
export const defaultSteps = 4

// generators

const defaultText = /^[A-Za-z0-9_.-]([A-Za-z0-9_. -]{0,10}[A-Za-z0-9_.-])?$/
const defaultName = /^[a-z][a-z0-9_.-]{0,10}$/
const defaultItem = /^[A-Za-z0-9_.-]{1,10}$/

const anchored = (source: string): RegExp => new RegExp(`^(?:${source})$`)

/** The values generated for one attribute (its pattern from `plait.test`, else a safe default). */
export const valueArb = (meta: Metadata.Metadata, a: Metadata.Attribute): fc.Arbitrary<Value.Value> => {
  const hint = meta.test.attributes[a.name]
  switch (a.type._tag) {
    case 'Enum':
      return fc.constantFrom(...a.type.options)
    case 'Boolean':
      return fc.boolean()
    case 'String':
      return fc.stringMatching(hint !== undefined ? anchored(hint) : defaultText)
    case 'ArrayString':
      return fc.array(fc.stringMatching(hint !== undefined ? anchored(hint) : defaultItem), { maxLength: 3 })
  }
}

/**
 * Sequences of desired states over up to three names. The names and the steps are generated apart
 * (each step picks a name by its slot), so that fast-check can shrink both: drop steps, simplify
 * values, shorten names.
 */
export const stepsArb = (meta: Metadata.Metadata, maxSteps: number): fc.Arbitrary<ReadonlyArray<Step>> => {
  const writable = meta.attributes.filter(Metadata.isWritable)
  const model: Record<string, fc.Arbitrary<Value.Value>> = {}
  for (const a of writable) model[a.name] = valueArb(meta, a)
  const attrs = fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Resource.Attrs>
  const name = fc.stringMatching(meta.test.name !== undefined ? anchored(meta.test.name) : defaultName)
  const names = fc.uniqueArray(name, { minLength: 1, maxLength: 3 })
  const steps = fc.array(fc.record({ slot: fc.nat(2), attrs }), { minLength: 1, maxLength: maxSteps })
  return fc.tuple(names, steps).map(([ns, ss]) => ss.map((x) => ({ name: ns[x.slot % ns.length]!, attrs: x.attrs })))
}

// rendering

const word = (s: string): string => (/^[A-Za-z0-9_.,:/@%+=-]+$/.test(s) ? s : Args.shellQuote(s))

/** A step as the `plait ral` command that makes it. */
export const renderStep = (meta: Metadata.Metadata, s: Step): string => {
  const attrs = Object.entries(s.attrs).map(([k, v]) => {
    const text = Value.writeText(v)
    return word(`${k}=${E.isRight(text) ? text.right : JSON.stringify(Value.toJson(v))}`)
  })
  return ['plait ral', meta.qname, word(s.name), ...attrs].join(' ')
}

/** Draws a report for a terminal. */
export const renderReport = (r: Report): string => {
  const lines = [`plait provider test ${T(r.meta.qname)} (${T(r.path)})`, `  metadata: valid (${T(r.metaSource)}); noop: ${r.meta.noop ? 'declared' : 'not declared'}`]
  for (const w of r.warnings) lines.push(`  warning: ${T(w)}`)
  if (r.skipped !== undefined) lines.push(`  skipped the update properties: ${T(r.skipped)}`)
  const stats = `${r.runs} run${r.runs === 1 ? '' : 's'}, ${r.invocations} provider runs, ${(r.durationMs / 1000).toFixed(1)} s, seed ${r.seed}`
  if (r.failure === undefined) {
    lines.push(`  ok: ${stats}`)
    return lines.join('\n') + '\n'
  }
  const f = r.failure
  lines.push(`  FAILED: ${stats}; shrunk ${f.shrinks} time${f.shrinks === 1 ? '' : 's'}`)
  Append.append(lines, f.message.split('\n').map((l) => `  ${T(l)}`))
  lines.push('  counterexample (each line is one desired state, run in order in a fresh sandbox):')
  f.counterexample.forEach((s, i) => lines.push(`    ${i + 1}. ${T(renderStep(r.meta, s))}`))
  const again = [`plait provider test ${word(r.path)}`, `--seed ${r.seed}`]
  if (r.steps !== defaultSteps) again.push(`--steps ${r.steps}`)
  if (r.fixture !== undefined) again.push(`--fixture ${word(r.fixture)}`)
  lines.push(`  rerun it: ${T(again.join(' '))} --replay-path ${T(f.replayPath)}`)
  return lines.join('\n') + '\n'
}

// checks

class Broken extends Error {}

const must = <A>(r: E.Either<Fault.Fault, A>, what: string): A => {
  if (E.isLeft(r)) throw new Broken(`${what}: ${Fault.render(r.left)}`)
  return r.right
}

const listing = (rs: ReadonlyArray<Resource.Resource>): string => (rs.length === 0 ? '(nothing)' : rs.map((r) => Resource.summary(Resource.present(r)).replace(/^/, `${r.name}: `)).join('; '))

const sameExcept = (a: ReadonlyArray<Resource.Resource>, b: ReadonlyArray<Resource.Resource>, except: string | undefined): boolean => {
  const pick = (rs: ReadonlyArray<Resource.Resource>): Resource.Resource[] => rs.filter((r) => r.name !== except).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
  const x = pick(a)
  const y = pick(b)
  return x.length === y.length && x.every((r, i) => Resource.equals(r, y[i]!))
}

const readableAttrs = (meta: Metadata.Metadata, cs: ReadonlyArray<Resource.Change>): string[] =>
  cs
    .filter((c) => {
      const a = Metadata.attribute(meta, c.attr)
      return a !== undefined && Metadata.isReadable(a)
    })
    .map((c) => c.attr)
    .sort()

/** Runs one generated sequence in a fresh sandbox; throws a Broken error naming what went wrong. */
const runSteps = async (t: Invoke.Target, steps: ReadonlyArray<Step>, o: Options, record: (i: Invoke.Invocation) => void): Promise<void> => {
  const meta = t.meta
  const sandbox = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'plait-provider-test-'))
  try {
    if (o.fixture !== undefined) await fsp.cp(o.fixture, sandbox, { recursive: true })
    const s = Session.make({ root: sandbox, onInvocation: record, ...(o.hostEnv !== undefined ? { hostEnv: o.hostEnv } : {}), ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}) })
    const freshList = async (what: string): Promise<ReadonlyArray<Resource.Resource>> => must(await Invoke.list(s.context, t), what)
    for (const [i, step] of steps.entries()) {
      const at = `step ${i + 1} (${renderStep(meta, step)})`
      const found = must(await s.find(t, step.name), `${at}: find`)
      const planned = Changes.plan(meta, step.attrs, found)
      if (planned.length === 0) continue
      const before = await freshList(`${at}: list before the update`)
      let noopChanges: ReadonlyArray<Resource.Change> | undefined
      if (meta.noop) {
        const r = await s.update(t, found, planned, { noop: true })
        if (E.isLeft(r) && !Invoke.isReported(r.left)) must(r, `${at}: noop update`)
        if (E.isRight(r) && r.right._tag === 'Updated') noopChanges = r.right.changes
        const afterNoop = await freshList(`${at}: list after the noop update`)
        if (!sameExcept(before, afterNoop, undefined)) throw new Broken(`${at}: the noop update changed the machine\n  before: ${listing(before)}\n  after:  ${listing(afterNoop)}`)
      }
      const r = await s.update(t, found, planned, { noop: false })
      if (E.isLeft(r) || r.right._tag === 'Unknown') {
        if (E.isLeft(r) && !Invoke.isReported(r.left)) must(r, `${at}: update`)
        if (E.isLeft(r) && ((r.left.cause as Invoke.Reported).message ?? '').trim() === '') throw new Broken(`${at}: update reported an error without a message`)
        const afterRefusal = await freshList(`${at}: list after the refused update`)
        if (!sameExcept(before, afterRefusal, undefined)) {
          throw new Broken(`${at}: the update was refused (${E.isLeft(r) ? r.left.description : 'ral_unknown'}) but changed the machine\n  before: ${listing(before)}\n  after:  ${listing(afterRefusal)}`)
        }
        continue
      }
      const made = r.right.changes
      const after = must(await s.find(t, step.name), `${at}: find after the update`)
      const left = Changes.verify(meta, step.attrs, after)
      if (left.length > 0) {
        throw new Broken(`${at}: after the update, find does not show the desired values: a new plan still makes ${left.map(Render.change).join(', ')}\n  found: ${Resource.summary(after)}`)
      }
      const again = must(await s.update(t, after, planned, { noop: false }), `${at}: the same update a second time`)
      if (again._tag === 'Unknown') throw new Broken(`${at}: the same update a second time reported ral_unknown`)
      const repeated = again.changes.filter((c) => readableAttrs(meta, [c]).length > 0)
      if (repeated.length > 0) throw new Broken(`${at}: the same update a second time reported changes again: ${repeated.map(Render.change).join(', ')}`)
      const afterList = await freshList(`${at}: list after the update`)
      if (!sameExcept(before, afterList, step.name)) throw new Broken(`${at}: the update changed other resources\n  before: ${listing(before)}\n  after:  ${listing(afterList)}`)
      if (noopChanges !== undefined) {
        const n = readableAttrs(meta, noopChanges)
        const m = readableAttrs(meta, made)
        if (n.join(',') !== m.join(',')) throw new Broken(`${at}: the noop update reported changes to [${n.join(', ')}] but the update made [${m.join(', ')}]`)
      }
    }
    const all = await freshList('list at the end')
    // The names the steps used, and a few of the others (a fixture may hold many).
    const mentioned = new Set(steps.map((x) => x.name))
    const others = all.map((r) => r.name).filter((n) => !mentioned.has(n)).sort().slice(0, 3)
    const names = new Set([...mentioned, ...others])
    for (const n of [...names].sort()) {
      const f = must(await s.find(t, n), `find ${n}`)
      const listed = all.find((r) => r.name === n)
      if (listed !== undefined && (f._tag === 'Absent' || !Resource.equals(f.resource, listed))) {
        throw new Broken(`list and find disagree on "${n}"\n  list: ${Resource.summary(Resource.present(listed))}\n  find: ${Resource.summary(f)}`)
      }
      if (listed === undefined && Resource.ensureOf(f) !== 'absent') throw new Broken(`find reports "${n}" (${Resource.summary(f)}) but list does not`)
    }
  } finally {
    await fsp.rm(sandbox, { recursive: true, force: true })
  }
}

// the test

/** Tests a provider; Left when it can not be loaded (bad metadata, not executable, describe fails). */
export const testProvider = async (o: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Report>> => {
  const started = performance.now()
  const path = nodePath.resolve(o.path)
  let invocations = 0
  const warnings: string[] = []
  const record = (i: Invoke.Invocation): void => {
    invocations++
    const add = (w: string): void => {
      if (!warnings.includes(w) && warnings.length < 20) warnings.push(w)
    }
    for (const n of i.notes) add(`${i.action}: ${n}`)
    for (const l of i.logs) if (l.level === 'warn' || l.level === 'error') add(`${i.action} stderr: ${l.level}: ${l.message}`)
  }
  const base = Session.make({ ...(o.hostEnv !== undefined ? { hostEnv: o.hostEnv } : {}), ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}), onInvocation: record })
  const loaded = await Discover.load(base.context, path)
  if (E.isLeft(loaded)) return loaded
  const p = loaded.right
  const seed = o.seed ?? (Date.now() ^ (Math.random() * 0x100000000)) | 0
  const report = (extra: Partial<Report>, runs: number): Report => ({
    meta: p.meta,
    path: o.path,
    metaSource: p.metaSource,
    runs,
    seed,
    steps: o.steps ?? defaultSteps,
    ...(o.fixture !== undefined ? { fixture: o.fixture } : {}),
    invocations,
    durationMs: Math.round(performance.now() - started),
    warnings,
    ...extra,
  })
  if (!p.meta.actions.list) return E.right(report({ failure: { message: 'the provider does not list (its metadata lists no list action), which every provider must', counterexample: [], shrinks: 0, replayPath: '' } }, 0))
  if (!p.meta.actions.update) {
    try {
      await runSteps(p, [], o, record)
    } catch (e) {
      return E.right(report({ failure: { message: (e as Error).message, counterexample: [], shrinks: 0, replayPath: '' } }, 1))
    }
    return E.right(report({ skipped: 'its metadata lists no update action' }, 1))
  }
  let runs = 0
  const property = fc.asyncProperty(stepsArb(p.meta, o.steps ?? defaultSteps), async (steps) => {
    await runSteps(p, steps, o, record)
    runs++
    o.onRun?.(runs)
  })
  const details = await fc.check(property, {
    numRuns: o.runs ?? defaultRuns,
    seed,
    ...(o.replayPath !== undefined ? { path: o.replayPath } : {}),
  })
  if (!details.failed || details.counterexample === null) return E.right(report({}, runs))
  const err = details.errorInstance
  const message = err instanceof Broken ? err.message : `unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`
  return E.right(report({ failure: { message, counterexample: details.counterexample[0], shrinks: details.numShrinks, replayPath: details.counterexamplePath ?? '' } }, details.numRuns))
}
