// history: `plait history` lists the generations applies recorded (and prunes old ones);
// `plait rollback --to N` makes an ordinary plan that puts the files back as they were right after
// generation N, for review, `plait show` and `plait apply` like any other (docs/generations.md).
import { Command, CommanderError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Terminal from '../core/Terminal.js'
import type * as Generations from '../executor/generations.js'
import type * as Record from '../generations/Record.js'
import type * as Plan from '../core/Plan.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Options from './options.js'
import * as Render from './render.js'
import * as Streams from './streams.js'

/** The CommanderError code of these commands' failures (main turns it into exit 1). */
export const exitCode = 'plait.history'

interface Flags {
  readonly root?: string
  readonly stateDir?: string
  readonly json?: boolean
}

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  Streams.err(Render.diagnostics(ds))
  throw new CommanderError(1, exitCode, 'failed')
}

const failWith = (message: string, hint?: string): never => fail([Diagnostic.make('Validation', message, hint !== undefined ? { hint } : {})])

/** The machine and the state directory a command line names (as `plait apply` resolves them). */
const placeOf = async (o: Flags): Promise<{ machine: Machine; stateDir: string }> => {
  const root = await Options.resolveRoot(o.root)
  if (E.isLeft(root)) return fail([root.left])
  const stateDir = Options.stateDir(o.stateDir)
  if (E.isLeft(stateDir)) return fail([stateDir.left])
  const Posix = await import('../interpreters/posix/posix.js')
  return { machine: Posix.make(root.right === '/' ? {} : { root: root.right }), stateDir: stateDir.right }
}

/** The executor's generations module, loaded when a command of this module runs (not at start-up). */
const generations = () => import('../executor/generations.js')

/** The generations kept, and the problems of those that cannot be read (the caller prints them). */
const listed = async (machine: Machine, stateDir: string): Promise<Generations.Listing> => {
  const l = await (await generations()).list(machine, stateDir)
  if (E.isLeft(l)) return fail([Diagnostic.make('Io', `cannot list the generations in ${stateDir}/generations: ${Fault.render(l.left)}`)])
  return l.right
}

/** A whole number from `min`, or the error of a bad one. */
const wholeNumber = (flag: string, v: string, min: number): number => {
  const n = /^[0-9]{1,15}$/.test(v) ? Number(v) : NaN
  return Number.isSafeInteger(n) && n >= min ? n : failWith(`${flag} ${v}: expected a whole number from ${min}`)
}

/**
 * A rollback plan whose resources at paths that now hold a sensitive value (the newest generation
 * that changed them wrote one there) keep no digest of what is there that a guess could be checked
 * against: their digests are keyed by the host's key (planfile/Keyed.ts, as a plan of a manifest
 * keys them), made in the state directory when missing, and the plan sealed again.
 */
const keyed = async (plan: Plan.Plan, records: ReadonlyArray<Record.Record>, to: number, root: string, stateDir: string): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const [Rollback, Keyed, PlanFile, { secretKeyIn }] = await Promise.all([import('../generations/Rollback.js'), import('../planfile/Keyed.js'), import('../planfile/PlanFile.js'), import('./pipeline.js')])
  const choice = Rollback.choose(records, to)
  const ids = E.isRight(choice) ? Rollback.carriers(choice.right) : new Set<string>()
  if (![...ids].some((id) => plan.resources.some((r) => r.id === id))) return E.right(plan)
  const key = await secretKeyIn(root, stateDir)()
  if (E.isLeft(key)) return E.left([Diagnostic.make('Io', `a path the rollback restores holds a sensitive value, and the digests of what is there need the host's key: ${key.left}`, { hint: 'give a --state-dir this user can write' })])
  const body = Object.fromEntries(Object.entries(plan).filter(([k]) => k !== 'hash')) as unknown as Plan.Body
  return E.right(PlanFile.seal(Keyed.body(body, ids, key.right)))
}

const rootOption = (): Option => Options.root('the root the generations were recorded under (the state directory is inside it)')
const stateOption = (): Option => new Option('--state-dir <dir>', 'state directory holding the generations, a machine path (default /var/lib/plait, or $PLAIT_STATE_DIR)')

/** Adds `plait history` and `plait rollback` to a program. */
export const register = (program: Command): void => {
  program
    .command('history')
    .description('list the generations: what each apply that changed something changed, and what cannot be restored')
    .addOption(rootOption())
    .addOption(stateOption())
    .option('--json', 'print the generations as JSON')
    .option('--prune <keep>', 'remove every generation but the newest KEEP (their before-images go with them)')
    .action(async (o: Flags & { prune?: string }) => {
      const { machine, stateDir } = await placeOf(o)
      const History = await import('../generations/History.js')
      if (o.prune !== undefined) {
        const keep = wholeNumber('--prune', o.prune, 0)
        const gone = await (await generations()).prune(machine, stateDir, keep)
        if (E.isLeft(gone)) return fail([gone.left])
        Streams.err(gone.right.length === 0 ? 'Nothing to prune.\n' : `Pruned generation${gone.right.length === 1 ? '' : 's'} ${History.numbers(gone.right)}.\n`)
      }
      const { records, problems } = await listed(machine, stateDir)
      if (o.json === true) {
        Streams.out(Streams.json({ generations: records.map(History.line), problems }))
        return
      }
      Streams.out(History.render(records, problems))
    })

  program
    .command('rollback')
    .description('make a plan that puts the files back as they were right after generation N (review, save and apply it like any plan)')
    .requiredOption('--to <n>', 'the generation to go back to (0: before the first one)')
    .option('--out <file>', 'save the plan to this file for review and a later `plait apply`')
    .option('--json', 'print the plan as JSON (the plan file format)')
    .option('-v, --verbose', 'also list unchanged resources')
    .addOption(rootOption())
    .addOption(stateOption())
    .action(async (o: Flags & { to: string; out?: string; verbose?: boolean }) => {
      const to = wholeNumber('--to', o.to, 0)
      const { machine, stateDir } = await placeOf(o)
      const { records, problems } = await listed(machine, stateDir)
      if (problems.length > 0) Streams.err(problems.map((p) => `warning: ${Terminal.field(p)}\n`).join(''))
      const Installation = await import('../interpreters/installation.js')
      const made = await (await generations()).rollback(machine, stateDir, records, to, Installation.version(import.meta.url))
      if (E.isLeft(made)) return fail(made.left)
      const plan = await keyed(made.right, records, to, machine.root, stateDir)
      if (E.isLeft(plan)) return fail(plan.left)
      const PlanFile = await import('../planfile/PlanFile.js')
      const text = PlanFile.serialize(plan.right)
      if (o.out !== undefined) {
        const written = await (await import('./planFiles.js')).writeAtomic(o.out, text)
        if (E.isLeft(written)) return fail(written.left)
      }
      if (o.json === true) {
        Streams.out(Terminal.json(text))
        if (plan.right.preMessage !== undefined) Streams.err(`${Terminal.text(plan.right.preMessage)}\n`)
        return
      }
      const Colour = await import('./Colour.js')
      Streams.out(Render.plan(plan.right, { verbose: o.verbose === true }), Colour.plan)
      if (plan.right.preMessage !== undefined) Streams.out(`\n${Terminal.text(plan.right.preMessage)}\n`)
      if (o.out !== undefined) Streams.out(`\nSaved the plan to ${Terminal.field(o.out)}. Apply it with: plait apply ${Terminal.field(o.out)}${o.root !== undefined ? ` --root ${Terminal.field(o.root)}` : ''}\n`)
    })
}
