import { describe, expect, it } from 'vitest'
import * as Platform from '../../src/facts/Platform.js'

const osRelease = (id: string, versionId?: string): string => `NAME="X"\nID=${id}\n${versionId !== undefined ? `VERSION_ID="${versionId}"\n` : ''}PRETTY_NAME="X"\n`

describe('detect', () => {
  const cases: ReadonlyArray<readonly [string, Platform.ReleaseContents, boolean, Platform.Platform]> = [
    ['Debian', { debian_version: '12.5\n', 'os-release': osRelease('debian', '12') }, false, { platform: 'debian', family: 'debian', version: '12.5' }],
    ['Raspbian', { debian_version: '11.7\n', 'os-release': osRelease('raspbian', '11') }, true, { platform: 'raspbian', family: 'debian', version: '11.7' }],
    ['Ubuntu', { debian_version: 'bookworm/sid\n', 'lsb-release': 'DISTRIB_ID=Ubuntu\nDISTRIB_RELEASE=22.04\nDISTRIB_CODENAME=jammy\nDISTRIB_DESCRIPTION="Ubuntu 22.04.4 LTS"\n', 'os-release': osRelease('ubuntu', '22.04') }, false, { platform: 'ubuntu', family: 'debian', version: '22.04' }],
    ['Linux Mint', { debian_version: 'bookworm/sid\n', 'lsb-release': 'DISTRIB_ID="LinuxMint"\nDISTRIB_RELEASE="21.3"\n' }, false, { platform: 'linuxmint', family: 'debian', version: '21.3' }],
    ['Rocky', { 'redhat-release': 'Rocky Linux release 9.3 (Blue Onyx)\n', 'system-release': 'Rocky Linux release 9.3 (Blue Onyx)\n', 'os-release': osRelease('"rocky"', '9.3') }, false, { platform: 'rocky', family: 'rhel', version: '9.3' }],
    ['RHEL', { 'redhat-release': 'Red Hat Enterprise Linux release 9.2 (Plow)\n' }, false, { platform: 'redhat', family: 'rhel', version: '9.2' }],
    ['Fedora', { 'redhat-release': 'Fedora release 39 (Thirty Nine)\n', 'os-release': osRelease('fedora', '39') }, false, { platform: 'fedora', family: 'fedora', version: '39' }],
    ['Fedora Rawhide', { 'redhat-release': 'Fedora release 41 (Rawhide)\n' }, false, { platform: 'fedora', family: 'fedora', version: 'rawhide' }],
    ['CentOS Stream', { 'redhat-release': 'CentOS Stream release 9\n' }, false, { platform: 'centos', family: 'rhel', version: '9' }],
    ['AlmaLinux', { 'redhat-release': 'AlmaLinux release 9.3 (Shamrock Pampas Cat)\n' }, false, { platform: 'almalinux', family: 'rhel', version: '9.3' }],
    ['Amazon Linux 2023', { 'system-release': 'Amazon Linux release 2023.3.20240108 (Amazon Linux)\n', 'os-release': osRelease('"amzn"', '2023') }, false, { platform: 'amazon', family: 'rhel', version: '2023.3.20240108' }],
    ['Oracle Linux', { 'oracle-release': 'Oracle Linux Server release 8.9\n', 'redhat-release': 'Red Hat Enterprise Linux release 8.9 (Ootpa)\n' }, false, { platform: 'oracle', family: 'rhel', version: '8.9' }],
    ['Alpine', { 'alpine-release': '3.19.1\n', 'os-release': osRelease('alpine', '3.19.1') }, false, { platform: 'alpine', family: 'alpine', version: '3.19.1' }],
    ['Arch (empty arch-release)', { 'os-release': 'NAME="Arch Linux"\nID=arch\nBUILD_ID=rolling\n' }, false, { platform: 'arch', family: 'arch', version: '' }],
    ['Arch with lsb-release', { 'arch-release': 'x\n', 'lsb-release': 'DISTRIB_ID="Arch"\nDISTRIB_RELEASE="rolling"\n' }, false, { platform: 'arch', family: 'arch', version: 'rolling' }],
    ['Gentoo', { 'gentoo-release': 'Gentoo Base System release 2.14\n' }, false, { platform: 'gentoo', family: 'gentoo', version: '2.14' }],
    ['openSUSE Leap', { 'os-release': osRelease('"opensuse-leap"', '15.5') }, false, { platform: 'opensuse-leap', family: 'suse', version: '15.5' }],
    ['old SuSE', { 'SuSE-release': 'openSUSE 13.2 (x86_64)\nVERSION = 13.2\nCODENAME = Harlequin\n' }, false, { platform: 'opensuse', family: 'suse', version: '13.2' }],
    ['old SLES', { 'SuSE-release': 'SUSE Linux Enterprise Server 11 (x86_64)\nVERSION = 11\nPATCHLEVEL = 4\n' }, false, { platform: 'suse', family: 'suse', version: '11.4' }],
    ['Slackware', { 'slackware-version': 'Slackware 15.0\n' }, false, { platform: 'slackware', family: 'slackware', version: '15.0' }],
    ['NixOS (no family)', { 'os-release': osRelease('nixos', '23.11') }, false, { platform: 'nixos', family: '', version: '23.11' }],
    ['lsb-release alone', { 'lsb-release': 'DISTRIB_ID=XenServer\nDISTRIB_RELEASE=8.2\n' }, false, { platform: 'xenserver', family: 'rhel', version: '8.2' }],
    ['nothing at all', {}, false, { platform: '', family: '', version: '' }],
  ]
  for (const [name, files, raspi, expected] of cases) {
    it(`recognizes ${name}`, () => {
      expect(Platform.detect(files, raspi)).toEqual(expected)
    })
  }

  it('ignores empty release files, as gopsutil does', () => {
    expect(Platform.detect({ debian_version: '', 'os-release': osRelease('ubuntu', '24.04') })).toEqual({ platform: 'ubuntu', family: 'debian', version: '24.04' })
  })
})

describe('osRelease and lsbRelease', () => {
  it('read the fields, quoted or not, and ignore other lines', () => {
    expect(Platform.osRelease('# comment\nID="debian"\nVERSION_ID=12\nID_LIKE=x\nbroken\n')).toEqual({ id: 'debian', versionId: '12' })
    expect(Platform.osRelease(undefined)).toEqual({ id: '', versionId: '' })
    expect(Platform.lsbRelease('DISTRIB_ID="Ubuntu"\nDISTRIB_RELEASE=22.04\n')).toEqual({ id: 'Ubuntu', release: '22.04' })
  })
})

describe('virtualization', () => {
  const none: Platform.VirtualizationEvidence = { xen: false, openvzHost: false, openvzGuest: false, osId: '', dockerenv: false }

  it('recognizes what gopsutil recognizes, later evidence winning', () => {
    expect(Platform.virtualization(none)).toEqual({ system: '', role: '' })
    expect(Platform.virtualization({ ...none, xen: true })).toEqual({ system: 'xen', role: 'guest' })
    expect(Platform.virtualization({ ...none, xen: true, xenCapabilities: 'control_d\n' })).toEqual({ system: 'xen', role: 'host' })
    expect(Platform.virtualization({ ...none, modules: 'kvm_intel 1 0 - Live\nkvm 2 1 kvm_intel, Live\n' })).toEqual({ system: 'kvm', role: 'host' })
    expect(Platform.virtualization({ ...none, modules: 'vboxguest 1 0\n' })).toEqual({ system: 'vbox', role: 'guest' })
    expect(Platform.virtualization({ ...none, cpuinfo: 'model name\t: QEMU Virtual CPU version 2.5+\n' })).toEqual({ system: 'kvm', role: 'guest' })
    expect(Platform.virtualization({ ...none, openvzGuest: true })).toEqual({ system: 'openvz', role: 'guest' })
    expect(Platform.virtualization({ ...none, selfCgroup: '0::/docker/abc\n' })).toEqual({ system: 'docker', role: 'guest' })
    expect(Platform.virtualization({ ...none, selfCgroup: '0::/lxc.payload.c1\n' })).toEqual({ system: 'lxc', role: 'guest' })
    expect(Platform.virtualization({ ...none, modules: 'kvm 1\n', dockerenv: true })).toEqual({ system: 'docker', role: 'guest' })
    expect(Platform.virtualization({ ...none, selfStatus: 'VxID: 40\n' })).toEqual({ system: 'linux-vserver', role: '' })
  })
})

describe('hostId', () => {
  it('prefers the DMI product uuid, then machine-id as a UUID, then the boot id', () => {
    expect(Platform.hostId('4C4C4544-0031-3210-8052-B4C04F563532\n', '0123456789abcdef0123456789abcdef\n', 'b')).toBe('4c4c4544-0031-3210-8052-b4c04f563532')
    expect(Platform.hostId(undefined, '0123456789abcdef0123456789abcdef\n', 'b')).toBe('01234567-89ab-cdef-0123-456789abcdef')
    expect(Platform.hostId('', 'short\n', 'AB-CD\n')).toBe('ab-cd')
    expect(Platform.hostId(undefined, undefined, undefined)).toBe('')
  })
})
