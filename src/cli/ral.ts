// ral: `plait ral [TYPE [NAME [attr=value...]]]`, ralsh's command line over plait's libral layer:
// list the providers, the resources of one, one resource, or change one; printed as ralsh printed
// them, exit 0 on success, 1 when the resource was not found, 2 on any error.
import { Command, CommanderError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Discover from '../interpreters/libral/discover.js'
import type * as Invoke from '../interpreters/libral/invoke.js'
import * as Session from '../interpreters/libral/Session.js'
import * as Changes from '../interpreters/libral/protocol/Changes.js'
import * as Desired from '../interpreters/libral/protocol/Desired.js'
import * as Log from '../interpreters/libral/protocol/Log.js'
import * as Registry from '../interpreters/libral/protocol/Registry.js'
import * as Render from '../interpreters/libral/protocol/Render.js'
import * as CliOptions from './options.js'
import * as Streams from './streams.js'
import * as Resource from '../interpreters/libral/protocol/Resource.js'

// model

/** Where a command writes, and what it reads of its process (tests pass their own). */
export interface Io {
  readonly out: (s: string) => void
  readonly err: (s: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
}

/** This process's streams and environment. */
export const processIo: Io = {
  out: Streams.out,
  err: Streams.err,
  env: process.env,
}

/** ralsh's exit codes. */
export const EXIT_OK = 0
export const EXIT_NOT_FOUND = 1
export const EXIT_ERROR = 2

/** The CommanderError `code` of a command that ends with a chosen exit status. */
export const exitCode = 'plait.exit'

/** Ends the command with an exit status (main returns `exitCode` CommanderErrors' status as it is). */
export const exitWith = (status: number): never => {
  throw new CommanderError(status, exitCode, `exit ${status}`)
}

interface Options {
  readonly providerPath: string[]
  readonly root?: string
  readonly json?: boolean
  readonly explain?: boolean
  readonly absent?: boolean
  readonly noop?: boolean
  readonly timeout?: string
  readonly logLevel: string
}

/** Collects a repeatable option. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value]

/** Options shared by `plait ral` and `plait provider test`. */
export const providerPathOption = (): Option =>
  CliOptions.providerPath("look for providers in DIR/providers first (repeatable; then $PLAIT_PROVIDER_PATH, plait's own, /usr/share/libral/data)").default([])

/** Parses `--timeout` seconds. */
export const parseTimeout = (text: string | undefined, io: Io): number | undefined => {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isFinite(n) || n <= 0) {
    io.err(`error: --timeout ${text}: not a positive number of seconds\n`)
    return exitWith(EXIT_ERROR)
  }
  return n
}

/** Resolves `--root` to a real directory, or ends the command. */
export const resolveRoot = async (root: string | undefined, io: Io): Promise<string | undefined> => {
  if (root === undefined) return undefined
  const r = await CliOptions.resolveRoot(root)
  if (E.isLeft(r)) {
    io.err(`error: ${r.left.message}\n`)
    return exitWith(EXIT_ERROR)
  }
  return r.right
}

/** A session that prints provider stderr lines (and parser notes) at or above a level. */
export const sessionFor = (io: Io, o: { readonly root?: string; readonly timeoutSeconds?: number; readonly logLevel: string }): Session.Session => {
  const threshold = Log.parseLevel(o.logLevel)
  if (threshold === undefined) {
    io.err(`error: --log-level ${o.logLevel}: use debug, info, warn or error\n`)
    return exitWith(EXIT_ERROR)
  }
  const show = Log.atLeast(threshold)
  const onInvocation = (i: Invoke.Invocation): void => {
    const subject = `${i.provider} ${i.action}`
    for (const l of i.logs) if (show(l)) io.err(Log.render(subject, l) + '\n')
    for (const n of i.notes) if (show({ level: 'warn', message: n })) io.err(Log.render(subject, { level: 'warn', message: n }) + '\n')
  }
  return Session.make({
    hostEnv: io.env,
    onInvocation,
    ...(o.root !== undefined ? { root: o.root } : {}),
    ...(o.timeoutSeconds !== undefined ? { timeoutSeconds: o.timeoutSeconds } : {}),
  })
}

// the command

/** The `error:` lines of a refusal, as one message (its first line when it has none). */
const errorsIn = (text: string): string => {
  const lines = text.split('\n').filter((l) => l.startsWith('error: '))
  return lines.length === 0 ? (text.split('\n')[0] ?? '') : lines.map((l) => l.slice('error: '.length)).join('; ')
}

const run = async (io: Io, type: string | undefined, name: string | undefined, attrs: ReadonlyArray<string>, o: Options): Promise<number> => {
  const json = o.json === true
  // With --json, a refusal is also a JSON error on stdout, so that a script always has an answer.
  const refusing: Io = json ? { ...io, err: (s) => (io.err(s), io.out(Streams.json(Render.errorJson(errorsIn(s))))) } : io
  const refuse = (text: string): number => (refusing.err(text), EXIT_ERROR)
  const root = await resolveRoot(o.root, refusing)
  const timeoutSeconds = parseTimeout(o.timeout, refusing)
  const session = sessionFor(io, { logLevel: o.logLevel, ...(root !== undefined ? { root } : {}), ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}) })
  const path = Discover.providerPath({ cli: o.providerPath, env: io.env['PLAIT_PROVIDER_PATH'] })
  const { registry, problems } = await Discover.discover(session.context, path)
  if (problems.length > 0) io.err(problems.map(Diagnostic.render).join('\n') + '\n')
  const status = (s: number): number => Math.max(s, problems.length > 0 ? EXIT_ERROR : EXIT_OK)
  const print = (text: string, j: unknown): void => io.out(json ? Streams.json(j) : text)
  const failed = (message: string): number => {
    if (json) io.out(Streams.json(Render.errorJson(message)))
    else io.err(`failed: ${message}\n`)
    return EXIT_ERROR
  }
  const faulted = (f: Fault.Fault): number => failed(Fault.render(f))

  if (type === undefined) {
    if (o.explain === true) {
      return refuse("error: please provide a type\nrun 'plait ral' to see a list of all providers\n")
    }
    const usable = Registry.suitable(registry)
    print(Render.providers(usable.map((p) => p.meta)), Render.providersJson(usable.map((p) => ({ meta: p.meta, path: p.path, suitable: true }))))
    return status(EXIT_OK)
  }

  const picked = Registry.resolve(registry, type)
  if (E.isLeft(picked)) {
    return refuse(`error: ${picked.left}\nrun 'plait ral' to see a list of all providers\n`)
  }
  const p = picked.right
  const meta = p.meta
  if (o.explain === true) {
    io.out(Render.explain(meta, p.path))
    return status(EXIT_OK)
  }

  if (name === undefined) {
    const all = await session.list(p)
    if (E.isLeft(all)) return faulted(all.left)
    print(Render.resources(meta.qname, all.right), Render.listJson(meta, all.right))
    return status(EXIT_OK)
  }

  const badName = Desired.nameProblem(name)
  if (badName !== undefined) {
    return refuse(`error: ${badName}\n`)
  }

  if (attrs.length === 0) {
    const found = await session.find(p, name)
    if (E.isLeft(found)) return faulted(found.left)
    print(Render.resource(meta.qname, found.right), Render.findJson(meta, found.right))
    const missing = Resource.ensureOf(found.right) === 'absent' && (found.right._tag === 'Absent' || o.absent === true)
    return status(missing ? EXIT_NOT_FOUND : EXIT_OK)
  }

  const desired = Desired.readArgs(meta, attrs)
  if (E.isLeft(desired)) {
    return refuse(desired.left.map((m) => `error: ${m}\n`).join('') + `run 'plait ral --explain ${meta.qname}' to get a list of attributes and valid values\n`)
  }
  const found = await session.find(p, name)
  if (E.isLeft(found)) return faulted(found.left)
  const planned = Changes.plan(meta, desired.right, found.right)
  if (o.noop === true && !meta.noop) {
    // The provider did not opt in to ral_noop: show the plan, never run update.
    io.err(`note: ${meta.qname} does not declare plait.noop, so nothing was asked of it: these are the planned changes\n`)
    const after = Changes.after(found.right, planned, planned)
    print(Render.resource(meta.qname, after) + Render.changes(planned), Render.updateJson(meta, planned, after))
    return status(EXIT_OK)
  }
  const updated = await session.update(p, found.right, planned, { noop: o.noop === true })
  if (E.isLeft(updated)) return faulted(updated.left)
  if (updated.right._tag === 'Unknown') {
    if (json) io.out(Streams.json(Render.errorJson(`${meta.qname} '${name}' does not exist and can not be created`, 'unknown')))
    else io.err(`failed: ${meta.qname} '${name}' does not exist and can not be created\n`)
    return status(EXIT_NOT_FOUND)
  }
  const { changes, after } = updated.right
  print(Render.resource(meta.qname, after) + Render.changes(changes), Render.updateJson(meta, changes, after))
  return status(EXIT_OK)
}

/** Adds `plait ral` to a program. */
export const register = (program: Command, io: Io = processIo): void => {
  program
    .command('ral')
    .description('list libral providers, the resources of one, one resource, or change one (as ralsh did)')
    .argument('[type]', 'a provider (type::name) or a type with one suitable provider')
    .argument('[name]', 'a resource name')
    .argument('[attrs...]', 'attr=value changes to make to the resource')
    .addOption(providerPathOption())
    .option('--root <dir>', 'run providers with PLAIT_ROOT_DIR set to this directory (a sandbox)')
    .option('--json', "print JSON (ralsh's --json format)")
    .option('-e, --explain', "print the provider's attributes with their kind and type")
    .option('-a, --absent', 'count a resource with ensure=absent as not found (exit 1)')
    .option('--noop', 'show what a change would do: asks providers that declare plait.noop, plans for the others')
    .option('--timeout <seconds>', 'kill a provider that runs longer (default: its plait.timeout, else 60)')
    .option('-l, --log-level <level>', 'show provider stderr lines at this level and above (debug, info, warn, error)', 'warn')
    .addHelpText('after', '\nExit status:\n  0 on success\n  1 when no resource was found\n  2 when an error happened\n')
    .action(async (type: string | undefined, name: string | undefined, attrs: string[], o: Options) => {
      const code = await run(io, type, name, attrs, o)
      if (code !== EXIT_OK) exitWith(code)
    })
}
