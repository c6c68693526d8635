// Proc: pure parsers of the Linux /proc files behind CCM's memory, cpu, partition and host facts,
// producing gopsutil's field names and units (bytes, MHz).
import * as E from 'fp-ts/lib/Either.js'

// model

export type Fields = Readonly<Record<string, unknown>>

// memory

const kib = (fields: ReadonlyMap<string, number>, key: string): number => (fields.get(key) ?? 0) * 1024

/** The `Key: value kB` lines of /proc/meminfo, in kB (HugePages_* are counts). */
export const meminfoFields = (text: string): ReadonlyMap<string, number> => {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    const parts = line.split(':')
    if (parts.length !== 2) continue
    const value = parts[1]!.trim().replace(/ kB$/, '')
    if (/^[0-9]+$/.test(value)) out.set(parts[0]!.trim(), Number(value))
  }
  return out
}

/** gopsutil's VirtualMemoryStat (`memory.virtual`) from /proc/meminfo; Left when it has no MemTotal. */
export const virtualMemory = (meminfo: string): E.Either<string, Fields> => {
  const f = meminfoFields(meminfo)
  if (!f.has('MemTotal')) return E.left('/proc/meminfo has no MemTotal line')
  const total = kib(f, 'MemTotal')
  const free = kib(f, 'MemFree')
  const buffers = kib(f, 'Buffers')
  const sreclaimable = kib(f, 'SReclaimable')
  const cached = kib(f, 'Cached') + sreclaimable
  const available = f.has('MemAvailable') ? kib(f, 'MemAvailable') : cached + free
  const used = Math.max(0, total - free - buffers - cached)
  return E.right({
    total,
    available,
    used,
    usedPercent: total === 0 ? 0 : (used / total) * 100,
    free,
    active: kib(f, 'Active'),
    inactive: kib(f, 'Inactive'),
    wired: 0,
    laundry: 0,
    buffers,
    cached,
    writeBack: kib(f, 'Writeback'),
    dirty: kib(f, 'Dirty'),
    writeBackTmp: kib(f, 'WritebackTmp'),
    shared: kib(f, 'Shmem'),
    slab: kib(f, 'Slab'),
    sreclaimable,
    sunreclaim: kib(f, 'SUnreclaim'),
    pageTables: kib(f, 'PageTables'),
    swapCached: kib(f, 'SwapCached'),
    commitLimit: kib(f, 'CommitLimit'),
    committedAS: kib(f, 'Committed_AS'),
    highTotal: kib(f, 'HighTotal'),
    highFree: kib(f, 'HighFree'),
    lowTotal: kib(f, 'LowTotal'),
    lowFree: kib(f, 'LowFree'),
    swapTotal: kib(f, 'SwapTotal'),
    swapFree: kib(f, 'SwapFree'),
    mapped: kib(f, 'Mapped'),
    vmallocTotal: kib(f, 'VmallocTotal'),
    vmallocUsed: kib(f, 'VmallocUsed'),
    vmallocChunk: kib(f, 'VmallocChunk'),
    hugePagesTotal: f.get('HugePages_Total') ?? 0,
    hugePagesFree: f.get('HugePages_Free') ?? 0,
    hugePagesRsvd: f.get('HugePages_Rsvd') ?? 0,
    hugePagesSurp: f.get('HugePages_Surp') ?? 0,
    hugePageSize: kib(f, 'Hugepagesize'),
    anonHugePages: kib(f, 'AnonHugePages'),
  })
}

/** gopsutil's SwapMemoryStat (`memory.swap.info`) from /proc/meminfo and /proc/vmstat (page counts × 4 KiB). */
export const swapMemory = (meminfo: string, vmstat: string): Fields => {
  const f = meminfoFields(meminfo)
  const total = kib(f, 'SwapTotal')
  const free = kib(f, 'SwapFree')
  const used = Math.max(0, total - free)
  const v = new Map<string, number>()
  for (const line of vmstat.split('\n')) {
    const [k, n] = line.trim().split(/\s+/)
    if (k !== undefined && n !== undefined && /^[0-9]+$/.test(n)) v.set(k, Number(n) * 4 * 1024)
  }
  return {
    total,
    used,
    free,
    usedPercent: total === 0 ? 0 : (used / total) * 100,
    sin: v.get('pswpin') ?? 0,
    sout: v.get('pswpout') ?? 0,
    pgIn: v.get('pgpgin') ?? 0,
    pgOut: v.get('pgpgout') ?? 0,
    pgFault: v.get('pgfault') ?? 0,
    pgMajFault: v.get('pgmajfault') ?? 0,
  }
}

/** gopsutil's swap devices (`memory.swap.devices`) from /proc/swaps. */
export const swapDevices = (swaps: string): ReadonlyArray<Fields> => {
  const out: Fields[] = []
  for (const line of swaps.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f.length < 5 || !/^[0-9]+$/.test(f[2]!) || !/^[0-9]+$/.test(f[3]!)) continue
    const size = Number(f[2]) * 1024
    const used = Number(f[3]) * 1024
    out.push({ name: f[0]!.replace(/\\040/g, ' '), usedBytes: used, freeBytes: size - used })
  }
  return out
}

// cpu

/**
 * gopsutil's cpu.InfoStat list (`cpu.info`) from /proc/cpuinfo, one per logical processor.
 * `maxFreqKHz(n)` gives /sys/devices/system/cpu/cpuN/cpufreq/cpuinfo_max_freq when readable:
 * gopsutil reports that maximum as `mhz` rather than the current clock.
 */
export const cpuInfo = (
  cpuinfo: string,
  maxFreqKHz: (cpu: number) => number | undefined = () => undefined,
  coreId: (cpu: number) => string | undefined = () => undefined,
): ReadonlyArray<Fields> => {
  const out: Fields[] = []
  let processorName = ''
  let c: Record<string, unknown> | undefined
  const finish = (): void => {
    if (c === undefined) return
    const n = c['cpu'] as number
    if (c['coreId'] === '') c['coreId'] = coreId(n) ?? ''
    const max = maxFreqKHz(n)
    if (max !== undefined) c['mhz'] = max / 1000 > 9999 ? max / 1e6 : max / 1000
    out.push(c)
  }
  for (const line of cpuinfo.split('\n')) {
    const fields = line.split(':')
    if (fields.length < 2) continue
    const key = fields[0]!.trim()
    const value = fields[1]!.trim()
    if (key === 'Processor') {
      processorName = value
      continue
    }
    if (key === 'processor' || key === 'cpu number') {
      finish()
      c = { cpu: /^[0-9]+$/.test(value) ? Number(value) : out.length, vendorId: '', family: '', model: '', stepping: 0, physicalId: '', coreId: '', cores: 1, modelName: processorName, mhz: 0, cacheSize: 0, flags: [], microcode: '' }
      continue
    }
    if (c === undefined) continue
    switch (key) {
      case 'vendor_id':
      case 'vendorId':
        c['vendorId'] = value
        break
      case 'cpu family':
        c['family'] = value
        break
      case 'model':
      case 'CPU part':
        c['model'] = value
        break
      case 'model name':
      case 'Model Name':
      case 'cpu':
        c['modelName'] = value
        if (value.includes('POWER')) {
          c['model'] = value.split(' ')[0]
          c['family'] = 'POWER'
          c['vendorId'] = 'IBM'
        }
        break
      case 'stepping':
      case 'revision':
      case 'CPU revision': {
        const v = key === 'revision' ? value.split('.')[0]! : value
        if (/^-?[0-9]+$/.test(v)) c['stepping'] = Number(v)
        break
      }
      case 'cpu MHz':
      case 'clock':
      case 'cpu MHz dynamic': {
        const mhz = Number(value.replace('MHz', ''))
        if (value !== '' && Number.isFinite(mhz)) c['mhz'] = mhz
        break
      }
      case 'cache size': {
        const v = value.replace(' KB', '')
        if (/^[0-9]+$/.test(v)) c['cacheSize'] = Number(v)
        break
      }
      case 'physical id':
        c['physicalId'] = value
        break
      case 'core id':
        c['coreId'] = value
        break
      case 'flags':
      case 'Features':
        c['flags'] = value.split(/[ ,]/).filter((x) => x !== '')
        break
      case 'microcode':
        c['microcode'] = value
        break
    }
  }
  finish()
  return out
}

// host

/** Seconds since boot, from /proc/uptime (the whole part of its first field). */
export const uptime = (text: string): number | undefined => {
  const first = text.trim().split(/\s+/)[0]
  return first !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(first) ? Math.floor(Number(first)) : undefined
}

/** The boot time (seconds since the epoch) from the `btime` line of /proc/stat. */
export const bootTime = (stat: string): number | undefined => {
  const line = stat.split('\n').find((l) => l.startsWith('btime'))
  const f = line?.trim().split(/\s+/)
  return f !== undefined && f.length === 2 && /^[0-9]+$/.test(f[1]!) ? Number(f[1]) : undefined
}

// partitions

/** The filesystem types of /proc/filesystems that live on devices (no `nodev` mark), as gopsutil keeps. */
export const deviceFilesystems = (text: string): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    if (!line.startsWith('nodev')) out.add(line.trim())
    else if (line.trim().split(/\s+/)[1] === 'zfs') out.add('zfs')
  }
  return out
}

const unescapeMount = (s: string): string => s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))

/** gopsutil's PartitionStat list (`partition.partitions`) from /proc/self/mountinfo, physical filesystems only. */
export const partitions = (mountinfo: string, filesystems: ReadonlySet<string>): ReadonlyArray<Fields> => {
  const out: Fields[] = []
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ')
    const dash = f.indexOf('-')
    if (f.length < 10 || dash < 6 || dash + 3 > f.length) continue
    const mountpoint = unescapeMount(f[4]!)
    const opts = f[5]!.split(',')
    const fstype = f[dash + 1]!
    const device = unescapeMount(f[dash + 2]!)
    if (device === 'none' || !filesystems.has(fstype)) continue
    out.push({ device, mountpoint, fstype, opts })
  }
  return out
}

/** gopsutil's UsageStat (`partition.usage`) from statfs numbers. */
export const usage = (path: string, fstype: string, s: { readonly bsize: number; readonly blocks: number; readonly bfree: number; readonly bavail: number; readonly files: number; readonly ffree: number }): Fields => {
  const total = s.blocks * s.bsize
  const free = s.bavail * s.bsize
  const used = (s.blocks - s.bfree) * s.bsize
  const inodesUsed = s.files - s.ffree
  return {
    path,
    fstype,
    total,
    free,
    used,
    usedPercent: used + free === 0 ? 0 : (used / (used + free)) * 100,
    inodesTotal: s.files,
    inodesUsed,
    inodesFree: s.ffree,
    inodesUsedPercent: s.files === 0 ? 0 : (inodesUsed / s.files) * 100,
  }
}

// routes

/** The interface of the IPv4 default route in /proc/net/route (lowest metric), or "". */
export const defaultRoute4 = (text: string): string => {
  let best: { iface: string; metric: number } | undefined
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/)
    if (f.length < 8) continue
    const flags = parseInt(f[3]!, 16)
    if (f[1] !== '00000000' || f[7] !== '00000000' || (flags & 1) === 0) continue
    const metric = Number(f[6])
    if (best === undefined || metric < best.metric) best = { iface: f[0]!, metric }
  }
  return best?.iface ?? ''
}

/** The interface of the IPv6 default route in /proc/net/ipv6_route (lowest metric, not a reject route), or "". */
export const defaultRoute6 = (text: string): string => {
  let best: { iface: string; metric: number } | undefined
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f.length < 10) continue
    const flags = parseInt(f[8]!, 16)
    if (!/^0{32}$/.test(f[0]!) || f[1] !== '00' || (flags & 1) === 0 || (flags & 0x200) !== 0 || f[9] === 'lo') continue
    const metric = parseInt(f[5]!, 16)
    if (best === undefined || metric < best.metric) best = { iface: f[9]!, metric }
  }
  return best?.iface ?? ''
}
