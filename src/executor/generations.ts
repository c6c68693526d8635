// generations: records a generation when an apply that changed something commits, and reads,
// lists and prunes the generations kept, all through the Machine (confined like every effect).
//
// Layout, below the state directory: `generations/N/generation.json` (the record) beside the
// before-images it keeps, each a file named by its sha256. A generation is assembled in a hidden
// staging directory (`generations/.N.tmp`), its record written last (temp, fsync, rename, fsync of
// the directory), then renamed into place as a whole: a crash leaves no generation or a whole one.
import * as E from 'fp-ts/lib/Either.js'
import * as Planner from '../compiler/plan.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Fault from '../core/Fault.js'
import type * as Plan from '../core/Plan.js'
import type { Undo } from '../core/Undo.js'
import * as Record from '../generations/Record.js'
import * as Rollback from '../generations/Rollback.js'
import type { Machine, Probe } from '../interpreters/Machine.js'
import * as Lock from './lock.js'
import * as Load from '../load/load.js'
import * as Observe from '../observe/observe.js'
import * as PlanFile from '../planfile/PlanFile.js'

// model

/** How generations are recorded. */
export interface Settings {
  /** The bytes of before-images one generation may keep (default 64 MiB, or $PLAIT_GENERATION_BUDGET). */
  readonly budget?: number
  /** The time of a generation (RFC 3339); the real clock by default. */
  readonly clock?: () => string
}

/** What a committed run did, as recording needs it. */
export interface Run {
  readonly plan: Plan.Plan
  /** The steps that ran, in order, with their undo records (their backups still in place). */
  readonly applied: ReadonlyArray<{ readonly id: string; readonly undo: Undo }>
  /** The resources that changed and were not rolled back. */
  readonly changed: ReadonlyArray<string>
  readonly irreversible: ReadonlyArray<string>
  /** Takes sensitive values out of a text (apply runs a plan with its secrets in clear): what it changes was sensitive. */
  readonly redact?: (text: string) => string
}

/** What recording did: a generation's number, nothing (the run changed nothing), or why it could not. */
export type Outcome = { readonly _tag: 'Recorded'; readonly number: number } | { readonly _tag: 'Nothing' } | { readonly _tag: 'Failed'; readonly reason: string }

/** The generations kept, oldest first, and the ones that could not be read. */
export interface Listing {
  readonly records: ReadonlyArray<Record.Record>
  readonly problems: ReadonlyArray<string>
}

const encoder = new TextEncoder()

/** The directory of the generations, below the state directory. */
export const directory = (stateDir: string): string => `${stateDir}/generations`

/** The budget `$PLAIT_GENERATION_BUDGET` gives (bytes), the default without it, or why it is not one. */
export const budgetOf = (text: string | undefined): E.Either<string, number> => {
  if (text === undefined || text === '') return E.right(Record.defaultBudget)
  const n = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN
  return Number.isSafeInteger(n) ? E.right(n) : E.left(`PLAIT_GENERATION_BUDGET=${text.slice(0, 40)} is not a number of bytes`)
}

/**
 * Records the generation of a committed run (nothing when it changed nothing). Never throws: the
 * run is committed whatever happens here, so a bug met while recording is its outcome's reason (a
 * half-assembled generation is a dot-name the next record removes), not the apply's failure.
 */
export const record = async (machine: Machine, stateDir: string, settings: Settings, run: Run): Promise<Outcome> => {
  try {
    return await recordRun(machine, stateDir, settings, run)
  } catch (e) {
    return { _tag: 'Failed', reason: `internal error: ${e instanceof Error ? e.message : String(e)}` }
  }
}

const recordRun = async (machine: Machine, stateDir: string, settings: Settings, run: Run): Promise<Outcome> => {
  if (run.changed.length === 0) return { _tag: 'Nothing' }
  const budget = settings.budget !== undefined ? E.right(settings.budget) : budgetOf(process.env['PLAIT_GENERATION_BUDGET'])
  if (E.isLeft(budget)) return { _tag: 'Failed', reason: budget.left }
  const gens = directory(stateDir)
  const state = await machine.probe(stateDir, { contentLimit: 0 })()
  const owner = E.isRight(state) && state.right._tag === 'Directory' ? { uid: state.right.entry.uid, gid: state.right.entry.gid } : { uid: 0, gid: 0 }
  const fail = (what: string, f: Fault.Fault): Outcome => ({ _tag: 'Failed', reason: `${what}: ${Fault.render(f)}` })
  const made = await machine.mkdirp(gens, { ...owner, mode: 0o700 })()
  if (E.isLeft(made)) return fail(`cannot create ${gens}`, made.left)
  const names = await machine.readdir(gens)()
  if (E.isLeft(names)) return fail(`cannot list ${gens}`, names.left)
  // what a crash left half-assembled is no generation: it goes
  for (const n of names.right) if (n.startsWith('.')) await machine.remove(`${gens}/${n}`, { recursive: true })()
  // after the newest kept, and after the newest ever recorded (`latest`): pruning never reuses a number
  const latest = await machine.readFile(`${gens}/latest`)()
  const latestText = E.isRight(latest) ? new TextDecoder().decode(latest.right).trim() : ''
  const noted = Record.isNumberName(latestText) ? Number(latestText) : 0
  // a loop, not Math.max(...numbers): a state directory may keep more generations than a call takes arguments
  let newest = noted
  for (const n of names.right) if (Record.isNumberName(n)) newest = Math.max(newest, Number(n))
  const number = 1 + newest
  const staging = `${gens}/.${number}.tmp`
  const mk = await machine.mkdirp(staging, { ...owner, mode: 0o700 })()
  if (E.isLeft(mk)) return fail(`cannot create ${staging}`, mk.left)
  const images = await capture(machine, staging, budget.right, run)
  if (E.isLeft(images)) {
    await machine.remove(staging, { recursive: true })()
    return fail('cannot keep the before-images', images.left)
  }
  const body: Record.Record = {
    format: Record.formatVersion,
    number,
    time: (settings.clock ?? (() => new Date().toISOString()))(),
    plan: run.plan.hash,
    manifest: { path: run.plan.inputs.manifest.path, sha256: run.plan.inputs.manifest.sha256 },
    root: run.plan.root,
    resources: [...run.changed],
    files: images.right.files,
    irreversible: [...run.irreversible],
    budget: budget.right,
    kept: images.right.kept,
  }
  const attrs = { ...owner, mode: 0o600 }
  const steps: ReadonlyArray<[string, () => Promise<E.Either<Fault.Fault, void>>]> = [
    ['cannot write the record', () => machine.writeFileAtomic(`${staging}/generation.json`, encoder.encode(Record.encode(body)), attrs, '.generation.json.tmp')()],
    ['cannot put the generation in place', () => machine.rename(staging, Rollback.directoryOf(stateDir, number))()],
  ]
  for (const [what, step] of steps) {
    const r = await step()
    if (E.isLeft(r)) {
      await machine.remove(staging, { recursive: true })()
      return fail(what, r.left)
    }
  }
  // `latest` keeps numbers from being reused after pruning, and its directory's fsync makes the
  // rename durable; the generation is in place either way.
  await machine.writeFileAtomic(`${gens}/latest`, encoder.encode(`${number}\n`), attrs, '.latest.tmp')()
  return { _tag: 'Recorded', number }
}

/**
 * The before-image of each path the run's changed resources touched, the first time a step
 * touched it: what the step's undo record says (a path it created was absent), the bytes of its
 * backup (moved into the staging directory, not copied), or, for an attributes-only change, the
 * file as it is now (its bytes did not change). Bytes beyond the budget are not kept.
 */
const capture = async (machine: Machine, staging: string, budget: number, run: Run): Promise<E.Either<Fault.Fault, { files: Record.Entry[]; kept: number }>> => {
  const changed = new Set(run.changed)
  const secret = Record.sensitive(run.plan.resources, run.redact)
  const files: Record.Entry[] = []
  const seen = new Set<string>()
  const kept = new Set<string>()
  let size = 0
  /** Keeps bytes under their digest by `move` (when not kept already and within the budget); the image, or why not. */
  const keep = async (sha256: string, bytes: number, move: () => Promise<E.Either<Fault.Fault, void>>): Promise<E.Either<Fault.Fault, string | undefined>> => {
    if (kept.has(sha256)) return E.right(undefined)
    if (size + bytes > budget) return E.right(`over the size budget (${bytes} bytes; ${budget - size} of the generation's ${budget} left)`)
    const r = await move()
    if (E.isLeft(r)) return r
    kept.add(sha256)
    size += bytes
    return E.right(undefined)
  }
  const fileImage = async (p: Probe, attrs: { uid: number; gid: number; mode: number }, move: (to: string) => Promise<E.Either<Fault.Fault, void>>): Promise<E.Either<Fault.Fault, Record.Image>> => {
    if (p._tag === 'Directory') return E.right({ _tag: 'Directory', ...attrs })
    if (p._tag === 'Symlink') return E.right({ _tag: 'Unkept', reason: `it was a symlink to ${p.target}, which the file type cannot make` })
    if (p._tag !== 'File') return E.right({ _tag: 'Unkept', reason: p._tag === 'Absent' ? 'its backup was missing' : 'it was a special file' })
    const why = await keep(p.probe.sha256, p.probe.entry.size, () => move(`${staging}/${p.probe.sha256}`))
    if (E.isLeft(why)) return why
    return E.right(why.right !== undefined ? { _tag: 'Unkept', reason: why.right } : { _tag: 'File', sha256: p.probe.sha256, size: p.probe.entry.size, ...attrs })
  }
  for (const d of run.applied) {
    if (!changed.has(d.id)) continue
    const u = d.undo
    const add = (path: string, image: Record.Image): void => {
      seen.add(path)
      files.push({ path, id: d.id, image, ...(secret.has(d.id) ? { sensitive: true } : {}) })
    }
    if (u._tag === 'Irreversible') continue
    if (u._tag === 'Remove') {
      for (const p of u.paths) if (!seen.has(p)) add(p, { _tag: 'Absent' })
      continue
    }
    if (seen.has(u.path)) continue
    if (u._tag === 'Restore') {
      const p = await machine.probe(u.backup, { contentLimit: 0 })()
      if (E.isLeft(p)) return p
      if (p.right._tag === 'Directory' && !p.right.empty) {
        add(u.path, { _tag: 'Unkept', reason: 'it was a directory that was removed with its contents, which are not kept' })
        continue
      }
      const entry = p.right._tag === 'File' ? p.right.probe.entry : p.right._tag === 'Absent' ? { uid: 0, gid: 0, mode: 0 } : p.right.entry
      const image = await fileImage(p.right, { uid: entry.uid, gid: entry.gid, mode: entry.mode }, (to) => machine.rename(u.backup, to)())
      if (E.isLeft(image)) return image
      add(u.path, image.right)
      continue
    }
    // Attrs: only owner, group or mode changed; the bytes there now are the bytes there before
    const p = await machine.probe(u.path, { contentLimit: 0 })()
    if (E.isLeft(p)) return p
    const image = await fileImage(p.right, { uid: u.uid, gid: u.gid, mode: u.mode }, (to) => machine.copy(u.path, to)())
    if (E.isLeft(image)) return image
    add(u.path, image.right)
  }
  return E.right({ files, kept: size })
}

/** Reads the generations kept, oldest first; a record that cannot be read is a problem, not a generation. */
export const list = async (machine: Machine, stateDir: string): Promise<E.Either<Fault.Fault, Listing>> => {
  const gens = directory(stateDir)
  const names = await machine.readdir(gens)()
  if (E.isLeft(names)) return names.left._tag === 'NotFound' ? E.right({ records: [], problems: [] }) : names
  const numbers = names.right.filter(Record.isNumberName).map(Number).sort((a, b) => a - b)
  const records: Record.Record[] = []
  const problems: string[] = []
  for (const n of numbers) {
    const path = Rollback.recordOf(stateDir, n)
    const text = await machine.readFile(path)()
    if (E.isLeft(text)) {
      problems.push(`generation ${n}: cannot read ${path}: ${Fault.render(text.left)}`)
      continue
    }
    let decoded: string
    try {
      decoded = new TextDecoder('utf-8', { fatal: true }).decode(text.right)
    } catch {
      problems.push(`generation ${n}: ${path} is not UTF-8 text`)
      continue
    }
    const r = Record.decode(decoded, n)
    if (E.isLeft(r)) problems.push(`generation ${n}: ${path}: ${r.left}`)
    else records.push(r.right)
  }
  return E.right({ records, problems })
}

/**
 * Removes every generation but the newest `keep`, holding the run lock (an apply may be recording
 * one); returns the numbers removed, oldest first.
 */
export const prune = async (machine: Machine, stateDir: string, keep: number): Promise<E.Either<Diagnostic.Diagnostic, ReadonlyArray<number>>> => {
  const names = await machine.readdir(directory(stateDir))()
  if (E.isLeft(names)) return names.left._tag === 'NotFound' ? E.right([]) : E.left(Diagnostic.make('Io', `cannot list ${directory(stateDir)}: ${Fault.render(names.left)}`))
  const lock = await Lock.acquire(machine, `${stateDir}/lock`)
  if (E.isLeft(lock)) return lock
  try {
    const numbers = names.right.filter(Record.isNumberName).map(Number).sort((a, b) => a - b)
    const gone = numbers.slice(0, Math.max(0, numbers.length - keep))
    for (const n of gone) {
      const r = await machine.remove(Rollback.directoryOf(stateDir, n), { recursive: true })()
      if (E.isLeft(r)) return E.left(Diagnostic.make('Io', `cannot remove generation ${n}: ${Fault.render(r.left)}`))
    }
    return E.right(gone)
  } finally {
    await lock.right.release()
  }
}

/**
 * Reads a kept before-image for a rollback's plan: the bytes at a machine path below the
 * generations, refused unless their sha256 is the digest the file is named by (a damaged or
 * replaced before-image is never planned).
 */
export const readImage =
  (machine: Machine) =>
  async (path: string): Promise<E.Either<Fault.Fault, Uint8Array>> => {
    const bytes = await machine.readFile(path)()
    if (E.isLeft(bytes)) return bytes
    const name = path.slice(path.lastIndexOf('/') + 1)
    const actual = Digest.sha256(bytes.right)
    return actual === name ? bytes : E.left(Fault.make('Failed', 'generations', 'read', path, `the before-image is damaged: its sha256 is ${actual.slice(0, 12)}, not ${name.slice(0, 12)}`))
  }

/** What a report says of a recording: the generation's number, why there is none, or nothing. */
export const reported = (o: Outcome): { readonly generation?: { readonly number: number } | { readonly problem: string } } =>
  o._tag === 'Recorded' ? { generation: { number: o.number } } : o._tag === 'Failed' ? { generation: { problem: `no generation was recorded: ${o.reason}` } } : {}

/**
 * The plan of `plait rollback --to N`: the before-images the generations after `to` recorded
 * (Rollback.choose) as a catalog of file resources, planned against the machine as it is now by
 * the file type's own plan function, and sealed like any plan. Its before-images are read by
 * digest (readImage) and carried in the plan, which is self-contained; what it cannot restore is
 * its pre-apply message.
 */
export const rollback = async (machine: Machine, stateDir: string, records: ReadonlyArray<Record.Record>, to: number, version: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const choice = Rollback.choose(records, to)
  if (E.isLeft(choice)) return E.left([Diagnostic.make('Validation', choice.left, { hint: 'plait history lists the generations kept' })])
  const catalog = Rollback.catalog(choice.right, stateDir)
  const images = await Load.sources(catalog, readImage(machine))
  const observed = await Observe.observe(catalog, machine, images)
  if (E.isLeft(observed)) return observed
  const planned = Planner.plan(catalog, observed.right, { version, root: machine.root })
  if (E.isLeft(planned)) return planned
  const body = withoutDiffs(planned.right, new Set(choice.right.secretNow))
  // A rollback is planned whole or not at all: a path that cannot be planned back refuses it.
  const failed = body.resources.flatMap((r) => {
    const why = (r as { readonly failed?: unknown }).failed
    return typeof why === 'string' ? [Diagnostic.make('Observe', why, { resource: r.id, hint: 'put the path back by hand, or roll back to another generation' })] : []
  })
  return failed.length > 0 ? E.left(failed) : E.right(PlanFile.seal(body))
}

/** A plan body whose steps at these paths show no diff: what is there now holds a sensitive value, which a plan never shows. */
const withoutDiffs = (body: Plan.Body, paths: ReadonlySet<string>): Plan.Body =>
  paths.size === 0
    ? body
    : {
        ...body,
        resources: body.resources.map((r) =>
          paths.has(r.name) ? { ...r, steps: r.steps.map((step) => Object.fromEntries(Object.entries(step).filter(([k]) => k !== 'diff')) as unknown as Plan.Step) } : r,
        ),
      }
