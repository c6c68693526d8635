import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Proc from '../../src/facts/Proc.js'

const meminfo = `MemTotal:       16314388 kB
MemFree:         1210712 kB
MemAvailable:   11048892 kB
Buffers:          512060 kB
Cached:          9004052 kB
SwapCached:         1024 kB
Active:          6004004 kB
Inactive:        7309488 kB
Shmem:            402332 kB
Slab:             820240 kB
SReclaimable:     612280 kB
SUnreclaim:       207960 kB
PageTables:        53424 kB
CommitLimit:    10254348 kB
Committed_AS:   12934268 kB
SwapTotal:       2097148 kB
SwapFree:        2000000 kB
Dirty:               532 kB
Writeback:             0 kB
Mapped:           801232 kB
VmallocTotal:   34359738367 kB
HugePages_Total:       0
HugePages_Free:        0
Hugepagesize:       2048 kB
AnonHugePages:     20480 kB
`

const cpuinfo = `processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 142
model name\t: Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz
stepping\t: 10
microcode\t: 0xf4
cpu MHz\t\t: 2111.998
cache size\t: 8192 KB
physical id\t: 0
core id\t\t: 0
flags\t\t: fpu vme de pse
bogomips\t: 4224.00

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 142
model name\t: Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz
stepping\t: 10
cpu MHz\t\t: 800.000
cache size\t: 8192 KB
physical id\t: 0
flags\t\t: fpu vme
`

describe('virtualMemory', () => {
  it('computes gopsutil\'s fields in bytes', () => {
    const v = Proc.virtualMemory(meminfo)
    if (E.isLeft(v)) throw new Error(v.left)
    const k = 1024
    expect(v.right).toMatchObject({
      total: 16314388 * k,
      free: 1210712 * k,
      available: 11048892 * k,
      buffers: 512060 * k,
      cached: (9004052 + 612280) * k,
      used: (16314388 - 1210712 - 512060 - 9004052 - 612280) * k,
      shared: 402332 * k,
      swapTotal: 2097148 * k,
      hugePagesTotal: 0,
      hugePageSize: 2048 * k,
      vmallocTotal: 34359738367 * k,
      wired: 0,
    })
    expect(v.right['usedPercent'] as number).toBeCloseTo(((16314388 - 1210712 - 512060 - 9004052 - 612280) / 16314388) * 100, 6)
  })

  it('estimates available memory without MemAvailable (old kernels), and refuses a file without MemTotal', () => {
    const v = Proc.virtualMemory('MemTotal: 100 kB\nMemFree: 10 kB\nCached: 20 kB\n')
    expect(E.isRight(v) && v.right['available']).toBe(30 * 1024)
    expect(Proc.virtualMemory('garbage\n')).toEqual(E.left('/proc/meminfo has no MemTotal line'))
  })
})

describe('swap', () => {
  it('reads totals from meminfo and page counts from vmstat', () => {
    expect(Proc.swapMemory(meminfo, 'nr_free_pages 1\npgpgin 10\npgpgout 20\npswpin 3\npswpout 4\npgfault 100\npgmajfault 5\n')).toEqual({
      total: 2097148 * 1024,
      used: 97148 * 1024,
      free: 2000000 * 1024,
      usedPercent: (97148 / 2097148) * 100,
      sin: 3 * 4096,
      sout: 4 * 4096,
      pgIn: 10 * 4096,
      pgOut: 20 * 4096,
      pgFault: 100 * 4096,
      pgMajFault: 5 * 4096,
    })
  })

  it('lists swap devices', () => {
    expect(Proc.swapDevices('Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/swap\\040file   file\t\t2097148\t\t97148\t\t-2\n')).toEqual([{ name: '/swap file', usedBytes: 97148 * 1024, freeBytes: 2000000 * 1024 }])
    expect(Proc.swapDevices('Filename Type Size Used Priority\n')).toEqual([])
  })
})

describe('cpuInfo', () => {
  it('gives one entry per logical processor in gopsutil\'s shape, preferring the maximum frequency', () => {
    const info = Proc.cpuInfo(cpuinfo, (n) => (n === 0 ? 4200000 : undefined), (n) => (n === 1 ? '1' : undefined))
    expect(info).toEqual([
      { cpu: 0, vendorId: 'GenuineIntel', family: '6', model: '142', stepping: 10, physicalId: '0', coreId: '0', cores: 1, modelName: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', mhz: 4200, cacheSize: 8192, flags: ['fpu', 'vme', 'de', 'pse'], microcode: '0xf4' },
      { cpu: 1, vendorId: 'GenuineIntel', family: '6', model: '142', stepping: 10, physicalId: '0', coreId: '1', cores: 1, modelName: 'Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz', mhz: 800, cacheSize: 8192, flags: ['fpu', 'vme'], microcode: '' },
    ])
  })

  it('reads ARM and POWER layouts', () => {
    const arm = Proc.cpuInfo('processor\t: 0\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\nCPU revision\t: 3\n')
    expect(arm[0]).toMatchObject({ cpu: 0, model: '0xd08', stepping: 3, flags: ['fp', 'asimd', 'evtstrm'] })
    const power = Proc.cpuInfo('processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\nclock\t\t: 2200.000000MHz\nrevision\t: 2.2 (pvr 004e 1202)\n')
    expect(power[0]).toMatchObject({ modelName: 'POWER9 (architected), altivec supported', model: 'POWER9', family: 'POWER', vendorId: 'IBM', mhz: 2200, stepping: 2 })
    expect(Proc.cpuInfo('')).toEqual([])
  })
})

describe('host files', () => {
  it('reads uptime and boot time', () => {
    expect(Proc.uptime('3376.52 6602.34\n')).toBe(3376)
    expect(Proc.uptime('x')).toBeUndefined()
    expect(Proc.bootTime('cpu  1 2 3\nbtime 1700000000\nprocesses 5\n')).toBe(1700000000)
    expect(Proc.bootTime('cpu 1\n')).toBeUndefined()
  })
})

describe('partitions and usage', () => {
  const mountinfo = [
    '22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro',
    '23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw',
    '24 22 252:2 / /srv/my\\040data rw,noatime - xfs /dev/vdb rw',
    '25 22 0:50 / /mnt/none rw - ext4 none rw',
    '26 22 0:40 / /run rw,nosuid - tmpfs tmpfs rw,size=1g',
  ].join('\n')
  const fs = Proc.deviceFilesystems('nodev\tsysfs\nnodev\ttmpfs\nnodev\tproc\n\text3\n\text4\n\txfs\nnodev\tzfs\n')

  it('keeps physical filesystems, as gopsutil does without "all"', () => {
    expect([...fs]).toEqual(['ext3', 'ext4', 'xfs', 'zfs'])
    expect(Proc.partitions(mountinfo, fs)).toEqual([
      { device: '/dev/vda1', mountpoint: '/', fstype: 'ext4', opts: ['rw', 'relatime'] },
      { device: '/dev/vdb', mountpoint: '/srv/my data', fstype: 'xfs', opts: ['rw', 'noatime'] },
    ])
  })

  it('computes usage from statfs numbers', () => {
    expect(Proc.usage('/', 'ext4', { bsize: 4096, blocks: 100, bfree: 40, bavail: 30, files: 10, ffree: 4 })).toEqual({
      path: '/',
      fstype: 'ext4',
      total: 409600,
      free: 122880,
      used: 245760,
      usedPercent: (245760 / (245760 + 122880)) * 100,
      inodesTotal: 10,
      inodesUsed: 6,
      inodesFree: 4,
      inodesUsedPercent: 60,
    })
  })
})

describe('default routes', () => {
  it('finds the IPv4 default route with the lowest metric', () => {
    const route = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth1\t00000000\t0100A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\neth0\t00000000\t0102000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\neth0\t0000000A\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0\n'
    expect(Proc.defaultRoute4(route)).toBe('eth0')
    expect(Proc.defaultRoute4('Iface\tDestination\n')).toBe('')
  })

  it('finds the IPv6 default route, ignoring reject routes on lo', () => {
    const route6 = [
      '00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo',
      'fd000000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0',
      '00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000001 00000000 00000003     eth0',
    ].join('\n')
    expect(Proc.defaultRoute6(route6)).toBe('eth0')
    expect(Proc.defaultRoute6(route6.split('\n')[0]!)).toBe('')
  })
})
