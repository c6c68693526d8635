// The service and package side of the laws' worlds: generated units and packages for the memory
// managers (systemd's and apt's doubles: systemd is not PID 1 here, and the laws must not install
// real packages), service and package resources that a catalog mixes with its files, and the
// pipeline over a memory machine with both managers.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog, Links } from '../../src/compiler/Catalog.js'
import * as Planner from '../../src/compiler/plan.js'
import type * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Families from '../../src/interpreters/families.js'
import type { Machine } from '../../src/interpreters/Machine.js'
import * as Runner from '../../src/interpreters/memory/runner.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as Packages from '../../src/interpreters/packages/memory.js'
import * as Services from '../../src/interpreters/services/memory.js'
import { observeWith } from '../../src/observe/observe.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type { ExecSpec } from '../../src/types/exec/Spec.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import type { PackageSpec } from '../../src/types/package/Spec.js'
import type { ServiceSpec } from '../../src/types/service/Spec.js'
import { hostFiles } from '../support/run.js'

export const unitNames = ['web', 'db'] as const
export const packageNames = ['hello', 'zsh'] as const
const versions = ['1.0-1', '1.0-2', '2.0-1'] as const

/** What the managers hold before a run: units by name, packages by name. */
export interface Systems {
  readonly units: Readonly<Record<string, Services.MemoryUnit>>
  readonly packages: Readonly<Record<string, Packages.MemoryPackage>>
}

// A unit is mostly present and well behaved; sometimes its start fails (a failure the laws then
// examine), sometimes it is missing (which a start cannot fix, so the resource fails too), and
// sometimes it is static (which `disable` leaves as it is, so enable: false fails verification).
const unitArb: fc.Arbitrary<Services.MemoryUnit | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 15,
    arbitrary: fc.record({
      active: fc.constantFrom('active', 'inactive', 'failed'),
      unitFile: fc.constantFrom('enabled', 'disabled', 'enabled', 'disabled', 'static'),
      behaviour: fc.constantFrom('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'fails'),
    }),
  },
)

// A package is installed at some version or not; the repositories offer one to three versions
// (often all of them; sometimes none, so that an install cannot find it).
const packageArb: fc.Arbitrary<Packages.MemoryPackage | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 15,
    arbitrary: fc.record({
      installed: fc.option(fc.constantFrom(...versions), { nil: undefined }),
      available: fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 3, arbitrary: fc.subarray([...versions], { minLength: 1, maxLength: 3 }) },
        { weight: 4, arbitrary: fc.constant([...versions]) },
      ),
    }).map(({ installed, available }) => (installed === undefined ? { available } : { installed, available })),
  },
)

const byName = <A>(names: ReadonlyArray<string>, arb: fc.Arbitrary<A | undefined>): fc.Arbitrary<Readonly<Record<string, A>>> =>
  fc.tuple(...names.map(() => arb)).map((xs) => Object.fromEntries(names.flatMap((n, i) => (xs[i] === undefined ? [] : [[n, xs[i]!] as const]))))

export const systemsArb: fc.Arbitrary<Systems> = fc.record({ units: byName(unitNames, unitArb), packages: byName(packageNames, packageArb) })

const at = { file: 'm.yaml', line: 1, col: 1 }

/** A service resource, and the file (if any) among `files` it subscribes to. */
const serviceArb = (name: string, files: ReadonlyArray<string>): fc.Arbitrary<{ spec: ServiceSpec; subscribe: ReadonlyArray<string> }> =>
  fc
    .record({
      ensure: fc.constantFrom('running', 'running', 'stopped') as fc.Arbitrary<ServiceSpec['ensure']>,
      enable: fc.constantFrom(true, false, undefined),
      subscribe: files.length === 0 ? fc.constant([]) : fc.subarray([...files], { maxLength: 1 }),
    })
    .map(({ ensure, enable, subscribe }) => ({
      spec: { _tag: 'service' as const, id: `service#${name}`, name, at, ensure, ...(enable !== undefined ? { enable } : {}), provider: 'systemd' as const },
      subscribe,
    }))

// The provider is named or left to the machine (the memory manager answers as the one named, apt
// for none), so plans carry dnf steps too; these versions are in the same order for apt and dnf.
const packageSpecArb = (name: string): fc.Arbitrary<PackageSpec> =>
  fc
    .record({ ensure: fc.constantFrom('present', 'absent', 'latest', ...versions), provider: fc.constantFrom('apt', 'dnf', 'auto') as fc.Arbitrary<PackageSpec['provider']> })
    .map(({ ensure, provider }) => ({ _tag: 'package' as const, id: `package#${name}`, name, at, ensure, provider }))

// Each exec resource owns one path of its own (no file resource manages it, and no other exec): two
// resources that undo each other's work could never converge, which is the manifest's fault, not
// plait's. The memory runner (src/interpreters/memory/runner.ts) gives its commands their effects.
export const execPaths = ['/x1', '/x2'] as const

/** What an exec path holds before a run: mostly nothing or an empty file, sometimes other content. */
export const execNodeArb: fc.Arbitrary<Snapshot.Node | undefined> = fc.constantFrom(undefined, undefined, Snapshot.file(''), Snapshot.file('other\n'))

/** The kinds of exec resource the worlds hold (see execArb). */
export const execVariants = ['creates', 'unless', 'onlyif', 'write', 'returns', 'refresh', 'fails'] as const

/**
 * An exec resource on its path, and the file (if any) among `files` it subscribes to. Each variant
 * converges once its command ran (the guard then holds) except `fails`, whose command always fails
 * while its `creates` path is absent, and `returns` with returns [0], which fails the same way:
 *   creates: touch P, creates P            unless: touch P, unless test -e P
 *   onlyif:  rm P, onlyif test -e P        write:  write P TEXT, creates P
 *   returns: mark P 2 (touch, exit 2), creates P, returns [0, 2] or [0]
 *   refresh: touch P, refreshonly, subscribing to a file (runs only when that file changes)
 *   fails:   false, creates P
 * Any of them but `onlyif` may also subscribe to a file: a refresh runs the command whatever its
 * guards say, and these commands are idempotent (a second run changes nothing and exits as the
 * first did). `rm` is not (it exits 1 once its path is gone), so a refreshed `rm` would fail in a
 * rerun after recovery where the first run succeeded: the manifest's fault, not plait's.
 */
const execArb = (path: string, files: ReadonlyArray<string>): fc.Arbitrary<{ spec: ExecSpec; subscribe: ReadonlyArray<string> }> =>
  fc
    .record({
      // Failing commands are rarer, so that most worlds still apply whole.
      variant: fc.constantFrom('creates', 'creates', 'unless', 'unless', 'onlyif', 'onlyif', 'write', 'write', 'returns', 'refresh', 'refresh', 'fails') as fc.Arbitrary<(typeof execVariants)[number]>,
      returns: fc.constantFrom([0, 2], [0, 2], [0, 2], [0]),
      subscribe: files.length === 0 ? fc.constant([]) : fc.subarray([...files], { maxLength: 1 }),
    })
    .map(({ variant, returns, subscribe }) => {
      const name = `run${path.replaceAll('/', '-')}`
      const base = { _tag: 'exec' as const, id: `exec#${name}`, name, at, provider: 'posix' as const, environment: [], returns: [0], timeoutMs: 60_000, refreshOnly: false, logoutput: false }
      const refresh = variant === 'refresh' && subscribe.length > 0
      const spec: ExecSpec =
        variant === 'unless'
          ? { ...base, command: `touch ${path}`, unless: `test -e ${path}` }
          : variant === 'onlyif'
            ? { ...base, command: `rm ${path}`, onlyif: `test -e ${path}` }
            : variant === 'write'
              ? { ...base, command: `write ${path} hello`, creates: path }
              : variant === 'returns'
                ? { ...base, command: `mark ${path} 2`, creates: path, returns }
                : variant === 'fails'
                  ? { ...base, command: 'false', creates: path }
                  : refresh
                    ? { ...base, command: `touch ${path}`, refreshOnly: true }
                    : { ...base, command: `touch ${path}`, creates: path }
      return { spec, subscribe: variant === 'onlyif' ? [] : subscribe }
    })

/** A catalog of these files, then some of the services (each maybe subscribing to one of the files), then some of the packages, then some exec resources (the same). */
export const mixedCatalogArb = (files: ReadonlyArray<FileSpec>): fc.Arbitrary<Catalog> =>
  fc
    .tuple(
      fc.subarray([...unitNames]).chain((ns) => fc.tuple(...ns.map((n) => serviceArb(n, files.map((f) => f.id))))),
      fc.subarray([...packageNames]).chain((ns) => fc.tuple(...ns.map(packageSpecArb))),
      fc.subarray([...execPaths]).chain((ps) => fc.tuple(...ps.map((p) => execArb(p, files.map((f) => f.id))))),
    )
    .map(([services, packages, execs]) => {
      const links = new Map<string, Links>([...services, ...execs].filter((s) => s.subscribe.length > 0).map((s) => [s.spec.id, { require: [], subscribe: s.subscribe, healthChecks: [] }]))
      return {
        manifest: { file: 'm.yaml', sha256: '0'.repeat(64) },
        reads: [],
        files: [],
        links,
        warnings: [],
        failOnError: false,
        resources: [...files, ...services.map((s) => s.spec), ...packages, ...execs.map((x) => x.spec)],
      }
    })

/**
 * The managers of one run, made afresh from the world's systems (each run's are its own), and the
 * log of the commands run: a run's runner acts on the machine it is given (runnerOn), so commands
 * after a crash reach the revived machine, and the log outlives both.
 */
export interface Managers {
  readonly services: Services.MemoryManager
  readonly packages: Packages.MemoryManager
  readonly commandLog: string[]
}

export const managers = (s: Systems): Managers => ({ services: Services.make(s.units), packages: Packages.make(s.packages), commandLog: [] })

/** The command runner of these managers on a machine (logging into the managers' log). */
export const runnerOn = (ms: Managers, machine: Machine): Runner.MemoryRunner => Runner.make(machine, ms.commandLog)

/** The commands run that are not guards (queries never change anything). */
export const commands = (ms: Managers): ReadonlyArray<string> => ms.commandLog.filter((c) => !Runner.queries.has(c.slice(0, c.indexOf(' ') < 0 ? c.length : c.indexOf(' '))))

/** What the managers hold now, to compare with another run's. */
export const state = (ms: Managers): Systems => ({ units: ms.services.units(), packages: ms.packages.packages() })

/** The calls that act on one unit or package (not the status queries, nor systemd's reload of its unit files). */
export const actions = (ms: Managers): ReadonlyArray<string> => [
  ...ms.services.calls().filter((c) => !c.startsWith('show ') && c !== 'daemon-reload'),
  ...ms.packages.calls().filter((c) => !c.startsWith('status ')),
  ...commands(ms),
]

/** A plan of the catalog against the machine and the managers, or the diagnostics that refused it. */
export const planE = async (catalog: Catalog, machine: Machine, ms: Managers): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Plan.Plan>> => {
  const accounts = await machine.accounts()()
  if (E.isLeft(accounts)) throw new Error('the memory machine has no user database')
  const hosts = new Map<string, string>()
  const families = Families.requests({ machine, readHost: hostFiles({}), seen: (p, sha) => hosts.set(p, sha), services: () => ms.services, packages: () => ms.packages, runner: async () => runnerOn(ms, machine) })
  const obs = await observeWith(catalog, families, accounts.right, hosts)
  if (E.isLeft(obs)) return obs
  return E.map(PlanFile.seal)(Planner.plan(catalog, obs.right, { version: 'test', root: machine.root }))
}

/** The kind of a resource id (`service`, `package`, `file`). */
export const kindOf = (id: string): string => id.slice(0, id.indexOf('#'))

/**
 * The systems with one resource's state changed behind the plan's back: a unit's running state
 * flips (`content`, `mode`) or the unit appears or goes (`delete`, `create`); a package's installed
 * version moves (`content`, `mode`) or it is installed or removed (`delete`, `create`).
 */
export const drift = (s: Systems, id: string, how: 'content' | 'mode' | 'delete' | 'create'): Systems => {
  const name = id.slice(id.indexOf('#') + 1)
  const flip = how === 'content' || how === 'mode'
  if (kindOf(id) === 'service') {
    const { [name]: u, ...rest } = s.units
    if (u === undefined) return { ...s, units: { ...rest, [name]: { active: 'active', unitFile: 'enabled' } } }
    return { ...s, units: flip ? { ...rest, [name]: { ...u, active: u.active === 'active' ? 'inactive' : 'active' } } : rest }
  }
  const p = s.packages[name] ?? { available: [] }
  const other = versions.find((v) => v !== p.installed)!
  const next: Packages.MemoryPackage = p.installed !== undefined && !flip ? { available: p.available } : { ...p, installed: other }
  return { ...s, packages: { ...s.packages, [name]: next } }
}

/** Every call that is not a status query (a daemon-reload included) and every command that is not a guard: none, for a run that must change nothing. */
export const told = (ms: Managers): ReadonlyArray<string> => [...ms.services.calls().filter((c) => !c.startsWith('show ')), ...ms.packages.calls().filter((c) => !c.startsWith('status ')), ...commands(ms)]
