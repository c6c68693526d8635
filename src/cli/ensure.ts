// ensure: `plait ensure TYPE NAME [ARGS] [--prop K=V]...`, `plait status TYPE NAME` and
// `plait ensure api pipe`, CCM's single resources from the shell (docs/ensure.md). A command line is
// a one-resource manifest (ensure/Args.ts) run through the normal pipeline: it is planned, the
// plan of that one resource is shown, and it is applied (unless --noop), with every check of
// `plait apply`. With $PLAIT_SESSION_STORE set, the outcome is recorded in the session.
import { randomBytes } from 'node:crypto'
import * as fs from 'node:fs'
import * as nodePath from 'node:path'
import { Command, CommanderError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import * as Terminal from '../core/Terminal.js'
import * as Api from '../ensure/Api.js'
import * as Args from '../ensure/Args.js'
import * as DotEnv from '../ensure/DotEnv.js'
import * as SessionRecord from '../ensure/SessionRecord.js'
import type * as ReportM from '../executor/Report.js'
import * as Installation from '../interpreters/installation.js'
import * as HostFile from '../interpreters/posix/hostFile.js'
import type { Machine } from '../interpreters/Machine.js'
import type * as Health from '../types/Health.js'
import * as Registry from '../types/registry.js'
import * as Held from './held.js'
import * as Options from './options.js'
import { applyingWith, quietSession, secretKeyIn, type FactSource, type Providers } from './pipeline.js'
import * as Render from './render.js'
import * as Session from './session.js'
import * as Streams from './streams.js'

interface Common {
  readonly root?: string
  readonly stateDir?: string
  readonly hiera?: string
  readonly facts?: string
  readonly fact?: string[]
  readonly json?: boolean
}

interface Flags extends Common {
  readonly noop?: boolean
  readonly prop?: string[]
  readonly require?: string[]
  readonly subscribe?: string[]
}

/** The CommanderError code of an ensure that failed (main turns it into exit 1). */
export const exitCode = 'plait.ensure'

const exit = (): never => {
  throw new CommanderError(1, exitCode, 'exit 1')
}

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  Streams.err(Render.diagnostics(ds))
  return exit()
}

const problem = (message: string, hint?: string): Diagnostic.Diagnostic => Diagnostic.make('Validation', message, hint !== undefined ? { hint } : {})


/** The properties every built-in type accepts as flags (`refresh_only` is `--refresh-only`), with the option's attribute. */
const propertyFlags = (): ReadonlyArray<{ readonly key: string; readonly flag: string; readonly attribute: string }> => {
  const keys = new Set<string>(['alias'])
  for (const name of Registry.types().names) for (const k of Registry.ofKind(name).keys ?? []) keys.add(k)
  return [...keys].sort().map((key) => {
    const flag = key.replace(/_/g, '-')
    return { key, flag, attribute: new Option(`--${flag} <value>`).attributeName() }
  })
}

/** `./.env` joined into this process's environment (what `Environ` and `lookup('environ.…')` see); a variable already set wins. */
const loadDotEnv = (): E.Either<Diagnostic.Diagnostic, void> => {
  const path = nodePath.resolve('.env')
  if (!fs.existsSync(path)) return E.right(undefined)
  let text: string
  try {
    text = HostFile.readText(path, 1024 * 1024)
  } catch (e) {
    return E.left(problem(`cannot read ${path}: ${(e as Error).message}`))
  }
  const vars = DotEnv.parse(text)
  if (E.isLeft(vars)) return E.left(problem(`${path}: ${vars.left}`))
  const joined = DotEnv.join(process.env, vars.right)
  for (const [k, v] of Object.entries(joined)) process.env[k] = v
  return E.right(undefined)
}

/** Loads `./.env`, or stops the command with why it cannot. */
const dotEnvOrFail = (): void => {
  const loaded = loadDotEnv()
  if (E.isLeft(loaded)) fail([loaded.left])
}

/** The data of an ensure: `--hiera FILE`, else $PLAIT_HIERA_DATA, else `./.hiera` when there is one. */
const hieraOf = (o: Common): string | undefined => o.hiera ?? process.env['PLAIT_HIERA_DATA'] ?? (fs.existsSync('.hiera') ? nodePath.resolve('.hiera') : undefined)

const factSource = (o: Common): FactSource => {
  const hiera = hieraOf(o)
  return { ...(o.facts !== undefined ? { factsFile: o.facts } : {}), ...(hiera !== undefined ? { hiera } : {}), assignments: o.fact ?? [] }
}

const machineOf = async (o: Common): Promise<E.Either<Diagnostic.Diagnostic, Machine>> => {
  const root = await Options.resolveRoot(o.root)
  if (E.isLeft(root)) return root
  const Posix = await import('../interpreters/posix/posix.js')
  return E.right(Posix.make(root.right === '/' ? {} : { root: root.right }))
}

const providersOf = (o: Common, machine: Machine, stateDir: string): Providers => ({ providerPath: [], session: quietSession(machine.root), secretKey: secretKeyIn(o.root ?? '/', stateDir) })

const warnTo = (json: boolean | undefined) => (ds: ReadonlyArray<Diagnostic.Diagnostic>) => (json === true ? undefined : Streams.err(Render.warnings(ds)))

/** A relative `--source` is relative to the working directory, as a shell user means it. */
const absoluteSource = (r: Args.Resource): Args.Resource =>
  typeof r.properties['source'] === 'string' && !/^[a-z]+:\/\//.test(r.properties['source']) && !nodePath.isAbsolute(r.properties['source'])
    ? { ...r, properties: { ...r.properties, source: nodePath.resolve(r.properties['source']) } }
    : r

/** What one ensure did, for the session, the API and the exit status. */
interface Outcome {
  readonly id: string
  readonly outcome: SessionRecord.Outcome
  readonly messages: ReadonlyArray<string>
  readonly plan?: Plan.Plan
  readonly report?: ReportM.Report
  /** The results of its health checks, when they ran. */
  readonly health?: ReadonlyArray<Health.Result>
}

const outcomeOf = (id: string, plan: Plan.Plan, report: ReportM.Report): Outcome => {
  const r = report.resources.find((x) => x.id === (plan.resources[0]?.id ?? id)) ?? report.resources[0]
  const o = r === undefined ? 'stable' : r.outcome === 'rolled back' ? 'failed' : r.outcome
  return { id: plan.resources[0]?.id ?? id, outcome: o, messages: r?.messages ?? [], plan, report }
}

/** Plans and applies one resource; `show` gets the plan before anything is applied. */
const ensureOne = async (resource: Args.Resource, links: { require: ReadonlyArray<string>; subscribe: ReadonlyArray<string> }, o: Common & { noop?: boolean }, show: (p: Plan.Plan) => void): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Outcome>> => {
  const id = Args.idOf(resource)
  const store = Session.storeOf()
  const records = store === undefined ? E.right([]) : Session.readFor(store, links.require.length > 0 || links.subscribe.length > 0)
  if (E.isLeft(records)) return E.left([problem(records.left)])
  if (links.require.length > 0 && store === undefined) return E.left([problem(`--require ${links.require[0]!}: a requirement is a resource an earlier command of a session ensured, and there is no session`, 'start one with: eval "$(plait session new)"')])
  const session = SessionRecord.links(records.right)
  const unmet = links.require.map(session.unmet).find((x) => x !== undefined)
  if (unmet !== undefined) return E.right({ id, outcome: 'skipped', messages: [`unmet requirement: ${unmet}`] })
  const Apply = await import('../executor/apply.js')
  const Pipeline = await import('./ensurePipeline.js')
  const made = await machineOf(o)
  if (E.isLeft(made)) return E.left([made.left])
  const machine = made.right
  const stateDir = Options.stateDir(o.stateDir)
  if (E.isLeft(stateDir)) return E.left([stateDir.left])
  const providers = providersOf(o, machine, stateDir.right)
  const changedBefore = session.changed
  const version = Installation.version(import.meta.url)
  const plan = await Pipeline.planOne({ document: Args.document(absoluteSource(resource)), label: `plait ensure ${resource.type} ${resource.name}`, id, ...links, changedBefore }, machine, version, factSource(o), providers, warnTo(o.json))
  if (E.isLeft(plan)) return plan
  show(plan.right)
  const failedAtPlan = plan.right.resources.find((r) => r.failed !== undefined)
  if (failedAtPlan !== undefined) return E.right({ id: failedAtPlan.id, outcome: 'failed', messages: [failedAtPlan.failed ?? ''], plan: plan.right })
  const health = new Map<string, ReadonlyArray<Health.Result>>()
  const report = await applyingWith(providers)(plan.right, (r) =>
    Apply.apply(machine, r.plan, { stateDir: stateDir.right, atomic: false, noop: o.noop === true, libral: providers.session, redact: r.redact, sameDigest: r.sameDigest, changedBefore: (ref) => links.subscribe.includes(ref) && changedBefore(ref), onHealth: (ref, results) => health.set(ref, results) }),
  )
  return E.map((rep: ReportM.Report) => {
    const done = outcomeOf(id, plan.right, rep)
    const results = health.get(done.id)
    return results !== undefined ? { ...done, health: results } : done
  })(report)
}

/** Records an outcome in the session, when there is one (a failure to record is a warning: the resource's state is what it is). */
const remember = (o: Outcome, noop: boolean): void => {
  const store = Session.storeOf()
  if (store === undefined) return
  const done = Session.record(store, { id: o.id, outcome: o.outcome, time: new Date().toISOString(), noop })
  if (E.isLeft(done)) Streams.err(`warning: ${Terminal.field(done.left)}\n`)
}

const addCommon = (c: Command): Command =>
  c
    .addOption(Options.root('confine every managed path below this directory'))
    .addOption(new Option('--state-dir <dir>', 'state directory for the lock and journal, a machine path (default /var/lib/plait, or $PLAIT_STATE_DIR)'))
    .addOption(Options.hiera('the data of the command (default $PLAIT_HIERA_DATA, else ./.hiera when there is one)'))
    .addOption(Options.facts())
    .addOption(Options.fact())

/** `plait ensure api pipe`: one request on stdin, one response on stdout; every failure is an error response. */
const apiPipe = async (o: Common & { noop?: boolean; yaml?: boolean }): Promise<void> => {
  const Y = o.yaml === true ? await import('yaml') : undefined
  const respond = (r: Api.Response): void => Streams.out(Y !== undefined ? Terminal.text(Y.stringify(r)) : Terminal.json(Api.encode(r)))
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > Api.maxBytes) return respond(Api.failure(`the request is larger than ${Api.maxBytes} bytes`))
    chunks.push(chunk)
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks))
  } catch {
    return respond(Api.failure('the request is not UTF-8 text'))
  }
  const env = loadDotEnv()
  if (E.isLeft(env)) return respond(Api.failure(env.left.message))
  const request = Api.decode(text, Registry.types().names)
  if (E.isLeft(request)) return respond(Api.failure(request.left))
  const { resource, require, subscribe } = request.right
  const started = process.hrtime.bigint()
  try {
    const done = await ensureOne(resource, { require, subscribe }, { ...o, json: true }, () => undefined)
    if (E.isLeft(done)) {
      remember({ id: Args.idOf(resource), outcome: 'failed', messages: [] }, o.noop === true)
      return respond(Api.failures(done.left.map((d) => `${d.resource !== undefined ? `${d.resource}: ` : ''}${d.message}${d.hint !== undefined ? ` (${d.hint})` : ''}`)))
    }
    remember(done.right, o.noop === true)
    respond(Api.success(eventOf(resource, done.right, o.noop === true, Number(process.hrtime.bigint() - started))))
  } catch (e) {
    respond(Api.failure(Held.scrub(`internal error: ${(e as Error).message}`)))
  }
}

/** CCM's transaction event of an outcome (the id and time are made here, at the edge). */
const eventOf = (resource: Args.Resource, d: Outcome, noop: boolean, durationNs: number): Api.Event => {
  const r = d.plan?.resources[0] as (Plan.ResourcePlan & { readonly desired?: { readonly provider?: unknown } }) | undefined
  return Api.event({
    resource,
    id: d.id,
    outcome: d.outcome,
    messages: d.messages,
    noop,
    durationNs,
    ...(r !== undefined ? { action: r.action } : {}),
    ...(typeof r?.desired?.provider === 'string' ? { provider: r.desired.provider } : {}),
    ...(d.health !== undefined ? { health: d.health } : {}),
    eventId: randomBytes(14).toString('hex').slice(0, 27),
    timestamp: new Date().toISOString(),
  })
}

/** Adds `plait ensure` and `plait status` to a program. */
export const register = (program: Command): void => {
  const flags = propertyFlags()
  const ensure = program
    .command('ensure')
    .description('ensure one resource is as the arguments say (plan it, show the plan, apply it); `plait ensure api pipe` reads a JSON request on stdin')
    .argument('<type>', `the resource type: ${Registry.types().names.join(', ')} (or api)`)
    .argument('<name>', "the resource's name (a package, a service, a file's path, a command)")
    .argument('[args...]', 'required inputs, in order: package VERSION|ENSURE, service running|stopped, file present|absent|directory')
  for (const f of flags) ensure.addOption(new Option(`--${f.flag} <value>`, `the ${f.key} property`).argParser(Options.repeatable))
  addCommon(ensure)
    .option('--prop <key=value>', 'set any property (repeatable)', Options.repeatable)
    .option('--require <type#name>', 'a resource an earlier command of the session ensured, which must not have failed (repeatable)', Options.repeatable)
    .option('--subscribe <type#name>', 'refresh (restart, run) when this resource changed earlier in the session (repeatable)', Options.repeatable)
    .option('--noop', 'plan and run every check, change nothing')
    .option('--json', 'print the report as JSON (the plan goes to stderr)')
    .option('--yaml', 'with api pipe: answer in YAML instead of JSON')
    .option('--data <file>', 'with api pipe: the data of the request (the same as --hiera, as CCM names it)')
    .action(async (type: string, name: string, args: string[], o: Flags & { yaml?: boolean; data?: string } & Record<string, string[] | undefined>) => {
      if (type === 'api') {
        if (name !== 'pipe' || args.length > 0) fail([problem(`plait ensure api ${name}: the API command is \`plait ensure api pipe\``)])
        if (o.data !== undefined && o.hiera !== undefined) fail([problem('--data and --hiera both give the data; give one')])
        return apiPipe({ ...o, ...(o.data !== undefined ? { hiera: o.data } : {}) })
      }
      if (o.yaml === true || o.data !== undefined) fail([problem('--yaml and --data apply to `plait ensure api pipe`')])
      dotEnvOrFail()
      const props: Array<readonly [string, string]> = []
      for (const f of flags) for (const v of o[f.attribute] ?? []) props.push([f.key, v])
      for (const p of o.prop ?? []) {
        const kv = Args.prop(p)
        if (E.isLeft(kv)) fail([problem(kv.left)])
        else props.push(kv.right)
      }
      const resource = Args.resource({ type, name, args, props, require: o.require ?? [], subscribe: o.subscribe ?? [] })
      if (E.isLeft(resource)) return fail(resource.left.map((m) => problem(m)))
      const say = (text: string): void => (o.json === true ? Streams.err : Streams.out)(text)
      const done = await ensureOne(resource.right, { require: o.require ?? [], subscribe: o.subscribe ?? [] }, o, (plan) => say(Render.plan(plan) + '\n'))
      if (E.isLeft(done)) {
        remember({ id: Args.idOf(resource.right), outcome: 'failed', messages: [] }, o.noop === true)
        return fail(done.left)
      }
      remember(done.right, o.noop === true)
      const d = done.right
      if (o.json === true) Streams.out(Streams.json(d.report ?? { resources: [{ id: d.id, outcome: d.outcome, messages: d.messages }] }))
      else if (d.report !== undefined) Streams.out(Render.report(d.report))
      else Streams.out(`${d.outcome} ${Terminal.field(d.id)}: ${Terminal.field(d.messages.join('; '))}\n`)
      // Said of the resource, not of a position in the temp manifest.
      if (d.plan !== undefined && d.report === undefined && d.outcome === 'failed') for (const r of d.plan.resources) if (r.failed !== undefined) Streams.err(`error: ${Terminal.field(r.id)}: ${Terminal.field(r.failed)}\n`)
      if (d.outcome === 'failed' || d.outcome === 'skipped') exit()
    })

  addCommon(program.command('status').description('show the observed state of one resource; changes nothing').argument('<type>', 'the resource type').argument('<name>', "the resource's name"))
    .option('--json', 'print the state as JSON')
    .action(async (type: string, name: string, o: Common) => {
      dotEnvOrFail()
      const made = await machineOf(o)
      if (E.isLeft(made)) return fail([made.left])
      const machine = made.right
      const stateDir = Options.stateDir(o.stateDir)
      if (E.isLeft(stateDir)) return fail([stateDir.left])
      const Pipeline = await import('./ensurePipeline.js')
      const observed = await Pipeline.observeOne({ document: Args.document({ type, name, properties: Args.statusProperties(type) }), label: `plait status ${type} ${name}`, id: Args.idOf({ type, name }), require: [], subscribe: [], changedBefore: () => false }, machine, factSource(o), providersOf(o, machine, stateDir.right), warnTo(o.json))
      if (E.isLeft(observed)) return fail(observed.left)
      const r = observed.right.catalog.resources[0]
      const id = r?.id ?? Args.idOf({ type, name })
      const failed = observed.right.observations.failed?.get(id)
      // Without its position in the temp manifest: the user wrote a command line.
      if (failed !== undefined) return fail([Diagnostic.make(failed.code, failed.message, { resource: failed.resource, hint: failed.hint })])
      const state = observed.right.observations.byId.get(id)
      const plain = JSON.parse(JSON.stringify({ id, type, name: id.slice(id.indexOf('#') + 1), observed: state ?? null }, (_k, v: unknown) => (v instanceof Uint8Array ? `<${v.length} bytes>` : typeof v === 'bigint' ? v.toString() : v))) as { observed: unknown }
      if (o.json === true) Streams.out(Streams.json(plain))
      else Streams.out(`${Terminal.field(id)}\n${Terminal.text(JSON.stringify(plain.observed, null, 2))}\n`)
    })
}
