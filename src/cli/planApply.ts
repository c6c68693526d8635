// planApply: the commands people run most, `plait plan`, `plait show` and `plait apply`, loaded and
// registered only when the command line names one of them (main.ts), with the helpers they share.
import { Command, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import { batchSize, defaultStateDir, type Options as ApplyOptions } from '../executor/Options.js'
import * as Recover from '../executor/recover.js'
import * as ReportM from '../executor/Report.js'
import type { Machine } from '../interpreters/Machine.js'
import * as Installation from '../interpreters/installation.js'
import * as Posix from '../interpreters/posix/posix.js'
import * as PlanFile from '../planfile/PlanFile.js'
import * as Colour from './Colour.js'
import * as Github from './Github.js'
import * as Markdown from './Markdown.js'
import * as PlanDiff from './PlanDiff.js'
import * as Progress from './Progress.js'
import * as Review from './Review.js'
import * as Options from './options.js'
import * as PlanFiles from './planFiles.js'
import type { Session } from '../interpreters/libral/Session.js'
import { applyingWith, boltPrepare, boltReferences, planManifest, secretKeyIn, type FactSource, type Providers } from './pipeline.js'
import * as Sensitive from './sensitive.js'
import * as Render from './render.js'
import * as Streams from './streams.js'
import * as Terminal from '../core/Terminal.js'
import { EXIT_CHANGES, EXIT_ERROR, Exit } from './exit.js'

const version = Installation.version(import.meta.url)

const { out, err } = Streams

const warn = (ds: ReadonlyArray<Diagnostic.Diagnostic>): void => err(Render.warnings(ds))

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  err(Render.diagnostics(ds))
  throw new Exit(EXIT_ERROR)
}

const orFail = <A>(e: E.Either<ReadonlyArray<Diagnostic.Diagnostic>, A>): A => (E.isLeft(e) ? fail(e.left) : e.right)

interface MachineOptions {
  readonly root?: string
  readonly stateDir?: string
  readonly providerPath?: string[]
}

/** The libral session of a command, made on first use: it prints providers' warn and error lines to stderr. */
const sessionOf = (machine: Machine): (() => Promise<Session>) => {
  let made: Session | undefined
  return async () => {
    if (made !== undefined) return made
    const Ral = await import('./ral.js')
    made = Ral.sessionFor(Ral.processIo, { logLevel: 'warn', ...(machine.root !== '/' ? { root: machine.root } : {}) })
    return made
  }
}

const providersOf = (o: MachineOptions & Options.PluginFlags, session: () => Promise<Session>): Providers => ({
  providerPath: o.providerPath ?? [],
  session,
  references: boltReferences(Options.plugins(o)),
  secretKey: secretKeyIn(o.root ?? '/', stateDirOf(o)),
  // Holo plugins run under the same --plugin-timeout as Bolt plugins.
  ...(o.pluginTimeout !== undefined ? { holo: { timeoutSeconds: o.pluginTimeout } } : {}),
})

const machineFor = async (o: MachineOptions): Promise<Machine> => {
  const root = await Options.resolveRoot(o.root)
  if (E.isLeft(root)) return fail([root.left])
  return Posix.make(root.right === '/' ? {} : { root: root.right })
}

const stateDirOf = (o: MachineOptions): string => orFail(E.mapLeft((d: Diagnostic.Diagnostic) => [d])(Options.stateDir(o.stateDir)))

const notePending = async (machine: Machine, stateDir: string): Promise<void> => {
  const run = await Recover.inspect(machine, stateDir)
  if (run._tag === 'Unfinished') {
    err(`note: an unfinished apply (pid ${run.pid}) left a journal in ${stateDir}; the next apply rolls back its ${run.steps.length} begun step(s) first\n`)
  } else if (run._tag === 'Damaged') {
    warn([Recover.damaged(stateDir, run)])
  }
}

/** Reads and verifies a saved plan (format, schema, hash). */
const loadPlan = async (path: string): Promise<Plan.Plan> => orFail(await PlanFiles.load(path))

const isPlanFile = PlanFiles.isPlanFile

const crashHook = (): ((seq: number) => void) | undefined => {
  const n = Number(process.env['PLAIT_CRASH_AT_STEP'])
  if (!Number.isInteger(n) || n < 1) return undefined
  return (seq) => {
    if (seq === n) process.kill(process.pid, 'SIGKILL')
  }
}

/** Text for people goes to stdout, unless stdout carries JSON: then it goes to stderr. */
const say = (json: boolean | undefined, text: string): void => (json === true ? err : out)(text.endsWith('\n') ? text : text + '\n')

/** The executor's options of a command line. */
const applyOptions = (o: MachineOptions & Options.PluginFlags & { atomic?: boolean; noop?: boolean; json?: boolean; force?: boolean }, session: () => Promise<Session>, postMessage: (m: string | undefined) => void): ApplyOptions => {
  const hook = crashHook()
  return {
    stateDir: stateDirOf(o),
    atomic: o.atomic === true,
    noop: o.noop === true,
    batch: batchSize,
    libral: session,
    ...(o.force === true || o.pluginTimeout !== undefined ? { holo: { ...(o.force === true ? { force: true } : {}), ...(o.pluginTimeout !== undefined ? { timeoutSeconds: o.pluginTimeout } : {}) } } : {}),
    onRecovered: (undone) => say(o.json, `${undone.map((x) => `recovered: ${Terminal.field(x)}`).join('\n')}\n${o.json === true ? '' : '\n'}`),
    onPlan: (plan) => {
      if (plan.preMessage !== undefined) say(o.json, plan.preMessage)
      postMessage(plan.postMessage)
    },
    ...(hook !== undefined ? { afterStepStart: hook } : {}),
    // A terminal's one status line, "resource N of M: id", overwritten as the run goes; never with --json or when stderr is not a terminal.
    ...(o.json !== true && o.noop !== true && Streams.canShowStatus() ? { onResource: (index: number, total: number, id: string) => Streams.showStatus(Progress.line(index, total, id, Streams.columns())) } : {}),
  }
}

/** Prints an apply's report and the plan's post message; a failed resource is exit 1. */
const report = (result: E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ReportM.Report>, o: { json?: boolean }, postMessage: string | undefined): void => {
  const r = orFail(result)
  Streams.showStatus(undefined)
  if (o.json === true) out(Streams.json(r))
  else out(Render.report(r), Colour.report)
  if (postMessage !== undefined) say(o.json, postMessage)
  if (ReportM.failed(r)) throw new Exit(EXIT_ERROR)
}

const rootOption = Options.root('confine every managed path below this directory')
const factSource = (o: { facts?: string; fact?: string[]; hiera?: string; now?: string }): FactSource => ({
  ...(o.facts !== undefined ? { factsFile: o.facts } : {}),
  ...(o.now !== undefined ? { now: o.now } : {}),
  ...(o.hiera !== undefined ? { hiera: o.hiera } : {}),
  assignments: o.fact ?? [],
})
const stateOption = new Option('--state-dir <dir>', `state directory for the lock and journal, a machine path (default ${defaultStateDir}, or $PLAIT_STATE_DIR)`)

/** `plait plan`. */
export const registerPlan = (program: Command): void => {
  const command = program
    .command('plan')
    .description('observe the machine and show what applying the manifest would change; never changes anything')
    .argument('<manifest>', 'the manifest (CCM YAML format)')
    .option('--out <file>', 'save the plan to this file for review and a later `plait apply`')
    .addOption(rootOption)
    .addOption(stateOption)
  Options.manifestInputs(command)
    .addOption(Options.now())
    .option('--json', 'print the plan as JSON (the plan file format)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error')
    .option('-v, --verbose', 'also list unchanged resources')
    .action(async (manifest: string, o: MachineOptions & { facts?: string; fact?: string[]; hiera?: string; now?: string; out?: string; json?: boolean; detailedExitcode?: boolean; verbose?: boolean }) => {
      const machine = await machineFor(o)
      await notePending(machine, stateDirOf(o))
      const plan = orFail(await planManifest(manifest, machine, version, factSource(o), warn, providersOf(o, sessionOf(machine))))
      if (o.out !== undefined) orFail(await PlanFiles.writeAtomic(o.out, PlanFile.serialize(plan), PlanFiles.inputsOf(manifest, plan, o)))
      if (o.json === true) out(Terminal.json(PlanFile.serialize(plan)))
      else out(Render.plan(plan, { verbose: o.verbose === true }), Colour.plan)
      if (o.out !== undefined && o.json !== true) out(`Saved the plan to ${o.out}. Apply it with: plait apply ${o.out}${o.root !== undefined ? ` --root ${o.root}` : ''}\n`)
      // A resource that could not be planned is in the plan as failed, and the plan exits 1.
      if (plan.summary.failed !== undefined) {
        err(Render.failures(plan))
        throw new Exit(EXIT_ERROR)
      }
      if (o.detailedExitcode === true && Review.changes(plan)) throw new Exit(EXIT_CHANGES)
    })
}

type Format = 'text' | 'json' | 'markdown' | 'github'

/** `--max-bytes N` as a number of bytes, or the error of a bad one. */
const maxBytesOf = (v: string | undefined, format: Format): number => {
  if (v === undefined) return Markdown.defaultMaxBytes
  if (format !== 'markdown') return fail([Diagnostic.make('Validation', '--max-bytes applies to --format markdown only')])
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < Markdown.minimumBytes || n > 2 ** 30) {
    return fail([Diagnostic.make('Validation', `--max-bytes ${v}: expected a whole number of bytes from ${Markdown.minimumBytes} to ${2 ** 30}`, { hint: `${Markdown.defaultMaxBytes} fits a pull-request comment, 1048576 a job summary` })])
  }
  return n
}

/** `plait show`. */
export const registerShow = (program: Command): void => {
  program
    .command('show')
    .description('render a saved plan, or what changed since an approved plan (--against)')
    .argument('<plan>', 'a plan file made by `plait plan --out`')
    .addOption(new Option('--format <format>', 'text, json, markdown (a pull-request comment) or github (workflow annotations)').choices(['text', 'json', 'markdown', 'github']))
    .option('--json', 'print the plan as JSON (the same as --format json)')
    .option('--max-bytes <n>', `with --format markdown: the most bytes to print (default ${Markdown.defaultMaxBytes}, a pull-request comment)`)
    .option('--against <approved>', 'show only what changed since this approved plan of the same manifest')
    .option('--detailed-exitcode', 'exit 0 when the plan has no changes (with --against: no differences), 2 when it has, 1 on error')
    .option('-v, --verbose', 'also list unchanged resources')
    .action(async (file: string, o: { format?: Format; json?: boolean; maxBytes?: string; against?: string; detailedExitcode?: boolean; verbose?: boolean }) => {
      if (o.json === true && o.format !== undefined && o.format !== 'json') fail([Diagnostic.make('Validation', `--json and --format ${o.format} ask for two formats; give one`)])
      const format: Format = o.json === true ? 'json' : (o.format ?? 'text')
      const maxBytes = maxBytesOf(o.maxBytes, format)
      const plan = await loadPlan(file)
      if (o.against !== undefined) {
        if (format === 'github') fail([Diagnostic.make('Validation', '--format github annotates one plan; with --against use text, json or markdown')])
        const approved = await loadPlan(o.against)
        const compared = PlanDiff.compare(approved, plan)
        if (E.isLeft(compared)) return fail([Diagnostic.make('Validation', `cannot compare ${file} with ${o.against}: ${compared.left}`)])
        const c = compared.right
        if (format === 'json') out(Streams.json(c))
        else if (format === 'markdown') out(Markdown.comparison(c, maxBytes))
        else out(PlanDiff.render(c), Colour.comparison)
        if (o.detailedExitcode === true && !PlanDiff.isSame(c)) throw new Exit(EXIT_CHANGES)
        return
      }
      if (format === 'json') out(Terminal.json(PlanFile.serialize(plan)))
      else if (format === 'markdown') out(Markdown.plan(plan, maxBytes))
      else if (format === 'github') out(Github.plan(plan))
      else out(Render.plan(plan, { verbose: o.verbose === true }), Colour.plan)
      if (o.detailedExitcode === true && Review.changes(plan)) throw new Exit(EXIT_CHANGES)
    })
}

/**
 * `--expect sha256:…` checked against a saved plan before anything is touched: the plan applied
 * must be the one approved. Gives the plan it checked, which is the one applied (never read twice).
 */
const checkExpected = async (target: string, expect: string): Promise<Plan.Plan> => {
  if (!/^sha256:[0-9a-f]{64}$/.test(expect)) fail([Diagnostic.make('Validation', `--expect ${expect}: expected a plan hash, sha256: and 64 lowercase hex digits`, { hint: 'the hash is the plan file\'s "hash" field, as `plait show plan.json --format markdown` prints it' })])
  if (!(await isPlanFile(target))) fail([Diagnostic.make('Validation', '--expect applies to a saved plan; a manifest is planned afresh and has no approved hash')])
  const plan = await loadPlan(target)
  if (plan.hash !== expect) {
    fail([Diagnostic.make('PlanFile', `${target} is not the approved plan: its hash is ${plan.hash}, the approved hash is ${expect}; nothing was applied`, { hint: 'apply the plan that was approved, or review this one and approve its hash' })])
  }
  return plan
}

/** `plait apply`. */
export const registerApply = (program: Command): void => {
  const command = program
    .command('apply')
    .description('apply a saved plan (refused if tampered or stale), or plan and apply a manifest in one go')
    .argument('<target>', 'a plan file, or a manifest')
    .addOption(rootOption)
    .addOption(stateOption)
  Options.manifestInputs(command)
    .addOption(Options.now())
    .option('--atomic', 'roll back every reversible step of the run when any resource fails')
    .option('--noop', 'run every check of apply and change nothing')
    .option('--json', 'print the report as JSON')
    .option('--force', 'let Holo plugins overwrite entities changed by hand since they were last applied (force-apply)')
    .option('--expect <hash>', 'apply the saved plan only if its hash is this one (sha256:…, the hash a reviewer approved); refused before anything is touched')
    .option('--policy <file>', 'check the plan against this policy file before the first change; refused when it fails (docs/policy.md)')
    .option('--override <rule=reason>', 'with --policy: waive a soft rule, the reason recorded in the report (repeatable)', Options.repeatable)
    .option('--prepare', "run the Bolt project's puppet_library hook (plugin-hooks.puppet_library) first, and fail when none is configured (it runs without this flag when configured); its failure stops the apply before any change")
    .option('--no-prepare', "skip the Bolt project's puppet_library hook")
    .action(async (target: string, o: MachineOptions & Options.PluginFlags & { facts?: string; fact?: string[]; hiera?: string; now?: string; atomic?: boolean; noop?: boolean; json?: boolean; expect?: string; force?: boolean; policy?: string; override?: string[]; prepare?: boolean }) => {
      if (o.override !== undefined && o.policy === undefined) fail([Diagnostic.make('Validation', '--override applies with --policy only')])
      // The executor is loaded by the command that runs it: `plan` and `show` never set up its modules.
      const Apply = await import('../executor/apply.js')
      const approved = o.expect !== undefined ? await checkExpected(target, o.expect) : undefined
      if (o.prepare === true && o.noop === true) fail([Diagnostic.make('Validation', '--prepare installs what the apply needs, and --noop changes nothing; give one')])
      const prepared = o.noop === true || o.prepare === false ? undefined : orFail(await boltPrepare({ ...Options.plugins(o), required: o.prepare === true }))
      if (prepared !== undefined) say(o.json, prepared)
      const machine = await machineFor(o)
      const session = sessionOf(machine)
      let postMessage: string | undefined
      const options = applyOptions(o, session, (m) => (postMessage = m))
      // With --expect the target was found to be a plan and read once, above: never looked at again.
      if (approved !== undefined || (await isPlanFile(target))) {
        if (o.facts !== undefined || o.hiera !== undefined || o.now !== undefined || (o.fact ?? []).length > 0 || (o.providerPath ?? []).length > 0) {
          fail([Diagnostic.make('Validation', '--facts, --fact, --hiera, --now and --provider-path apply to a manifest; a saved plan is applied exactly as it was reviewed')])
        }
        const plan = approved ?? (await loadPlan(target))
        if (o.policy !== undefined) await (await import('./policy.js')).gate(plan, o.policy, o.override ?? [])
        // A plan with sensitive values runs their plugins again (sensitive.ts); any other runs none.
        if ((o.project !== undefined || (o.modulepath ?? []).length > 0) && !Sensitive.holdsSecrets(plan) && prepared === undefined) {
          fail([Diagnostic.make('Validation', '--project and --modulepath apply to a manifest, or a plan with sensitive values; this plan holds the values its plugins gave and runs no plugin')])
        }
        report(await applyingWith(providersOf(o, session))(plan, (r) => Apply.apply(machine, r.plan, { ...options, redact: r.redact, sameDigest: r.sameDigest, onPlan: () => options.onPlan?.(plan) })), o, postMessage)
        return
      }
      // Plan first, so a bad manifest stops here with nothing touched. Then the executor is opened
      // (the lock, and the rollback of an unfinished run); if it rolled something back, the first
      // plan saw the half-applied state: plan again. The executor is given the plan and never makes one.
      const providers = providersOf(o, session)
      const first = orFail(await planManifest(target, machine, version, factSource(o), warn, providers))
      if (o.policy !== undefined) await (await import('./policy.js')).gate(first, o.policy, o.override ?? [])
      const show = (plan: Plan.Plan): Plan.Plan => {
        if (o.json !== true) out(Render.plan(plan) + '\n', Colour.plan)
        if (plan.summary.failed !== undefined) err(Render.failures(plan))
        return plan
      }
      const applying = applyingWith(providers)
      if (o.noop === true) {
        report(await applying(show(first), (r) => Apply.apply(machine, r.plan, { ...options, redact: r.redact, sameDigest: r.sameDigest, onPlan: () => options.onPlan?.(first) })), o, postMessage)
        return
      }
      const { redact, sameDigest } = orFail(await Sensitive.reveal(first, providers.references ?? (async () => E.right(new Map())), providers.secretKey))
      const executor = orFail(await Apply.open(machine, { ...options, redact, sameDigest, onPlan: (p) => options.onPlan?.(redact(p)) }))
      try {
        const plan = executor.recovered.length > 0 ? await planManifest(target, machine, version, factSource(o), warn, providers) : E.right(first)
        if (o.policy !== undefined && E.isRight(plan) && plan.right !== first) await (await import('./policy.js')).gate(plan.right, o.policy, o.override ?? [])
        report(E.isLeft(plan) ? plan : await applying(show(plan.right), (r) => executor.apply(r.plan)), o, postMessage)
      } finally {
        await executor.close()
      }
    })
}
