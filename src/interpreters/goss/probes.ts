// probes: what goss's rules look at, observed: files through the Machine (so --root confines
// them), users and groups from the root's /etc/passwd and /etc/group, commands through the
// Runner, packages and services through their managers' status queries, processes and ports from
// the host's /proc, http and addr over the network. Every probe is bounded in time and size.
import * as fs from 'node:fs/promises'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Net from '../../goss/Net.js'
import type { Observed } from '../../goss/Outcome.js'
import * as Passwd from '../../goss/Passwd.js'
import type { Json } from '../../goss/Matcher.js'
import * as Kinds from '../../goss/Kinds.js'
import type { Rule } from '../../goss/Rules.js'
import * as ServiceStatus from '../../types/service/Status.js'
import type { Machine } from '../Machine.js'
import type { Manager as PackageManager, Observed as PackageObserved } from '../packages/Manager.js'
import type { Runner } from '../Runner.js'
import type { Manager as ServiceManager, Unit as ServiceUnit } from '../services/Manager.js'
import * as Http from './http.js'
import * as Append from '../../core/Append.js'

/** What the probes use; the managers are made only when a rule needs one. */
export interface Context {
  readonly machine: Machine
  readonly runner: Runner
  readonly packages: () => PackageManager
  readonly services: () => ServiceManager
  /** The host's proc filesystem (processes and ports are the host's, whatever the root). */
  readonly proc: string
  /** The machine's users and groups, read once for a try of a check (run.ts); absent, each rule reads them. */
  readonly accounts?: () => Promise<E.Either<string, Passwd.Accounts>>
  /** The names of the host's processes, read once for a try (run.ts); absent, each rule reads them. */
  readonly processes?: () => Promise<E.Either<string, ReadonlySet<string>>>
  /** A socket table's listeners by port, read once for a try (run.ts); absent, each rule reads it. */
  readonly listeners?: (proto: Net.Proto) => Promise<ReadonlyMap<number, ReadonlyArray<Net.Listener>>>
  /** A package's state, asked with every package rule of a try at once (run.ts); absent, each rule asks. */
  readonly packageStatus?: Batched<PackageObserved>
  /** A service's state, asked with every service rule of a try at once (run.ts); absent, each rule asks. */
  readonly serviceStatus?: Batched<ServiceUnit>
}

/** What a batch said of one name (undefined: the manager gave no answer for it). */
export type Batched<A> = (name: string) => Promise<E.Either<Fault.Fault, A | undefined>>

/**
 * One manager's answer for one name, asked once for all `names` (a package or service manager
 * runs its processes once for a batch: a rule each took a dpkg-query and an apt-cache each). A
 * batch the manager cannot answer as a whole (one name it refuses fails them all) is split in
 * halves, each asked again and split again while it fails, down to the names that fail alone: each
 * rule fails or passes on its own, as it would alone, and one bad name among 500 costs some 18
 * batches instead of 500 (a name asked alone each was 59 s).
 */
export const batched = <A>(names: ReadonlyArray<string>, ask: (names: ReadonlyArray<string>) => Promise<E.Either<Fault.Fault, ReadonlyArray<A>>>): Batched<A> => {
  const distinct = [...new Set(names)]
  type Answer = E.Either<Fault.Fault, A | undefined>
  const answers = new Map<string, Answer>()
  const settle = async (group: ReadonlyArray<string>): Promise<void> => {
    const got = await ask(group)
    if (E.isRight(got)) group.forEach((n, i) => answers.set(n, E.right(got.right[i])))
    else if (group.length === 1) answers.set(group[0]!, got)
    else {
      const half = Math.ceil(group.length / 2)
      await settle(group.slice(0, half))
      await settle(group.slice(half))
    }
  }
  let all: Promise<void> | undefined
  return async (name) => {
    all ??= settle(distinct)
    await all
    return answers.get(name) ?? E.map((xs: ReadonlyArray<A>) => xs[0])(await ask([name]))
  }
}

/** The most bytes of a file's content a `contents` check reads. */
export const maxContentBytes = 1_048_576
/** The most processes a `process` rule reads the names of. */
export const maxProcesses = 65_536

const observed = (values: Readonly<Record<string, Json | undefined>>): Observed => ({ _tag: 'Observed', values })
const failed = (reason: string): Observed => ({ _tag: 'Failed', reason })
const wants = (rule: Rule, attribute: string): boolean => rule.checks.some((c) => c.attribute === attribute)
const timeoutOf = (rule: Rule): number => (typeof rule.options['timeout'] === 'number' ? rule.options['timeout'] : Kinds.defaultTimeoutMs(rule.kind))

const file = async (rule: Rule, c: Context): Promise<Observed> => {
  const content = wants(rule, 'contents')
  const p = await c.machine.probe(rule.name, content ? { contentUnless: '-', contentLimit: maxContentBytes } : {})()
  if (E.isLeft(p)) return failed(Fault.render(p.left))
  if (p.right._tag === 'Absent') return observed({ exists: false })
  const entry = p.right._tag === 'File' ? p.right.probe.entry : p.right.entry
  const accounts = wants(rule, 'owner') || wants(rule, 'group') ? await c.machine.accounts()() : undefined
  if (accounts !== undefined && E.isLeft(accounts)) return failed(Fault.render(accounts.left))
  const names = accounts !== undefined && E.isRight(accounts) ? accounts.right : undefined
  const bytes = p.right._tag === 'File' ? p.right.probe.content : undefined
  if (content && p.right._tag === 'File' && bytes === undefined) return failed(`it is larger than ${maxContentBytes} bytes, the most a contents check reads`)
  return observed({
    exists: true,
    mode: `0${entry.mode.toString(8).padStart(3, '0')}`,
    owner: names?.userNames.get(entry.uid) ?? String(entry.uid),
    group: names?.groupNames.get(entry.gid) ?? String(entry.gid),
    filetype: entry.kind,
    size: entry.size,
    sha256: p.right._tag === 'File' ? p.right.probe.sha256 : undefined,
    contents: bytes !== undefined ? Buffer.from(bytes).toString('utf8') : undefined,
  })
}

/** The users and groups of a machine's /etc/passwd and /etc/group, indexed. */
export const readAccounts = async (machine: Machine): Promise<E.Either<string, Passwd.Accounts>> => {
  const [u, g] = await Promise.all([machine.readFile('/etc/passwd')(), machine.readFile('/etc/group')()])
  if (E.isLeft(u)) return E.left(Fault.render(u.left))
  if (E.isLeft(g)) return E.left(Fault.render(g.left))
  return E.right(Passwd.index(Passwd.users(Buffer.from(u.right).toString('utf8')), Passwd.groups(Buffer.from(g.right).toString('utf8'))))
}

const accounts = (c: Context): Promise<E.Either<string, Passwd.Accounts>> => (c.accounts !== undefined ? c.accounts() : readAccounts(c.machine))

const user = async (rule: Rule, c: Context): Promise<Observed> => {
  const a = await accounts(c)
  if (E.isLeft(a)) return failed(a.left)
  const u = a.right.user(rule.name)
  return u === undefined ? observed({ exists: false }) : observed({ exists: true, uid: u.uid, gid: u.gid, home: u.home, shell: u.shell, groups: a.right.groupsOf(u) })
}

const group = async (rule: Rule, c: Context): Promise<Observed> => {
  const a = await accounts(c)
  if (E.isLeft(a)) return failed(a.left)
  const g = a.right.group(rule.name)
  return g === undefined ? observed({ exists: false }) : observed({ exists: true, gid: g.gid })
}

const command = async (rule: Rule, c: Context): Promise<Observed> => {
  const line = typeof rule.options['exec'] === 'string' ? rule.options['exec'] : rule.name
  const r = await c.runner.run({ argv: ['/bin/sh', '-c', line], environment: [], timeoutMs: timeoutOf(rule) })
  if (E.isLeft(r)) return failed(Fault.render(r.left))
  return observed({ 'exit-status': r.right.exitCode ?? null, stdout: r.right.stdout, stderr: r.right.stderr })
}

const packageRule = async (rule: Rule, c: Context): Promise<Observed> => {
  const r = await (c.packageStatus ?? batched([rule.name], (ns) => c.packages().status(ns)))(rule.name)
  if (E.isLeft(r)) return failed(Fault.render(r.left))
  const i = r.right?.installed
  return i === undefined || i._tag === 'NotInstalled' ? observed({ installed: false, versions: [] }) : observed({ installed: true, versions: [i.version] })
}

const service = async (rule: Rule, c: Context): Promise<Observed> => {
  const r = await (c.serviceStatus ?? batched([rule.name], (ns) => c.services().status(ns)))(rule.name)
  if (E.isLeft(r)) return failed(Fault.render(r.left))
  const unit = r.right
  if (unit === undefined) return failed('the service manager did not answer for it')
  const s = ServiceStatus.of(unit)
  return E.isLeft(s) ? failed(s.left) : observed({ running: s.right.running, enabled: s.right.enabled ?? false })
}

/** The names (`comm`) of the processes of a proc filesystem, at most maxProcesses of them. */
export const readProcesses = async (proc: string): Promise<E.Either<string, ReadonlySet<string>>> => {
  let pids: string[]
  try {
    pids = (await fs.readdir(proc)).filter((d) => /^\d+$/.test(d)).slice(0, maxProcesses)
  } catch (e) {
    return E.left(`cannot read ${proc}: ${e instanceof Error ? e.message : String(e)}`)
  }
  const names = new Set<string>()
  for (const pid of pids) names.add((await fs.readFile(path.join(proc, pid, 'comm'), 'utf8').catch(() => '')).replace(/\n$/, ''))
  return E.right(names)
}

const processRule = async (rule: Rule, c: Context): Promise<Observed> => {
  const names = await (c.processes !== undefined ? c.processes() : readProcesses(c.proc))
  return E.isLeft(names) ? failed(names.left) : observed({ running: names.right.has(rule.name) })
}

/** The listeners of one socket table of a proc filesystem (`net/tcp`, …), by port, in the table's order. */
export const readListeners = async (proc: string, proto: Net.Proto): Promise<ReadonlyMap<number, ReadonlyArray<Net.Listener>>> => {
  const text = await fs.readFile(path.join(proc, 'net', proto), 'utf8').catch(() => '')
  const byPort = new Map<number, Net.Listener[]>()
  for (const l of Net.listeners(proto, text)) {
    const same = byPort.get(l.port)
    if (same === undefined) byPort.set(l.port, [l])
    else same.push(l)
  }
  return byPort
}

const port = async (rule: Rule, c: Context): Promise<Observed> => {
  const name = Net.portName(rule.name)
  if (name === undefined) return failed('a port is named like tcp:22, tcp6:22, udp:53 or 22')
  const found: Net.Listener[] = []
  for (const proto of name.protos) Append.append(found, (await (c.listeners !== undefined ? c.listeners(proto) : readListeners(c.proc, proto))).get(name.port) ?? [])
  return observed({ listening: found.length > 0, ip: [...new Set(found.map((l) => l.ip))] })
}

const httpRule = async (rule: Rule): Promise<Observed> => {
  const r = await Http.get(rule.name, { timeoutMs: timeoutOf(rule), allowInsecure: rule.options['allow-insecure'] === true, followRedirects: rule.options['no-follow-redirects'] !== true })
  return typeof r === 'string' ? failed(r) : observed({ status: r.status, headers: r.headers, body: r.body })
}

const addr = async (rule: Rule): Promise<Observed> => {
  const name = Net.addrName(rule.name)
  if (name === undefined) return failed('an address is named like tcp://host:port')
  if (name.proto === 'udp') return failed('plait checks tcp addresses only (udp has no connection to open)')
  return observed({ reachable: await Http.reachable(name.host, name.port, timeoutOf(rule)) })
}

/** Observes one rule's resource. */
export const probe = (rule: Rule, c: Context): Promise<Observed> => {
  switch (rule.kind) {
    case 'file':
      return file(rule, c)
    case 'user':
      return user(rule, c)
    case 'group':
      return group(rule, c)
    case 'command':
      return command(rule, c)
    case 'package':
      return packageRule(rule, c)
    case 'service':
      return service(rule, c)
    case 'process':
      return processRule(rule, c)
    case 'port':
      return port(rule, c)
    case 'http':
      return httpRule(rule)
    case 'addr':
      return addr(rule)
    default:
      return Promise.resolve(failed(`unknown kind ${rule.kind}`))
  }
}
