// facts (posix): gathers a machine's facts. The operating system's release files (and
// machine-id, /.dockerenv, raspi-config) are read through the Machine, so below its root with
// --root; the kernel, CPUs, memory, mounts and network come from the live host, read below
// `host.dir` (tests point it at a fake /proc and /sys). Facts files are read (factsFiles.ts) from configuration
// directories given by the caller, refusing symlinks. A system fact that cannot be read is left
// empty, as CCM leaves it; facts files and command-line facts that are wrong are errors.
import * as FactsFiles from './factsFiles.js'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as HostFile from './hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as Facts from '../../facts/Facts.js'
import * as Network from '../../facts/Network.js'
import * as Platform from '../../facts/Platform.js'
import * as Proc from '../../facts/Proc.js'
import type { Machine } from '../Machine.js'
import * as Append from '../../core/Append.js'

// model

/** Filesystem numbers of one mount point (what statfs says). */
export interface StatFs {
  readonly bsize: number
  readonly blocks: number
  readonly bfree: number
  readonly bavail: number
  readonly files: number
  readonly ffree: number
}

/** The live host: where its /proc and /sys are, and what its kernel says. */
export interface Host {
  /** The directory holding proc/ and sys/ ("/" for the real ones). */
  readonly dir: string
  readonly hostname: () => string
  /** The kernel release, as `uname -r` prints it. */
  readonly release: () => string
  /** The machine architecture, as `uname -m` prints it. */
  readonly arch: () => string
  /** Go's runtime.GOOS name of the operating system (`linux`). */
  readonly os: () => string
  /** Each interface's addresses in CIDR form. */
  readonly addresses: () => ReadonlyMap<string, ReadonlyArray<string>>
  readonly statfs: (path: string) => Promise<StatFs | undefined>
}

/** How long one statfs may take before its usage is left out (a hung network mount). */
export const statfsTimeoutMs = 2000

const liveStatfs = async (path: string): Promise<StatFs | undefined> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), statfsTimeoutMs)
  })
  try {
    const statfs = new Promise<StatFs | undefined>((resolve) =>
      fs.statfs(path, (e, s) => resolve(e === null ? { bsize: s.bsize, blocks: s.blocks, bfree: s.bfree, bavail: s.bavail, files: s.files, ffree: s.ffree } : undefined)),
    )
    return await Promise.race([statfs, timeout])
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

/** This host. */
export const liveHost: Host = Object.freeze({
  dir: '/',
  hostname: () => os.hostname(),
  release: () => os.release(),
  arch: () => os.machine(),
  os: () => (process.platform === 'win32' ? 'windows' : process.platform),
  addresses: () => {
    const out = new Map<string, string[]>()
    for (const [name, list] of Object.entries(os.networkInterfaces())) {
      for (const a of list ?? []) if (a.cidr !== null) out.set(name, [...(out.get(name) ?? []), a.cidr])
    }
    return out
  },
  statfs: liveStatfs,
})

// reading

const utf8 = new TextDecoder('utf-8')

/**
 * Reads a machine file, following symlinks inside the machine (as a chroot would); undefined when
 * unreadable. A regular file is read at once (readFile never follows a symlink); only a path it
 * cannot read is probed, to find a symlink's target, so no file is hashed for a fact (a probe of a
 * file hashes it, and would load node:crypto into every plan that reads facts).
 */
export const readMachineFile = async (machine: Machine, path: string, hops = 16): Promise<string | undefined> => {
  let p = path
  for (let i = 0; i <= hops; i++) {
    const bytes = await machine.readFile(p)()
    if (E.isRight(bytes)) return utf8.decode(bytes.right)
    const probe = await machine.probe(p)()
    if (E.isLeft(probe) || probe.right._tag !== 'Symlink') return undefined
    const target = probe.right.target
    p = machinePath(target.startsWith('/') ? target : `${p.slice(0, p.lastIndexOf('/'))}/${target}`)
  }
  return undefined
}

/** Whether anything is at a machine path (read, or probed when it is not a regular file: nothing is hashed). */
const machineHas = async (machine: Machine, path: string): Promise<boolean> => {
  if (E.isRight(await machine.readFile(path)())) return true
  const probe = await machine.probe(path)()
  return E.isRight(probe) && probe.right._tag !== 'Absent'
}

// A clean machine path from any absolute path ("." and ".." resolved, ".." stopping at "/").
const machinePath = (p: string): string => {
  const out: string[] = []
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue
    if (s === '..') out.pop()
    else out.push(s)
  }
  return '/' + out.join('/')
}

const readHostFile = async (host: Host, path: string): Promise<string | undefined> => {
  try {
    return HostFile.readText(nodePath.join(host.dir, path))
  } catch {
    return undefined
  }
}

// node:fs's callbacks, not node:fs/promises: that module (and the readline and stream modules it
// loads) costs some 3 ms of the start of every plan that reads facts.
const hostExists = (host: Host, path: string): Promise<boolean> => new Promise((resolve) => fs.stat(nodePath.join(host.dir, path), (e) => resolve(e === null)))

const hostNames = (host: Host, path: string): Promise<ReadonlyArray<string>> => new Promise((resolve) => fs.readdir(nodePath.join(host.dir, path), (e, names) => resolve(e === null ? names : [])))

const firstLine = (t: string | undefined): string | undefined => t?.split('\n')[0]?.trim()

const numberIn = (t: string | undefined): number | undefined => {
  const s = firstLine(t)
  return s !== undefined && /^-?[0-9]+$/.test(s) ? Number(s) : undefined
}

// system facts

const hostInfo = async (machine: Machine, host: Host): Promise<Facts.Facts> => {
  const release: Record<string, string> = {}
  await Promise.all(
    Platform.releaseFiles.map(async (f) => {
      const t = await readMachineFile(machine, `/etc/${f}`)
      if (t !== undefined && t !== '') release[f] = t
    }),
  )
  const raspi = await readMachineFile(machine, '/usr/bin/raspi-config')
  const platform = Platform.detect(release, raspi !== undefined && raspi !== '')
  const [xenCapabilities, modules, cpuinfo, selfStatus, selfCgroup, machineId, productUuid, bootId, uptime, stat] = await Promise.all([
    readHostFile(host, 'proc/xen/capabilities'),
    readHostFile(host, 'proc/modules'),
    readHostFile(host, 'proc/cpuinfo'),
    readHostFile(host, 'proc/self/status'),
    readHostFile(host, 'proc/self/cgroup'),
    readMachineFile(machine, '/etc/machine-id'),
    readHostFile(host, 'sys/class/dmi/id/product_uuid'),
    readHostFile(host, 'proc/sys/kernel/random/boot_id'),
    readHostFile(host, 'proc/uptime'),
    readHostFile(host, 'proc/stat'),
  ])
  const dockerenv = await machineHas(machine, '/.dockerenv')
  const virt = Platform.virtualization({
    xen: await hostExists(host, 'proc/xen'),
    ...(xenCapabilities !== undefined ? { xenCapabilities } : {}),
    ...(modules !== undefined ? { modules } : {}),
    ...(cpuinfo !== undefined ? { cpuinfo } : {}),
    openvzHost: await hostExists(host, 'proc/bc/0'),
    openvzGuest: await hostExists(host, 'proc/vz'),
    ...(selfStatus !== undefined ? { selfStatus } : {}),
    ...(selfCgroup !== undefined ? { selfCgroup } : {}),
    osId: Platform.osRelease(release['os-release']).id,
    dockerenv,
  })
  const procs = (await hostNames(host, 'proc')).filter((n) => /^[0-9]+$/.test(n)).length
  return {
    hostname: host.hostname(),
    uptime: uptime === undefined ? 0 : (Proc.uptime(uptime) ?? 0),
    bootTime: stat === undefined ? 0 : (Proc.bootTime(stat) ?? 0),
    procs,
    os: host.os(),
    platform: platform.platform,
    platformFamily: platform.family,
    platformVersion: platform.version,
    kernelVersion: host.release(),
    kernelArch: host.arch(),
    virtualizationSystem: virt.system,
    virtualizationRole: virt.role,
    hostId: Platform.hostId(productUuid, machineId, bootId),
  }
}

const cpuFacts = async (host: Host): Promise<Facts.Facts> => {
  const cpuinfo = await readHostFile(host, 'proc/cpuinfo')
  if (cpuinfo === undefined) return { info: [] }
  const count = (cpuinfo.match(/^processor\s*:/gm) ?? []).length + (cpuinfo.match(/^cpu number\s*:/gm) ?? []).length
  const maxFreq = new Map<number, number>()
  const coreIds = new Map<number, string>()
  await Promise.all(
    Array.from({ length: count }, async (_, n) => {
      const f = numberIn(await readHostFile(host, `sys/devices/system/cpu/cpu${n}/cpufreq/cpuinfo_max_freq`))
      if (f !== undefined) maxFreq.set(n, f)
      const c = firstLine(await readHostFile(host, `sys/devices/system/cpu/cpu${n}/topology/core_id`))
      if (c !== undefined && c !== '') coreIds.set(n, c)
    }),
  )
  return { info: Proc.cpuInfo(cpuinfo, (n) => maxFreq.get(n), (n) => coreIds.get(n)) }
}

const memoryFacts = async (host: Host): Promise<Facts.Facts> => {
  const [meminfo, vmstat, swaps] = await Promise.all([readHostFile(host, 'proc/meminfo'), readHostFile(host, 'proc/vmstat'), readHostFile(host, 'proc/swaps')])
  const virtual = meminfo === undefined ? {} : E.getOrElse((): Proc.Fields => ({}))(Proc.virtualMemory(meminfo))
  return {
    swap: { info: meminfo === undefined ? {} : Proc.swapMemory(meminfo, vmstat ?? ''), devices: swaps === undefined ? [] : Proc.swapDevices(swaps) },
    virtual,
  }
}

const partitionFacts = async (host: Host): Promise<Facts.Facts> => {
  const mountinfo = (await readHostFile(host, 'proc/1/mountinfo')) ?? (await readHostFile(host, 'proc/self/mountinfo'))
  const filesystems = await readHostFile(host, 'proc/filesystems')
  if (mountinfo === undefined || filesystems === undefined) return { partitions: [], usage: [] }
  const parts = Proc.partitions(mountinfo, Proc.deviceFilesystems(filesystems))
  const usage: Proc.Fields[] = []
  for (const p of parts) {
    const s = await host.statfs(p['mountpoint'] as string)
    if (s !== undefined) usage.push(Proc.usage(p['mountpoint'] as string, p['fstype'] as string, s))
  }
  return { partitions: parts, usage }
}

const networkFacts = async (host: Host): Promise<Facts.Facts> => {
  const names = await hostNames(host, 'sys/class/net')
  const addrs = host.addresses()
  const list: Network.Interface[] = []
  for (const name of names) {
    const base = `sys/class/net/${name}`
    const [index, mtu, address, flags] = await Promise.all([
      readHostFile(host, `${base}/ifindex`),
      readHostFile(host, `${base}/mtu`),
      readHostFile(host, `${base}/address`),
      readHostFile(host, `${base}/flags`),
    ])
    const flagWord = firstLine(flags)
    const ifindex = numberIn(index)
    if (ifindex === undefined) continue // not an interface (bonding_masters)
    list.push({
      index: ifindex,
      name,
      mtu: numberIn(mtu) ?? 0,
      hardwareAddr: Network.hardwareAddr(address ?? ''),
      flags: flagWord !== undefined && /^0x[0-9a-fA-F]+$/.test(flagWord) ? parseInt(flagWord, 16) : 0,
      addrs: addrs.get(name) ?? [],
    })
  }
  const [route4, route6] = await Promise.all([readHostFile(host, 'proc/net/route'), readHostFile(host, 'proc/net/ipv6_route')])
  const a = Network.addresses(list, Proc.defaultRoute4(route4 ?? ''), Proc.defaultRoute6(route6 ?? ''))
  return { addresses: a.addresses, interfaces: Network.interfaces(list), default_ipv6: a.default_ipv6, default_ipv4: a.default_ipv4 }
}

/** Gathers the system facts of a machine: host, network, partition, cpu and memory, by CCM's names. */
export const system = async (machine: Machine, host: Host = liveHost): Promise<Facts.Facts> => {
  const [info, network, partition, cpu, memory] = await Promise.all([hostInfo(machine, host), networkFacts(host), partitionFacts(host), cpuFacts(host), memoryFacts(host)])
  return { host: { info }, network, partition, cpu, memory }
}

// all of it

export interface Options {
  /** The machine whose release files describe the operating system (posix, confined below --root). */
  readonly machine: Machine
  readonly host?: Host
  /** Configuration directories, lowest precedence first (see FactsFiles.defaultDirs). */
  readonly dirs: ReadonlyArray<string>
  /** `--facts FILE`: another machine's facts, used instead of this machine's system facts and facts files. */
  readonly factsFile?: string
  /** `--fact k=v` assignments, in command-line order. */
  readonly assignments: ReadonlyArray<string>
}

/** The facts a manifest sees: every layer, merged in precedence order. */
export const gather = async (o: Options): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Facts.Facts>> => {
  const assignments = o.assignments.map(Facts.assignment)
  const problems: Diagnostic.Diagnostic[] = assignments.flatMap((a) => (E.isLeft(a) ? [a.left] : []))
  let layers: Facts.Layers
  if (o.factsFile !== undefined) {
    const f = await FactsFiles.factsFile(o.factsFile)
    if (E.isLeft(f)) Append.append(problems, f.left)
    layers = { system: Facts.empty, files: [], ...(E.isRight(f) ? { factsFile: f.right } : {}), assignments: [] }
  } else {
    const [sys, files] = await Promise.all([system(o.machine, o.host), FactsFiles.factsFiles(o.dirs)])
    if (E.isLeft(files)) Append.append(problems, files.left)
    layers = { system: sys, files: E.isRight(files) ? files.right : [], assignments: [] }
  }
  if (problems.length > 0) return E.left(problems)
  return E.right(Facts.assemble({ ...layers, assignments: assignments.flatMap((a) => (E.isRight(a) ? [a.right] : [])) }))
}
