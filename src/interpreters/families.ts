// families: the table of interpreters a run has, by request family (what observation programs ask)
// and by step family (what plans change). Adding a plugin protocol is a folder under
// src/interpreters/ and one line in each table it serves.
import * as E from 'fp-ts/lib/Either.js'
import type * as Diagnostic from '../core/Diagnostic.js'
import { memo, once } from '../core/Memo.js'
import type { Families, Family } from '../core/Observation.js'
import type * as Plan from '../core/Plan.js'
import * as CommandSteps from './commands/steps.js'
import * as FileSteps from './files/steps.js'
import * as Holo from './holoSteps/family.js'
import type { Target } from './libral/invoke.js'
import * as LibralProbes from './libral/probes.js'
import type { Runtime } from './libral/Runtime.js'
import type { Session } from './libral/Session.js'
import * as LibralSteps from './libral/steps.js'
import type { Machine } from './Machine.js'
import type { Manager as PackageManager } from './packages/Manager.js'
import * as PackageProbes from './packages/probes.js'
import * as PackageSelect from './packages/select.js'
import * as PackageSteps from './packages/steps.js'
import * as Probes from './probes.js'
import type { Runner } from './Runner.js'
import type { Manager as ServiceManager } from './services/Manager.js'
import * as ServiceProbes from './services/probes.js'
import * as ServiceSteps from './services/steps.js'
import * as Systemctl from './services/systemctl.js'
import type { StepFamily } from './steps.js'

/** What the request families of a run are made of; each is made only when a program asks it. */
export interface Services {
  readonly machine: Machine
  /** The runner of guard commands (a run without one cannot observe guards: a bug in the caller). */
  readonly runner?: () => Promise<Runner>
  /** Host input files (plan only: apply reads nothing of the host). */
  readonly readHost?: Probes.ReadHost
  /** Told of each host file read, with its sha256. */
  readonly seen?: (path: string, sha256: string) => void
  /** The libral session, and the plan's providers by full name (apply). */
  readonly libral?: { readonly session: () => Promise<Session>; readonly target?: (qname: string) => Target }
  /** The service manager (default: systemctl, made on the first request). */
  readonly services?: () => ServiceManager
  /** The package manager (default: apt or dnf by suitability below the machine's root, made on the first request). */
  readonly packages?: () => PackageManager
  /** The Holo host (default: the real one on the machine's root) and whether apply forces. */
  readonly holo?: Holo.HoloServices
}

const missing = (what: string): Family => ({
  merge: false,
  answer: () => {
    throw new Error(`invariant: ${what}`)
  },
})

/** The request families of a run. */
export const requests = (s: Services): Families => {
  const table: Record<string, () => Family> = {
    path: () => Probes.paths(s.machine),
    command: () => (s.runner === undefined ? missing('exec guards are observed without a command runner') : Probes.commands(s.runner)),
    host: () => (s.readHost === undefined ? missing('host files are read outside planning') : Probes.hostFiles(s.readHost, s.seen)),
    libral: () => (s.libral === undefined ? missing('libral resources are observed without a libral session') : LibralProbes.family(s.libral.session, s.libral.target)),
    service: () => ServiceProbes.family(s.services ?? once(() => Systemctl.make())),
    holo: () => Holo.requests(s.machine.root, s.holo),
    package: () => PackageProbes.family(s.packages ?? once(() => PackageSelect.make({ root: s.machine.root }))),
  }
  return lazily(table)
}

/** A table whose entries are made on first use, once. */
const lazily = <A>(table: Readonly<Record<string, () => A>>): ((name: string) => A | undefined) =>
  memo((name) => (Object.prototype.hasOwnProperty.call(table, name) ? table[name]!() : undefined))

/** The interpreters an apply has: its request families and its step families, opened for one plan. */
export interface Opened {
  readonly requests: Families
  /** The interpreter of a step family (`file`, `exec`, `libral`): undefined for one this plait lacks. */
  readonly steps: (family: string) => StepFamily | undefined
  /**
   * Says that a step of `family` is about to run (or join a batch): what the families share for the
   * run (the Holo host) is made again on its next use when a step of another family may have changed it.
   */
  readonly stepping: (family: string) => void
  /** Ends what the families share for the run (closes the Holo host, releasing Holo's run lock); called once, when the run is over. */
  readonly end: () => Promise<void>
  /** The run's service and package managers (each made on first use, once): its health checks ask the same ones. */
  readonly services: () => ServiceManager
  readonly packages: () => PackageManager
}

/** What opening an apply's interpreters may be given (tests give doubles). */
export interface ApplyServices {
  /** Runs exec commands and guards (default: real processes, with cwd below the machine's root). */
  readonly runner?: Runner
  /** Makes the session that runs the plan's libral providers (default: a quiet one with PLAIT_ROOT_DIR set to a non-"/" root). */
  readonly libral?: () => Promise<Session>
  /** The service manager of service steps and queries (default: systemctl). */
  readonly services?: ServiceManager
  /** The package manager of package steps and queries (default: apt or dnf by suitability below the machine's root). */
  readonly packages?: PackageManager
  /** The Holo host of holo steps and queries (default: the real one on the machine's root), and `--force`. */
  readonly holo?: Holo.HoloServices
}

/**
 * Opens the interpreters a plan needs: its libral providers are loaded again from the paths the
 * plan recorded and checked against their digests (a changed one is refused); the command runner
 * is made on the first command. Nothing is loaded for a family the plan does not use.
 */
export const open = async (machine: Machine, plan: Plan.Plan, services: ApplyServices): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Opened>> => {
  let runner: Runner | undefined = services.runner
  const runnerOf = async (): Promise<Runner> => (runner ??= (await import('./commands/posix.js')).make({ root: machine.root }))
  const providers = plan.inputs.providers ?? []
  let runtime: Runtime | undefined
  if (providers.length > 0) {
    // Loaded here, not at start-up: the libral interpreter and its process runtime, which a file-only run never needs.
    const session = services.libral !== undefined ? await services.libral() : (await import('./libral/Session.js')).make(machine.root === '/' ? {} : { root: machine.root })
    const opened = await (await import('./libral/Runtime.js')).open(session, providers)
    if (E.isLeft(opened)) return opened
    runtime = opened.right
  }
  const libralRuntime = (): Runtime => {
    if (runtime === undefined) throw new Error('invariant: a libral step of a plan without providers')
    return runtime
  }
  const serviceManager = once(() => services.services ?? Systemctl.make())
  const packageManager = once(() => services.packages ?? PackageSelect.make({ root: machine.root }))
  // One Holo host for the apply's holo requests and steps, opened on first use (shared.ts).
  const holoHost = Holo.shared(machine.root, services.holo)
  const holo: Holo.HoloServices = { ...services.holo, open: holoHost.open }
  const requestFamilies = requests({
    machine,
    runner: runnerOf,
    services: serviceManager,
    packages: packageManager,
    holo,
    ...(runtime !== undefined ? { libral: { session: async () => runtime!.session, target: (q: string) => runtime!.target(q) } } : {}),
  })
  const table: Record<string, () => StepFamily> = {
    file: () => FileSteps.family(machine),
    exec: () => CommandSteps.family(runnerOf),
    libral: () => LibralSteps.family(libralRuntime),
    service: () => ServiceSteps.family(serviceManager),
    package: () => PackageSteps.family(packageManager),
    holo: () => Holo.steps(machine.root, holo),
  }
  return E.right({
    requests: requestFamilies,
    steps: lazily(table),
    stepping: (family) => {
      if (family !== 'holo') holoHost.stale()
    },
    end: holoHost.end,
    services: serviceManager,
    packages: packageManager,
  })
}
