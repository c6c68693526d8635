// Both package managers pass the package manager contract: apt (the real interpreter, its argv
// and process runtime) with the real apt-get, apt-cache and dpkg-query below a temporary root,
// serving packages built with dpkg-deb from a `file:` repository (dpkg installs only as root: it
// runs where the tests run as root); and the memory manager of offline tests.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Apt from '../../src/interpreters/packages/apt.js'
import * as Memory from '../../src/interpreters/packages/memory.js'
import * as Processes from '../../src/interpreters/process.js'
import * as Commands from '../../src/types/package/Commands.js'
import * as DpkgStatus from '../../src/types/package/DpkgStatus.js'
import { aptRoot, buildDeb, run } from '../types/package/run.js'
import { packageManagerContract } from './packages.contract.js'

const made: string[] = []
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
})

if (process.getuid?.() === 0) {
  packageManagerContract(
    'apt (the real apt-get, apt-cache and dpkg-query below a temporary root)',
    async (packages, options) => {
      const { target, home } = aptRoot([], [], (repo) => Object.entries(packages).flatMap(([name, p]) => p.available.map((v) => buildDeb(repo, name, v))))
      made.push(target.root.path, home)
      for (const [name, p] of Object.entries(packages)) {
        if (p.installed === undefined) continue
        const r = run(Commands.aptInstall(name, { _tag: 'Exact', version: p.installed }, target, 60000))
        if (r.exitCode !== 0) throw new Error(r.stderr)
      }
      let queries = 0
      const counted: Processes.Processes = { run: (p) => ((queries += 1), Processes.real.run(p)) }
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-nopath-'))
      made.push(empty)
      return {
        manager: Apt.make({ root: target.root.path, processes: counted, ...(options.suitable ? {} : { path: empty }) }),
        installed: async (names) => {
          const s = DpkgStatus.parse(names, run(DpkgStatus.query(names as [string, ...string[]], target.root, 30000)))
          if (E.isLeft(s)) throw new Error('dpkg-query')
          return names.map((n) => {
            const p = s.right.get(n)
            return p?._tag === 'Installed' ? p.version : undefined
          })
        },
        queries: () => queries,
      }
    },
    60000,
  )
}

describe('the apt package manager', () => {
  it("refuses a root that apt's configuration cannot hold, before running anything", async () => {
    const processes = Processes.memory(() => ({ exit: 0 }))
    const m = Apt.make({ root: '/tmp/x"; DPkg::Pre-Invoke {"touch /tmp/owned";}; Dir "/tmp/x', processes })
    const r = await m.status(['hello'])
    expect(E.isLeft(r) && r.left.description).toBe('root directory "/tmp/x\\"; DPkg::Pre-Invoke {\\"touch /tmp/owned\\";}; Dir \\"/tmp/x": contains "\\"", which apt\'s configuration cannot hold safely')
    expect(processes.runs()).toEqual([])
  })

  it('runs its queries and commands with a complete environment: LC_ALL=C, the sbin directories dpkg needs, APT_CONFIG below a root', async () => {
    const processes = Processes.memory((p) => (p.file === 'dpkg-query' ? { exit: 1, stderr: 'dpkg-query: no packages found matching hello\n' } : { exit: 0, stdout: '' }))
    const m = Apt.make({ root: '/srv/r', processes, path: '/usr/bin:/bin' })
    expect(await m.status(['hello'])).toEqual(E.right([{ provider: 'apt', installed: { _tag: 'NotInstalled' }, state: undefined, candidate: undefined }]))
    expect(await m.act({ _tag: 'Remove', name: 'hello' })).toEqual(E.right(undefined))
    const runs = processes.runs()
    expect(runs.map((p) => [p.file, ...p.args])).toEqual([
      ['dpkg-query', '--root=/srv/r', '-W', `-f=${DpkgStatus.format}`, '--', 'hello'],
      ['apt-cache', '-o', 'Dir=/srv/r/', 'policy', '--', 'hello'],
      ['apt-get', '-q', '-y', 'remove', '-o', 'Dir=/srv/r/', '-o', 'DPkg::Options::=--root=/srv/r', '-o', 'DPkg::Options::=--log=/srv/r/var/log/dpkg.log', '--', 'hello'],
    ])
    expect(runs[2]!.env).toMatchObject({ PATH: '/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin', LC_ALL: 'C', DEBIAN_FRONTEND: 'noninteractive', APT_CONFIG: expect.stringMatching(/apt\.conf$/) })
    expect(fs.readFileSync(runs[2]!.env['APT_CONFIG']!, 'utf8')).toBe('Dir "/srv/r/";\n')
  })
})

packageManagerContract('memory', async (packages, options) => {
  const m = Memory.make(packages, { suitable: options.suitable })
  return {
    manager: m,
    installed: async (names) => names.map((n) => m.packages()[n]?.installed),
    queries: () => m.calls().filter((c) => c.startsWith('status')).length,
  }
})
