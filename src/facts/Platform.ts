// Platform: the operating system's name, family and version from /etc release files, and the
// virtualization in use, decided as gopsutil decides them for CCM's `host.info` facts.
//
// Pure: the caller reads the files (below the machine root) and passes their contents in.

// model

export interface Platform {
  /** `ubuntu`, `debian`, `rocky`, `alpine`, ... (gopsutil's `platform`). */
  readonly platform: string
  /** `debian`, `rhel`, `fedora`, `suse`, `alpine`, `arch`, ... or "" when unknown. */
  readonly family: string
  readonly version: string
}

/** The files below /etc that decide the platform, in the order gopsutil consults them (os-release last). */
export const releaseFiles = [
  'lsb-release',
  'oracle-release',
  'enterprise-release',
  'slackware-version',
  'debian_version',
  'neokylin-release',
  'redhat-release',
  'system-release',
  'gentoo-release',
  'SuSE-release',
  'arch-release',
  'alpine-release',
  'os-release',
] as const

/** The name of one release file below /etc. */
export type ReleaseFile = (typeof releaseFiles)[number]

/** The release files' contents by name; a file absent or empty is left out (gopsutil ignores empty ones). */
export type ReleaseContents = Readonly<Partial<Record<ReleaseFile, string>>>

// constructors

// gopsutil's ReadLines: split on "\n", no final empty line.
const lines = (text: string): string[] => {
  const ls = text.split('\n')
  if (ls[ls.length - 1] === '') ls.pop()
  return ls
}

const trimQuotes = (s: string): string => (s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s)

/** The fields of /etc/lsb-release (DISTRIB_ID and friends), quotes removed. */
export const lsbRelease = (text: string | undefined): { readonly id: string; readonly release: string } => {
  let id = ''
  let release = ''
  for (const line of lines(text ?? '')) {
    const fields = line.split('=')
    if (fields.length < 2) continue
    const value = fields[1]!.replaceAll('"', '')
    if (fields[0] === 'DISTRIB_ID') id = value
    if (fields[0] === 'DISTRIB_RELEASE') release = value
  }
  return { id, release }
}

/** ID and VERSION_ID of /etc/os-release (`amzn` read as `amazon`). */
export const osRelease = (text: string | undefined): { readonly id: string; readonly versionId: string } => {
  let id = ''
  let versionId = ''
  for (const line of lines(text ?? '')) {
    const eq = line.indexOf('=')
    if (eq < 0) continue
    const key = line.slice(0, eq)
    const value = trimQuotes(line.slice(eq + 1))
    if (key === 'ID') id = value
    if (key === 'VERSION_ID') versionId = value
  }
  return { id: id === 'amzn' ? 'amazon' : id, versionId }
}

const redhatishVersion = (ls: ReadonlyArray<string>): string => {
  const c = ls.join('').toLowerCase()
  if (c.includes('rawhide')) return 'rawhide'
  return /release (\w[\d.]*)/.exec(c)?.[1] ?? ''
}

const redhatishPlatform = (ls: ReadonlyArray<string>): string => {
  const c = ls.join('').toLowerCase()
  return c.includes('red hat') ? 'redhat' : c.split(' ')[0]!
}

const suseVersion = (ls: ReadonlyArray<string>): string => {
  let version = ''
  for (const l of ls) {
    const v = /VERSION = ([\d.]+)/.exec(l)
    const p = /PATCHLEVEL = (\d+)/.exec(l)
    if (v !== null) version = v[1]!
    else if (p !== null) version = `${version}.${p[1]}`
  }
  return version
}

const families: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ['debian', ['debian', 'ubuntu', 'linuxmint', 'raspbian', 'Kylin', 'cumuluslinux', 'uos', 'Deepin']],
  ['fedora', ['fedora']],
  ['rhel', ['oracle', 'centos', 'redhat', 'scientific', 'enterpriseenterprise', 'amazon', 'xenserver', 'cloudlinux', 'ibm_powerkvm', 'rocky', 'almalinux']],
  ['suse', ['suse', 'opensuse', 'opensuse-leap', 'opensuse-tumbleweed', 'opensuse-tumbleweed-kubic', 'sles', 'sled', 'caasp']],
  ['gentoo', ['gentoo']],
  ['slackware', ['slackware']],
  ['arch', ['arch']],
  ['exherbo', ['exherbo']],
  ['alpine', ['alpine']],
  ['coreos', ['coreos']],
  ['solus', ['solus']],
  ['neokylin', ['neokylin']],
  ['anolis', ['anolis']],
]

/** The family of a platform name, "" when gopsutil knows none. */
export const familyOf = (platform: string): string => families.find(([, ps]) => ps.includes(platform))?.[0] ?? ''

/**
 * Decides platform, family and version from the release files, as gopsutil does: the first
 * distribution-specific file present wins, /etc/os-release (ID, VERSION_ID) comes last, then
 * /etc/lsb-release alone. `raspiConfig` tells whether /usr/bin/raspi-config exists (Raspbian).
 */
export const detect = (files: ReleaseContents, raspiConfig = false): Platform => {
  const has = (f: ReleaseFile): boolean => files[f] !== undefined && files[f] !== ''
  const ls = (f: ReleaseFile): string[] => lines(files[f] ?? '')
  const lsb = lsbRelease(files['lsb-release'])
  let platform = ''
  let version = ''
  if (has('oracle-release') || has('enterprise-release')) {
    platform = 'oracle'
    version = redhatishVersion(ls(has('oracle-release') ? 'oracle-release' : 'enterprise-release'))
  } else if (has('slackware-version')) {
    platform = 'slackware'
    version = ls('slackware-version').join('').toLowerCase().replace('slackware ', '')
  } else if (has('debian_version')) {
    const byLsb: Readonly<Record<string, string>> = { Ubuntu: 'ubuntu', LinuxMint: 'linuxmint', Kylin: 'Kylin', uos: 'uos', Deepin: 'Deepin' }
    if (byLsb[lsb.id] !== undefined) {
      platform = byLsb[lsb.id]!
      version = lsb.release
    } else {
      platform = raspiConfig ? 'raspbian' : 'debian'
      version = ls('debian_version')[0] ?? ''
    }
  } else if (has('neokylin-release') || has('redhat-release') || has('system-release')) {
    const f: ReleaseFile = has('neokylin-release') ? 'neokylin-release' : has('redhat-release') ? 'redhat-release' : 'system-release'
    version = redhatishVersion(ls(f))
    platform = redhatishPlatform(ls(f))
  } else if (has('gentoo-release')) {
    platform = 'gentoo'
    version = redhatishVersion(ls('gentoo-release'))
  } else if (has('SuSE-release')) {
    version = suseVersion(ls('SuSE-release'))
    platform = ls('SuSE-release').join('').toLowerCase().includes('opensuse') ? 'opensuse' : 'suse'
  } else if (has('arch-release')) {
    platform = 'arch'
    version = lsb.release
  } else if (has('alpine-release')) {
    platform = 'alpine'
    version = ls('alpine-release')[0] ?? ''
  } else if (has('os-release')) {
    const os = osRelease(files['os-release'])
    platform = os.id
    version = os.versionId
  } else if (lsb.id !== '') {
    const known: Readonly<Record<string, string>> = { RedHat: 'redhat', Amazon: 'amazon', ScientificSL: 'scientific', XenServer: 'xenserver' }
    platform = known[lsb.id] ?? lsb.id.toLowerCase()
    version = lsb.release
  }
  platform = platform.replace(/^"+|"+$/g, '')
  return { platform, family: familyOf(platform), version }
}

/** What the virtualization checks read: file contents (undefined when absent) and existence. */
export interface VirtualizationEvidence {
  /** /proc/xen exists, and /proc/xen/capabilities' content. */
  readonly xen: boolean
  readonly xenCapabilities?: string
  readonly modules?: string
  readonly cpuinfo?: string
  /** /proc/bc/0 and /proc/vz exist (OpenVZ host, guest). */
  readonly openvzHost: boolean
  readonly openvzGuest: boolean
  readonly selfStatus?: string
  readonly selfCgroup?: string
  /** os-release's ID, and whether /.dockerenv exists. */
  readonly osId: string
  readonly dockerenv: boolean
}

const hasLine = (text: string | undefined, needle: string): boolean => text !== undefined && lines(text).some((l) => l.includes(needle))

/** gopsutil's virtualization system and role (`kvm`/`host`, `docker`/`guest`, ...), "" when none is seen. */
export const virtualization = (ev: VirtualizationEvidence): { readonly system: string; readonly role: string } => {
  let system = ''
  let role = ''
  if (ev.xen) {
    system = 'xen'
    role = hasLine(ev.xenCapabilities, 'control_d') ? 'host' : 'guest'
  }
  if (ev.modules !== undefined) {
    if (hasLine(ev.modules, 'kvm')) [system, role] = ['kvm', 'host']
    else if (hasLine(ev.modules, 'vboxdrv')) [system, role] = ['vbox', 'host']
    else if (hasLine(ev.modules, 'vboxguest')) [system, role] = ['vbox', 'guest']
    else if (hasLine(ev.modules, 'vmware')) [system, role] = ['vmware', 'guest']
  }
  if (['QEMU Virtual CPU', 'Common KVM processor', 'Common 32-bit KVM processor'].some((s) => hasLine(ev.cpuinfo, s))) [system, role] = ['kvm', 'guest']
  if (ev.openvzHost) [system, role] = ['openvz', 'host']
  else if (ev.openvzGuest) [system, role] = ['openvz', 'guest']
  if (hasLine(ev.selfStatus, 's_context:') || hasLine(ev.selfStatus, 'VxID:')) system = 'linux-vserver'
  if (hasLine(ev.selfCgroup, 'lxc')) [system, role] = ['lxc', 'guest']
  else if (hasLine(ev.selfCgroup, 'docker')) [system, role] = ['docker', 'guest']
  else if (hasLine(ev.selfCgroup, 'machine-rkt')) [system, role] = ['rkt', 'guest']
  if (ev.osId === 'coreos') [system, role] = ['rkt', 'host']
  if (ev.dockerenv) [system, role] = ['docker', 'guest']
  return { system, role }
}

/** gopsutil's hostId from /etc/machine-id (32 hex digits, dashed as a UUID) or the boot id; "" when neither. */
export const hostId = (productUuid: string | undefined, machineId: string | undefined, bootId: string | undefined): string => {
  const first = (t: string | undefined): string => lines(t ?? '')[0] ?? ''
  if (first(productUuid) !== '') return first(productUuid).toLowerCase()
  const m = first(machineId)
  if (m.length === 32) return `${m.slice(0, 8)}-${m.slice(8, 12)}-${m.slice(12, 16)}-${m.slice(16, 20)}-${m.slice(20)}`
  return first(bootId).toLowerCase()
}
