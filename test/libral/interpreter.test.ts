// The libral interpreter against real provider processes (fixtures under test/libral/fixtures),
// each run in a temporary sandbox passed as PLAIT_ROOT_DIR.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Fault from '../../src/core/Fault.js'
import * as Discover from '../../src/interpreters/libral/discover.js'
import * as Invoke from '../../src/interpreters/libral/invoke.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import * as Metadata from '../../src/interpreters/libral/protocol/Metadata.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import { cleanup, fixtureProvider, fixtures, tempDir, writeProvider } from './support.js'

afterAll(cleanup)

const loadFixture = async (name: string, s: Session.Session): Promise<Discover.Provider> => {
  const p = await Discover.load(s.context, fixtureProvider(name))
  if (E.isLeft(p)) throw new Error(p.left.map(Diagnostic.render).join('\n'))
  return p.right
}

const sandboxed = (mode?: string, extra: Partial<Session.Options> = {}): { root: string; s: Session.Session } => {
  const root = tempDir()
  const hostEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], ...(mode !== undefined ? { PLAIT_FIXTURE_MODE: mode } : {}) }
  return { root, s: Session.make({ root, hostEnv, ...extra }) }
}

const fault = <A>(r: E.Either<Fault.Fault, A>): Fault.Fault => {
  if (E.isRight(r)) throw new Error(`expected a fault, got ${JSON.stringify(r.right)}`)
  return r.left
}

describe('arguments reach a bash provider using eval "$@" intact', () => {
  // Any text but NUL (which no argument can carry), weighted towards what a shell treats specially.
  const special = fc.constantFrom(' ', "'", '"', '\n', '=', '$', '`', '\\', '!', '*', '?', ';', '&', '|', '(', ')', '{', '}', '<', '>', '#', '~', '\t', '$(', '${x}', "'\\''", 'é', '💥', '-')
  const value = fc.oneof(
    fc.array(special, { maxLength: 12 }).map((xs) => xs.join('')),
    fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => !s.includes('\u0000') && s.isWellFormed()),
  )

  it('for generated values (bash)', async () => {
    const { root, s } = sandboxed()
    const p = await loadFixture('echo', s)
    await fc.assert(
      fc.asyncProperty(value, value, value, async (name, v1, v2) => {
        const r = await s.update(p, Resource.absent(name), [Resource.change('v1', undefined, v1), Resource.change('v2', undefined, v2)], { noop: false })
        expect(E.isRight(r)).toBe(true)
        const seen = fs.readFileSync(path.join(root, 'seen'), 'utf8').split('\n').slice(0, 3).map((l) => Buffer.from(l, 'base64').toString('utf8'))
        expect(seen).toEqual([name, v1, v2])
      }),
      { numRuns: 150 },
    )
  })

  it("for generated values (python's shlex recipe, split at the first '=')", async () => {
    const { root, s } = sandboxed()
    const p = await loadFixture('echo_py', s)
    await fc.assert(
      fc.asyncProperty(value, value, async (name, v1) => {
        const r = await s.update(p, Resource.absent(name), [Resource.change('v1', undefined, v1)], { noop: false })
        expect(E.isRight(r)).toBe(true)
        const seen = JSON.parse(fs.readFileSync(path.join(root, 'seen'), 'utf8')) as Record<string, string>
        expect(seen).toEqual({ ral_action: 'update', name, v1 })
      }),
      { numRuns: 12 },
    )
  })
})

describe('running providers', () => {
  it('turns a non-zero exit into a fault naming the provider and the action', async () => {
    const { s } = sandboxed('exit')
    const p = await loadFixture('misbehave', s)
    const f = fault(await s.list(p))
    expect(f._tag).toBe('Failed')
    expect(f.op).toBe('list')
    expect(f.subject).toContain('misbehave::misbehave')
    expect(f.description).toBe('exited with status 3 (a fatal error): it went wrong')
    expect(Invoke.isReported(f)).toBe(false)
  })

  it('reports a ral_error as the provider\'s error, and broken output as a protocol violation', async () => {
    const err = sandboxed('error')
    const p = await loadFixture('misbehave', err.s)
    const f = fault(await err.s.find(p, 'x'))
    expect(f).toMatchObject({ _tag: 'Failed', op: 'find', description: 'the find failed\nsecond line' })
    expect(Invoke.isReported(f)).toBe(true)
    for (const [mode, why] of [
      ['garbage', 'expected "# simple"'],
      ['noeom', 'not closed by a ral_eom line'],
    ] as const) {
      const { s } = sandboxed(mode)
      expect(fault(await s.list(p))).toMatchObject({ _tag: 'ProtocolViolation', description: expect.stringContaining(why) })
    }
  })

  it('collects stderr lines at their level as values', async () => {
    const { s } = sandboxed('logs')
    const p = await loadFixture('misbehave', s)
    expect(E.isRight(await s.list(p))).toBe(true)
    expect(s.invocations()[s.invocations().length - 1]!.logs).toEqual([
      { level: 'debug', message: 'd' },
      { level: 'info', message: 'i' },
      { level: 'warn', message: 'w' },
      { level: 'error', message: 'e' },
      { level: 'warn', message: 'plain' },
    ])
  })

  it('scrubs the environment to PATH, HOME, LANG, LC_* and PLAIT_*, with PLAIT_ROOT_DIR the sandbox', async () => {
    const root = tempDir()
    const s = Session.make({ root, hostEnv: { PATH: '/usr/bin:/bin', HOME: '/h', LANG: 'C.UTF-8', LC_TIME: 'C', PLAIT_FIXTURE_MODE: 'env', AWS_SECRET_ACCESS_KEY: 'x', PLAIT_ROOT_DIR: '/stray' } })
    const p = await loadFixture('misbehave', s)
    expect(E.isRight(await s.list(p))).toBe(true)
    const env = Object.fromEntries(
      fs
        .readFileSync(path.join(root, 'env'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    )
    // bash adds PWD, SHLVL and _ itself.
    for (const k of ['PWD', 'SHLVL', '_']) delete env[k]
    expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/h', LANG: 'C.UTF-8', LC_TIME: 'C', PLAIT_FIXTURE_MODE: 'env', PLAIT_ROOT_DIR: root })
  })

  it('kills a provider that runs past its timeout, with its whole process group', async () => {
    const { root, s } = sandboxed('hang', { timeoutSeconds: 0.5 })
    const p = await loadFixture('misbehave', s)
    const started = Date.now()
    const f = fault(await s.list(p))
    expect(Date.now() - started).toBeLessThan(5000)
    expect(f).toMatchObject({ _tag: 'TimedOut', op: 'list', description: 'ran longer than 0.5 s and was killed with its process group' })
    const child = Number(fs.readFileSync(path.join(root, 'child'), 'utf8'))
    await new Promise((r) => setTimeout(r, 200))
    const alive = ((): boolean => {
      try {
        // A zombie waiting for a reaper is dead too.
        return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${child}/stat`, 'utf8'))
      } catch {
        return false
      }
    })()
    expect(alive).toBe(false)
  })

  it('refuses a noop update of a provider that did not opt in, and never sends a read-only attribute', async () => {
    const { s } = sandboxed()
    const p = await loadFixture('echo', s)
    expect(fault(await s.update(p, Resource.absent('a'), [Resource.change('v1', undefined, 'x')], { noop: true })).description).toContain('does not declare plait.noop: true')
    expect(fault(await s.update(p, Resource.absent('a'), [Resource.change('name', undefined, 'x')], { noop: false })).description).toContain('not a writable attribute')
    expect(s.invocations()).toHaveLength(0)
  })
})

describe('the json calling convention', () => {
  it('gets, finds and sets through JSON on stdin, with derive and noop', async () => {
    const { root, s } = sandboxed()
    const p = await loadFixture('store', s)
    expect(p.from).toBe('describe')
    expect(p.meta).toMatchObject({ qname: 'store::store', invoke: 'json', noop: true })
    expect(await s.list(p)).toEqual(E.right([]))
    const found = await s.find(p, 'a')
    expect(found).toEqual(E.right(Resource.present(Resource.make('a', { ensure: 'absent' }))))
    const changes = [Resource.change('ensure', 'absent', 'present'), Resource.change('value', undefined, 'it is'), Resource.change('flags', undefined, ['x', 'y']), Resource.change('on', undefined, true)]
    const dry = await s.update(p, Resource.absent('a'), changes, { noop: true })
    expect(E.isRight(dry) && dry.right._tag === 'Updated' && dry.right.changes.map((c) => c.attr)).toEqual(['ensure', 'value', 'flags', 'on'])
    expect(fs.existsSync(path.join(root, 'store.json'))).toBe(false)
    const r = await s.update(p, Resource.absent('a'), changes, { noop: false })
    expect(E.isRight(r) && r.right._tag).toBe('Updated')
    expect(await s.find(p, 'a')).toEqual(E.right(Resource.present(Resource.make('a', { ensure: 'present', value: 'it is', flags: ['x', 'y'], on: true }))))
  })
})

describe('Session', () => {
  it('lists a provider once for any number of names, and again after an update', async () => {
    const dir = tempDir()
    const lines = Array.from({ length: 500 }, (_, i) => `h${i}|10.0.${Math.floor(i / 250)}.${i % 250}`).join('\n') + '\n'
    const prov = writeProvider(
      dir,
      'many',
      `#!/bin/bash\nname= ral_action=\neval "$@"\ndb="$PLAIT_ROOT_DIR/db"\ncase "$ral_action" in\n  list) echo '# simple'; while IFS='|' read -r n v; do printf 'name: %s\\nip: %s\\n' "$n" "$v"; done < "$db" ;;\n  update) printf '# simple\\nral_derive: true\\n' ;;\nesac\n`,
      'provider:\n  type: many\n  invoke: simple\n  actions: [list, update]\n  suitable: true\n  attributes:\n    name:\n    ip:\n',
    )
    const root = tempDir()
    fs.writeFileSync(path.join(root, 'db'), lines)
    const s = Session.make({ root, hostEnv: { PATH: process.env['PATH'] } })
    const loaded = await Discover.load(s.context, prov)
    if (E.isLeft(loaded)) throw new Error('load')
    const names = Array.from({ length: 500 }, (_, i) => `h${i}`)
    const seen = await s.observe(loaded.right, names)
    expect(E.isRight(seen) && seen.right.size).toBe(500)
    expect(E.isRight(seen) && seen.right.get('h7')).toEqual(Resource.present(Resource.make('h7', { ip: '10.0.0.7' })))
    await s.observe(loaded.right, ['h1'])
    expect(s.invocations().map((i) => i.action)).toEqual(['list'])
    await s.update(loaded.right, Resource.present(Resource.make('h1', { ip: '10.0.0.1' })), [Resource.change('ip', '10.0.0.1', '10.9.9.9')], { noop: false })
    await s.observe(loaded.right, names)
    expect(s.invocations().map((i) => i.action)).toEqual(['list', 'update', 'list'])
  })
})

describe('discovery', () => {
  const yamlOf = (type: string): string => `provider:\n  type: ${type}\n  invoke: simple\n  suitable: true\n  attributes:\n    name:\n`

  it('searches --provider-path, PLAIT_PROVIDER_PATH, plait\'s own lib/libral, then /usr/share/libral/data', () => {
    const dirs = Discover.providerPath({ cli: ['/a', '/b:/c'], env: '/d::/e', own: '/own', system: '/sys' })
    expect(dirs).toEqual([
      { dir: '/a', explicit: true },
      { dir: '/b', explicit: true },
      { dir: '/c', explicit: true },
      { dir: '/d', explicit: false },
      { dir: '/e', explicit: false },
      { dir: '/own', explicit: false },
      { dir: '/sys', explicit: false },
    ])
    expect(fs.existsSync(path.join(Discover.ownDir, 'providers', 'etc_hosts.prov'))).toBe(true)
  })

  it('prefers the sibling .yaml to describe, and uses describe when there is none', async () => {
    const dir = tempDir()
    const marker = path.join(dir, 'described')
    writeProvider(dir, 'both', `#!/bin/bash\ntouch ${marker}\ncat <<'EOF'\n${yamlOf('fromdescribe')}EOF\n`, yamlOf('fromyaml'))
    writeProvider(dir, 'only', `#!/bin/bash\ncat <<'EOF'\n${yamlOf('described')}EOF\n`)
    const s = Session.make({ hostEnv: { PATH: process.env['PATH'] } })
    const d = await Discover.discover(s.context, [{ dir, explicit: true }])
    expect(d.problems).toEqual([])
    expect(d.registry.providers.map((p) => [p.meta.qname, p.from])).toEqual([
      ['described::only', 'describe'],
      ['fromyaml::both', 'yaml'],
    ])
    expect(fs.existsSync(marker)).toBe(false)
  })

  it('leaves out a bad provider with a diagnostic naming its file, and keeps the others', async () => {
    const dir = tempDir()
    writeProvider(dir, 'good', '#!/bin/bash\n', yamlOf('good'))
    writeProvider(dir, 'badyaml', '#!/bin/bash\n', 'provider:\n  type: t\n  invoke: simple\n  suitable: true\n  attributes:\n    ip:\n')
    writeProvider(dir, 'nodescribe', '#!/bin/bash\nexit 4\n')
    const noexec = writeProvider(dir, 'noexec', '#!/bin/bash\n', yamlOf('noexec'))
    fs.chmodSync(noexec, 0o644)
    const s = Session.make({ hostEnv: { PATH: process.env['PATH'] } })
    const d = await Discover.discover(s.context, [{ dir, explicit: true }, { dir: path.join(dir, 'missing'), explicit: false }])
    expect(d.registry.providers.map((p) => p.meta.qname)).toEqual(['good::good'])
    const msgs = d.problems.map(Diagnostic.render).join('\n')
    expect(msgs).toContain(`${path.join(dir, 'providers', 'badyaml.yaml')}:`)
    expect(msgs).toContain('no "name" attribute')
    expect(msgs).toContain(`provider ${path.join(dir, 'providers', 'nodescribe.prov')} has no nodescribe.yaml and ral_action=describe failed: exited with status 4`)
    expect(msgs).toContain(`provider ${noexec} is not an executable file`)
    expect(d.problems).toHaveLength(3)
  })

  it('reports an explicit provider directory that does not exist', async () => {
    const s = Session.make({ hostEnv: {} })
    const d = await Discover.discover(s.context, [{ dir: '/nonexistent/plait-test', explicit: true }])
    expect(d.problems.map(Diagnostic.render)).toEqual(['error: provider path /nonexistent/plait-test: cannot read /nonexistent/plait-test/providers: no such directory'])
  })

  it('checks suitable commands on the scrubbed PATH', async () => {
    const dir = tempDir()
    writeProvider(dir, 'needs', '#!/bin/bash\n', 'provider:\n  type: t\n  invoke: simple\n  suitable:\n    commands: [bash, "not plait-no-such-command"]\n  attributes:\n    name:\n')
    writeProvider(dir, 'missing', '#!/bin/bash\n', 'provider:\n  type: u\n  invoke: simple\n  suitable:\n    commands: [plait-no-such-command]\n  attributes:\n    name:\n')
    const s = Session.make({ hostEnv: { PATH: process.env['PATH'] } })
    const d = await Discover.discover(s.context, [{ dir, explicit: true }])
    expect(d.registry.providers.map((p) => [p.meta.qname, p.suitable])).toEqual([
      ['t::needs', E.right(true)],
      ['u::missing', E.left('command "plait-no-such-command" is not on PATH')],
    ])
  })

  it('loads every fixture provider', async () => {
    const s = Session.make({ hostEnv: { PATH: process.env['PATH'] } })
    const d = await Discover.discover(s.context, [{ dir: fixtures, explicit: true }])
    expect(d.problems).toEqual([])
    expect(d.registry.providers.map((p) => p.meta.qname)).toEqual(['echo::echo', 'echo::py', 'kv::forgetful', 'misbehave::misbehave', 'store::store'])
    expect(Metadata.isWritable(Metadata.attribute(d.registry.providers[0]!.meta, 'v1')!)).toBe(true)
  })
})
