// Runs a Command value with the real tools for the package parsers' tests, as the runner would:
// its argv without a shell, its environment entries added. Returns the Exit the parsers read.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import type { Command, Exit } from '../../../src/core/Command.js'
import * as AptRoot from '../../../src/types/package/AptRoot.js'
import * as Root from '../../../src/types/package/Root.js'

/** Runs the command and returns how it ended. */
export const run = (c: Command): Exit => {
  const env: Record<string, string> = { ...process.env } as Record<string, string>
  for (const e of c.environment) env[e.slice(0, e.indexOf('='))] = e.slice(e.indexOf('=') + 1)
  const started = Date.now()
  const r = spawnSync(c.argv[0]!, c.argv.slice(1), { env, encoding: 'utf8', timeout: c.timeoutMs })
  if (r.error !== undefined) throw r.error
  return { exitCode: r.status ?? undefined, signal: r.signal ?? undefined, stdout: r.stdout, stderr: r.stderr, durationMs: Date.now() - started }
}

/** One stanza of a dpkg status file. */
export interface Stanza {
  readonly name: string
  readonly status: string
  readonly version?: string
  readonly arch?: string
  readonly extra?: string
}

/** A temporary root whose dpkg database holds exactly these stanzas; returns the root. */
export const dpkgRoot = (stanzas: ReadonlyArray<Stanza>): string => {
  const root = mkdtempSync(join(tmpdir(), 'plait-dpkg-'))
  const admin = join(root, 'var/lib/dpkg')
  mkdirSync(join(admin, 'info'), { recursive: true })
  mkdirSync(join(admin, 'updates'), { recursive: true })
  const text = stanzas
    .map(
      (s) =>
        `Package: ${s.name}\nStatus: ${s.status}\n${s.extra ?? ''}Priority: optional\nSection: misc\nMaintainer: plait tests <tests@example.org>\n` +
        `Architecture: ${s.arch ?? 'amd64'}\n${s.version === undefined ? '' : `Version: ${s.version}\n`}Description: a package of plait's tests\n`,
    )
    .join('\n')
  writeFileSync(join(admin, 'status'), text)
  return root
}

/** One package a local apt repository offers (an index entry only: enough for apt-cache). */
export interface Offer {
  readonly name: string
  readonly version: string
  readonly arch?: string
}

/**
 * A temporary root with this dpkg database and a flat `file:` apt repository offering these
 * packages, its lists updated by the real apt-get confined with `configFile` (APT_CONFIG). Returns
 * the root and the config file (outside the root).
 */
export const aptRoot = (
  stanzas: ReadonlyArray<Stanza>,
  offers: ReadonlyArray<Offer>,
  debs: (repo: string) => ReadonlyArray<string> = () => [],
): { readonly target: AptRoot.AptRoot; readonly home: string } => {
  const root = dpkgRoot(stanzas)
  const home = mkdtempSync(join(tmpdir(), 'plait-apt-'))
  for (const d of ['etc/apt/apt.conf.d', 'etc/apt/sources.list.d', 'etc/apt/preferences.d', 'var/lib/apt/lists/partial', 'var/cache/apt/archives/partial', 'var/log/apt']) {
    mkdirSync(join(root, d), { recursive: true })
  }
  mkdirSync(join(home, 'repo'))
  const index = offers.map((o) => `Package: ${o.name}\nVersion: ${o.version}\nArchitecture: ${o.arch ?? 'all'}\nMaintainer: plait tests <tests@example.org>\nFilename: ./${o.name}_${o.version}.deb\nSize: 1\nDescription: offered by plait's tests\n`)
  writeFileSync(join(home, 'repo/Packages'), [...index, ...debs(join(home, 'repo'))].join('\n'))
  writeFileSync(join(root, 'etc/apt/sources.list'), `deb [trusted=yes] file:${home}/repo ./\n`)
  const configFile = join(home, 'apt.conf')
  const r = Root.make(root)
  if (E.isLeft(r)) throw new Error('root')
  writeFileSync(configFile, AptRoot.configText(r.right))
  const update = run({ argv: ['apt-get', '-q', 'update'], environment: ['LC_ALL=C', `APT_CONFIG=${configFile}`], timeoutMs: 30000 })
  if (update.exitCode !== 0) throw new Error(`apt-get update failed: ${update.stderr}`)
  return { target: { root: r.right, configFile }, home }
}

/** One rpm to build. */
export interface RpmSpec {
  readonly name: string
  readonly epoch?: string
  readonly version: string
  readonly release: string
}

/**
 * A temporary root whose rpm database holds these packages, built by the real rpmbuild (empty
 * noarch packages) and installed by the real rpm (`--nodeps`; Debian's rpm warns on stderr that
 * Alien is the usual way, which is expected). Returns the root.
 */
export const rpmRoot = (specs: ReadonlyArray<RpmSpec>): string => {
  const root = mkdtempSync(join(tmpdir(), 'plait-rpm-'))
  const top = join(root, '.build')
  mkdirSync(top)
  const files: string[] = []
  for (const [i, s] of specs.entries()) {
    const spec = join(top, `${i}.spec`)
    writeFileSync(
      spec,
      `Name: ${s.name}\n${s.epoch === undefined ? '' : `Epoch: ${s.epoch}\n`}Version: ${s.version}\nRelease: ${s.release}\nSummary: plait test\nLicense: MIT\nBuildArch: noarch\n%description\nplait test\n%files\n`,
    )
    const built = run({ argv: ['rpmbuild', '-bb', '--quiet', '--define', `_topdir ${top}`, '--define', `_tmppath ${top}`, '--define', `_rpmdir ${top}/out${i}`, spec], environment: ['LC_ALL=C'], timeoutMs: 60000 })
    if (built.exitCode !== 0) throw new Error(`rpmbuild failed: ${built.stderr}`)
    files.push(join(top, `out${i}`, 'noarch', `${s.name}-${s.version}-${s.release}.noarch.rpm`))
  }
  const installed = run({ argv: ['rpm', `--root=${root}`, '-i', '--nodeps', '--nosignature', ...files], environment: ['LC_ALL=C'], timeoutMs: 60000 })
  if (installed.exitCode !== 0) throw new Error(`rpm -i failed: ${installed.stderr}`)
  return root
}

/**
 * Builds an empty .deb of this name and version with the real dpkg-deb (one file below
 * /usr/share/NAME saying the version) into `dir`, and returns its Packages stanza.
 */
export const buildDeb = (dir: string, name: string, version: string): string => {
  const tree = mkdtempSync(join(tmpdir(), 'plait-deb-'))
  mkdirSync(join(tree, 'DEBIAN'))
  mkdirSync(join(tree, 'usr/share', name), { recursive: true })
  writeFileSync(join(tree, 'DEBIAN/control'), `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: plait tests <tests@example.org>\nDescription: a package of plait's tests\n`)
  writeFileSync(join(tree, 'usr/share', name, 'version'), `${version}\n`)
  const file = `${name}_${version.replace(':', '%3a')}_all.deb`
  const built = run({ argv: ['dpkg-deb', '--root-owner-group', '-b', tree, join(dir, file)], environment: ['LC_ALL=C'], timeoutMs: 30000 })
  rmSync(tree, { recursive: true, force: true })
  if (built.exitCode !== 0) throw new Error(`dpkg-deb failed: ${built.stderr}`)
  const bytes = readFileSync(join(dir, file))
  return `Package: ${name}\nVersion: ${version}\nArchitecture: all\nMaintainer: plait tests <tests@example.org>\nFilename: ./${file}\nSize: ${bytes.length}\nSHA256: ${createHash('sha256').update(bytes).digest('hex')}\nDescription: a package of plait's tests\n`
}

/**
 * Builds a noarch rpm of this name and EVR with the real rpmbuild (one file below
 * /usr/share/NAME saying the version) into `dir`, without network or the host's build tree.
 */
export const buildRpm = (dir: string, name: string, s: Omit<RpmSpec, 'name'>): void => {
  const top = mkdtempSync(join(tmpdir(), 'plait-rpmbuild-'))
  const spec = join(top, `${name}.spec`)
  const shown = `${s.epoch === undefined ? '' : `${s.epoch}:`}${s.version}-${s.release}`
  writeFileSync(
    spec,
    `Name: ${name}\n${s.epoch === undefined ? '' : `Epoch: ${s.epoch}\n`}Version: ${s.version}\nRelease: ${s.release}\nSummary: plait test\nLicense: MIT\nBuildArch: noarch\n%description\nplait test\n` +
      `%install\nmkdir -p %{buildroot}/usr/share/${name}\necho ${shown} > %{buildroot}/usr/share/${name}/version\n%files\n/usr/share/${name}/version\n`,
  )
  const built = run({ argv: ['rpmbuild', '-bb', '--quiet', '--define', `_topdir ${top}`, '--define', `_tmppath ${top}`, '--define', `_rpmdir ${dir}`, '--define', '_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm', spec], environment: ['LC_ALL=C'], timeoutMs: 60000 })
  rmSync(top, { recursive: true, force: true })
  if (built.exitCode !== 0) throw new Error(`rpmbuild failed: ${built.stderr}`)
}

/**
 * A temporary root for dnf (`--installroot`) with a `file:` repository (outside it, in `home`)
 * offering the rpms `publish` builds, indexed by the real createrepo_c and named by a .repo file
 * in ROOT/etc/yum.repos.d (gpgcheck off: the packages are the tests' own, unsigned).
 */
export const dnfRoot = (): { readonly root: string; readonly home: string; readonly publish: (name: string, versions: ReadonlyArray<Omit<RpmSpec, 'name'>>) => void } => {
  const root = mkdtempSync(join(tmpdir(), 'plait-dnfroot-'))
  const home = mkdtempSync(join(tmpdir(), 'plait-dnfrepo-'))
  const repo = join(home, 'repo')
  mkdirSync(repo)
  mkdirSync(join(root, 'etc/yum.repos.d'), { recursive: true })
  // metadata_expire=0: a repository republished by a test is read again at once
  writeFileSync(join(root, 'etc/yum.repos.d/plait-tests.repo'), `[plait-tests]\nname=plait tests\nbaseurl=file://${repo}\nenabled=1\ngpgcheck=0\nmetadata_expire=0\n`)
  const publish = (name: string, versions: ReadonlyArray<Omit<RpmSpec, 'name'>>) => {
    for (const f of readdirSync(repo)) rmSync(join(repo, f), { recursive: true, force: true })
    for (const v of versions) buildRpm(repo, name, v)
    const indexed = run({ argv: ['createrepo_c', '-q', repo], environment: ['LC_ALL=C'], timeoutMs: 60000 })
    if (indexed.exitCode !== 0) throw new Error(`createrepo_c failed: ${indexed.stderr}`)
    // dnf takes a local repository's metadata for fresh while it is less than a whole second old
    // (its age is counted in seconds, and metadata_expire=0 expires only an age over 0): without
    // this wait, a plan or apply started within that second reads its cache of the old index.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100)
  }
  return { root, home, publish }
}
