// memory: an in-memory machine with the semantics and faults of posix, for offline property tests
// and fault injection (fail or crash at the Nth mutation, paths where mutations are denied).
//
// The tree lives in Tree.ts and the primitives' semantics in primitives.ts; this module wires them
// into a Machine, arms the injected faults and keeps a fake process table (pids and start times).
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import * as Fault from '../../core/Fault.js'
import * as AccountsTable from '../Accounts.js'
import * as Errno from '../Errno.js'
import type { Attrs, Machine, Probe } from '../Machine.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Snapshot from '../Snapshot.js'
import * as Primitives from './primitives.js'
import * as Tree from './Tree.js'

export type { Snapshot } from '../Snapshot.js'

// model

export interface Options {
  /** The Nth mutating call (counting from 1) fails with this tag (default Failed) and has no effect. */
  readonly failAt?: { readonly mutation: number; readonly tag?: Fault.Tag }
  /**
   * The Nth mutating call crashes the process: writeFileAtomic leaves its temp file behind without
   * renaming it, any other call has no effect; from then on every call returns a Crashed fault.
   */
  readonly crashAt?: number
  /** Paths at or below which every mutation fails with PermissionDenied. */
  readonly denied?: ReadonlyArray<string>
  /** User and group databases; default: the snapshot's. */
  readonly users?: Readonly<Record<string, number>>
  readonly groups?: Readonly<Record<string, number>>
  /** This process's pid (default 4242) and start time (default "1000"). */
  readonly pid?: number
  readonly start?: string
  /** Other running processes: pid → start time (for stale-lock tests). */
  readonly processes?: ReadonlyMap<number, string> | Readonly<Record<number, string>>
}

/** The memory machine: a Machine plus snapshots, a mutation counter and a restart. */
export interface MemoryMachine extends Machine {
  /** An immutable, comparable copy of the whole tree and the accounts. */
  readonly snapshot: () => Snapshot.Snapshot
  /** How many mutating calls this instance has received (failed ones included). */
  readonly mutations: number
  /** Whether an injected crash has killed this instance. */
  readonly crashed: boolean
  /** A new live machine over the current tree (a restarted process): new pid, no faults armed. */
  readonly revive: () => MemoryMachine
}

// constructors

const defaultPid = 4242
const defaultStart = '1000'

/** A memory machine holding `initial` (default: only "/" and the default accounts). */
export const make = (initial: Snapshot.Snapshot = Snapshot.empty, options: Options = {}): MemoryMachine => {
  const pid = options.pid ?? defaultPid
  const processes = new Map<number, string>(
    options.processes instanceof Map ? options.processes : Object.entries(options.processes ?? {}).map(([k, v]) => [Number(k), v as string]),
  )
  processes.set(pid, options.start ?? defaultStart)
  return machine(Tree.fromSnapshot(initial), options.users ?? initial.users, options.groups ?? initial.groups, pid, processes, options)
}

/** A memory machine from a snapshot (the same as make). */
export const fromSnapshot = (snapshot: Snapshot.Snapshot, options: Options = {}): MemoryMachine => make(snapshot, options)

const machine = (
  tree: Tree.Tree,
  users: Readonly<Record<string, number>>,
  groups: Readonly<Record<string, number>>,
  pid: number,
  processes: Map<number, string>,
  options: Options,
): MemoryMachine => {
  let mutations = 0
  let crashed = false
  const accounts = AccountsTable.fromRecords(users, groups)

  const crash = (op: string, subject: string): Fault.Fault => Fault.make('Crashed', 'memory', op, subject, 'the process crashed (injected)')
  const toFault = (op: string, subject: string) => (f: Errno.Failure) => Errno.toFault('memory', op, subject, f)
  const invalid = (op: string, paths: ReadonlyArray<string>): Fault.Fault | undefined => {
    for (const p of paths) {
      const why = PosixPath.problem(p)
      if (why !== undefined) return Errno.escape('memory', op, p, why)
    }
    return undefined
  }

  /** An observation: Crashed once dead, Escape for a bad path, else the primitive's result. */
  const observe =
    <A>(op: string, path: string, body: () => E.Either<Errno.Failure, A>): TE.TaskEither<Fault.Fault, A> =>
    async () => {
      if (crashed) return E.left(crash(op, path))
      const bad = invalid(op, [path])
      if (bad !== undefined) return E.left(bad)
      return E.mapLeft(toFault(op, path))(body())
    }

  /**
   * A mutation: counted, then crash or failure injection, path checks (and `check`), denial of the
   * paths it writes (`writes`, default all of `paths`), and the primitive. The subject is paths[0].
   */
  const mutate =
    <A>(
      op: string,
      paths: ReadonlyArray<string>,
      body: () => E.Either<Errno.Failure, A>,
      more: { readonly writes?: ReadonlyArray<string>; readonly check?: () => Fault.Fault | undefined; readonly onCrash?: () => void } = {},
    ): TE.TaskEither<Fault.Fault, A> =>
    async () => {
      const subject = String(paths[0])
      if (crashed) return E.left(crash(op, subject))
      mutations += 1
      const bad = () => invalid(op, paths) ?? more.check?.()
      if (options.crashAt === mutations) {
        if (bad() === undefined) more.onCrash?.()
        crashed = true
        return E.left(crash(op, subject))
      }
      if (options.failAt?.mutation === mutations) {
        return E.left(Fault.make(options.failAt.tag ?? 'Failed', 'memory', op, subject, `injected failure at mutation ${mutations}`))
      }
      const refused = bad()
      if (refused !== undefined) return E.left(refused)
      const denied = (more.writes ?? paths).find((p) => (options.denied ?? []).some((d) => PosixPath.isWithin(d, p)))
      if (denied !== undefined) return E.left(Fault.make('PermissionDenied', 'memory', op, subject, `permission denied (injected) at ${denied}`))
      return E.mapLeft(toFault(op, subject))(body())
    }

  const writeFileAtomic = (path: string, data: Uint8Array, attrs: Attrs, tempName: string) => {
    const bytes = data.slice()
    return mutate(
      'writeFileAtomic',
      [path],
      () => E.chain(({ temp, target }: { temp: string; target: string }) => Primitives.commitTemp(tree, temp, target))(Primitives.writeTemp(tree, path, bytes, attrs, tempName)),
      {
        check: () => (PosixPath.isName(tempName) ? undefined : Errno.badName('memory', 'writeFileAtomic', path, tempName)),
        onCrash: () => void Primitives.writeTemp(tree, path, bytes, attrs, tempName),
      },
    )
  }

  const tempChecked = (path: string, tempName: string) => () => (PosixPath.isName(tempName) ? undefined : Errno.badName('memory', 'writeFileAtomic', path, tempName))
  const writeTemp = (path: string, data: Uint8Array, attrs: Attrs, tempName: string) => {
    const bytes = data.slice()
    return mutate('writeFileAtomic', [path], () => E.map(() => undefined)(Primitives.writeTemp(tree, path, bytes, attrs, tempName)), { check: tempChecked(path, tempName) })
  }

  const self: MemoryMachine = {
    name: 'memory',
    root: '/',
    probe: (path, probeOptions) => observe('probe', path, () => Primitives.probe(tree, path, probeOptions)),
    probeAll: (requests) => async () => {
      const out: E.Either<Fault.Fault, Probe>[] = []
      for (const r of requests) out.push(await self.probe(r.path, r.options)())
      return out
    },
    accounts: () => async () => (crashed ? E.left(crash('accounts', '/etc/passwd')) : E.right(accounts)),
    readFile: (path) => observe('readFile', path, () => Primitives.readFile(tree, path)),
    readdir: (path) => observe('readdir', path, () => Primitives.readdir(tree, path)),
    writeFileAtomic,
    writeTemp,
    renameTemp: (path, tempName) => mutate('writeFileAtomic', [path], () => Primitives.renameTemp(tree, path, tempName), { check: tempChecked(path, tempName) }),
    // counted as a mutation, so that injected crashes and failures can land on it
    syncDirectory: (path) => mutate('syncDirectory', [path], () => Primitives.syncDirectory(tree, path)),
    mkdirp: (path, attrs) => mutate('mkdirp', [path], () => Primitives.mkdirp(tree, path, attrs)),
    setAttrs: (path, attrs) => mutate('setAttrs', [path], () => Primitives.setAttrs(tree, path, attrs)),
    remove: (path, removeOptions) => mutate('remove', [path], () => Primitives.remove(tree, path, removeOptions.recursive)),
    rename: (from, to) => mutate('rename', [from, to], () => Primitives.rename(tree, from, to)),
    copy: (from, to) => mutate('copy', [from, to], () => Primitives.copy(tree, from, to), { writes: [to] }),
    createExclusive: (path, data) => mutate('createExclusive', [path], () => Primitives.createExclusive(tree, path, data)),
    // unsynced or not, an append is kept: a crash here is a process crash (the page cache survives)
    append: (path, data) => mutate('append', [path], () => Primitives.append(tree, path, data)),
    // every operation reaches its path afresh in the tree: nothing to keep
    hold: () => () => undefined,
    pid: () => pid,
    processStart: (other) => async () => (crashed ? E.left(crash('processStart', String(other))) : E.right(processes.get(other) ?? null)),
    snapshot: () => Tree.toSnapshot(tree, users, groups),
    get mutations() {
      return mutations
    },
    get crashed() {
      return crashed
    },
    revive: () => {
      const table = new Map(processes)
      const start = table.get(pid) ?? defaultStart
      table.delete(pid)
      const next = Math.max(pid, ...table.keys()) + 1
      table.set(next, String(Number(start) + 1))
      return machine(Tree.clone(tree), users, groups, next, table, {})
    },
  }
  return Object.freeze(self)
}
