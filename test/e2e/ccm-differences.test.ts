// e2e: the differences from CCM that issue 15 found when CCM's documented manifests were tried as
// a user would, each now as CCM does it, through the built binary under a temp root: type#alias
// references, exec ensure, health checks under --noop, a resource that cannot be planned failing
// alone, a file or directory replacing what is in its way, CCM's durations, shell quoting, an
// empty manifest, and post_message after failures.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, exists, plait, put, read, sandbox, show, snapshot, stackFrame, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const state = ['--state-dir', '/var/lib/plait']
const attrs = `            owner: root\n            group: root\n            mode: "0644"\n`
const res = (body: string, head = ''): string => `ccm:\n${head}  resources:\n${body}`
const fileRes = (name: string, props: string): string => `    - file:\n        - ${name}:\n${props}`

/** A sandbox with /etc. */
const withEtc = (): Sandbox => {
  const s = sandbox()
  fs.mkdirSync(s.at('/etc'))
  return s
}

describe.concurrent('type#alias references (1)', () => {
  it('require and subscribe match an alias within the type, and a change refreshes the subscriber', async ({ expect }) => {
    const s = withEtc()
    const m = s.manifest(
      res(
        fileRes('/etc/app.conf', `            alias: app-config\n            content: "port = 1\\n"\n${attrs}`) +
          `    - exec:\n        - reload:\n            command: /usr/bin/touch ${s.at('/etc/reloaded')}\n            refresh_only: true\n            subscribe: [file#app-config]\n            require: [file#app-config]\n`,
      ),
    )
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toMatch(/would run if file#\/etc\/app\.conf changes/)
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +exec#reload: refreshed: file#\/etc\/app\.conf changed/)
    expect(exists(s.at('/etc/reloaded'))).toBe(true)
  })

  it('an ambiguous type#x (one resource\'s name, another\'s alias) is an error naming both', async ({ expect }) => {
    const s = withEtc()
    const m = s.manifest(res(`    - exec:\n        - second:\n            command: /bin/true\n        - first:\n            command: /bin/true\n            alias: second\n        - third:\n            command: /bin/true\n            require: [exec#second]\n`))
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(1)
    expect(p.stderr).toMatch(/manifest\.yaml:11:23: exec#third: require: exec#second is ambiguous: it is the id of exec#second and the alias of exec#first/)
  })
})

describe.concurrent('exec ensure (2)', () => {
  it.each(['present', 'absent'])('ensure: %s is accepted and, as in CCM, the command runs by its own table', async (ensure) => {
    const s = withEtc()
    const m = s.manifest(res(`    - exec:\n        - mark:\n            ensure: ${ensure}\n            command: /usr/bin/touch ${s.at('/etc/marked')}\n            creates: /etc/marked\n`))
    const a = await plait(['apply', m, '--root', s.root, ...state])
    if (a.code !== 0) throw new Error(show(a))
    if (!exists(s.at('/etc/marked'))) throw new Error('the command did not run')
    const again = await plait(['plan', m, '--root', s.root])
    if (!again.stdout.includes('exec#mark: skipped: creates /etc/marked exists')) throw new Error(show(again))
  })

  it('another ensure value is refused at its position', async ({ expect }) => {
    const s = withEtc()
    const p = await plait(['plan', s.manifest(res(`    - exec:\n        - x:\n            ensure: running\n            command: /bin/true\n`)), '--root', s.root])
    expect(p.code, show(p)).toBe(1)
    expect(p.stderr).toMatch(/manifest\.yaml:5:21: exec#x: ensure must be one of present, absent; got "running"/)
  })
})

describe.concurrent('health checks under apply --noop (3)', () => {
  it('run against the machine as it is: OK is reported, not OK fails the resource, nothing changes', async ({ expect }) => {
    const s = withEtc()
    const check = (command: string) => `            health_checks:\n              - name: probe\n                command: ${command}\n`
    const ok = s.manifest(res(fileRes('/etc/a.conf', `            content: "a\\n"\n${attrs}${check('/bin/echo all fine')}`)), 'ok.yaml')
    const bad = s.manifest(res(fileRes('/etc/a.conf', `            content: "a\\n"\n${attrs}${check(`/usr/bin/test -e ${s.at('/etc/a.conf')}`)}`) + `    - exec:\n        - after:\n            command: /bin/true\n            require: [file#/etc/a.conf]\n`), 'bad.yaml')
    const before = snapshot(s.root)
    const [good, failing] = await Promise.all([plait(['apply', ok, '--root', s.root, '--noop', ...state]), plait(['apply', bad, '--root', s.root, '--noop', ...state])])
    expect(good.code, show(good)).toBe(0)
    expect(good.stdout).toMatch(/changed +file#\/etc\/a\.conf: Would have created the file\n +health check probe: OK: all fine/)
    expect(failing.code, show(failing)).toBe(1)
    expect(failing.stdout).toMatch(/failed +file#\/etc\/a\.conf: health check probe: WARNING/)
    expect(failing.stdout).toMatch(/skipped +exec#after: unmet requirement: file#\/etc\/a\.conf failed/)
    expect(snapshot(s.root)).toEqual(before)
  })
})

describe.concurrent('a resource that cannot be planned fails alone (4)', () => {
  const body = (s: Sandbox) =>
    res(
      fileRes('/etc/missing/x.conf', `            content: "x\\n"\n${attrs}`) +
        `    - exec:\n        - needs-x:\n            command: /usr/bin/touch ${s.at('/etc/needs-x')}\n            require: [file#/etc/missing/x.conf]\n` +
        `        - guarded:\n            command: /bin/true\n            unless: /no/such/guard\n` +
        fileRes('/etc/fine.conf', `            content: "fine\\n"\n${attrs}`),
      '  post_message: "POST: done"\n',
    )

  it('plan: prints the rest with each failure and its reason, repeats them on stderr, saves it, exits 1', async ({ expect }) => {
    const s = withEtc()
    const m = s.manifest(body(s))
    const out = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--out', out])
    expect(p.code, show(p)).toBe(1)
    expect(p.stderr).not.toMatch(stackFrame)
    expect(p.stdout).toContain('  file#/etc/missing/x.conf: failed: the parent directory /etc/missing does not exist (add a file resource for /etc/missing with ensure: directory before this one)')
    expect(p.stdout).toMatch(/ {2}exec#guarded: failed: .*could not start/)
    expect(p.stdout).toContain('+ file#/etc/fine.conf')
    expect(p.stdout).toContain('Plan: 1 to create, 0 to change, 0 to delete, 1 to run, 0 unchanged, 2 failed.')
    expect(p.stderr).toMatch(/^error: .*manifest\.yaml:5:11: file#\/etc\/missing\/x\.conf: the parent directory \/etc\/missing does not exist/m)
    expect(p.stderr).toMatch(/^error: 2 resources could not be planned/m)
    const saved = JSON.parse(fs.readFileSync(out, 'utf8')) as { summary: { failed?: number }; resources: Array<{ id: string; failed?: string }> }
    expect(saved.summary.failed).toBe(2)
    expect(saved.resources.filter((r) => r.failed !== undefined).map((r) => r.id)).toEqual(['file#/etc/missing/x.conf', 'exec#guarded'])
    // The saved plan applies the rest under the usual rules, and exits 1.
    const a = await plait(['apply', out, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/failed +file#\/etc\/missing\/x\.conf: the parent directory \/etc\/missing does not exist/)
    expect(a.stdout).toMatch(/skipped +exec#needs-x: unmet requirement: file#\/etc\/missing\/x\.conf failed/)
    expect(a.stdout).toMatch(/failed +exec#guarded: /)
    expect(a.stdout).toMatch(/changed +file#\/etc\/fine\.conf/)
    expect(a.stdout).toContain('Apply: 1 changed, 0 stable, 2 failed, 1 skipped.')
    expect(a.stdout.trimEnd().endsWith('POST: done')).toBe(true)
    expect(read(s.at('/etc/fine.conf'))).toBe('fine\n')
    expect(exists(s.at('/etc/needs-x'))).toBe(false)
  })

  it('apply MANIFEST: the same in one go; with fail_on_error the run stops at the first failure', async ({ expect }) => {
    const s = withEtc()
    const a = await plait(['apply', s.manifest(body(s)), '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toContain('Apply: 1 changed, 0 stable, 2 failed, 1 skipped.')
    const t = withEtc()
    const stop = await plait(['apply', t.manifest(body(t).replace('ccm:\n', 'ccm:\n  fail_on_error: true\n')), '--root', t.root, ...state])
    expect(stop.code, show(stop)).toBe(1)
    expect(stop.stdout).toMatch(/skipped +file#\/etc\/fine\.conf: not run: file#\/etc\/missing\/x\.conf failed and fail_on_error is set/)
    expect(exists(t.at('/etc/fine.conf'))).toBe(false)
  })

  // These were plan errors that stopped everything (once in errors.test.ts): now each fails its resource.
  const cases: Record<string, { props: string; beside?: Record<string, string>; says: RegExp }> = {
    'unknown user': { props: `            owner: nosuchuser\n            group: root\n            mode: "0644"\n`, says: /could not look up user "nosuchuser"/ },
    'unknown group': { props: `            owner: root\n            group: nosuchgroup\n            mode: "0644"\n`, says: /could not look up group "nosuchgroup"/ },
    'missing source file': { props: `            source: files/nope.txt\n${attrs}`, says: /cannot read source "files\/nope\.txt".*no such file/ },
    'source that is a directory': { props: `            source: files\n${attrs}`, beside: { 'files/a': 'a\n' }, says: /cannot read source "files".*directory/ },
  }
  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: that resource fails at its position, the other is applied`, async ({ expect }) => {
      const s = withEtc()
      for (const [rel, text] of Object.entries(c.beside ?? {})) put(path.join(s.host, rel), text)
      const m = s.manifest(res(fileRes('/etc/x', c.props) + fileRes('/etc/y', `            content: "y\\n"\n${attrs}`)))
      const [p, a] = [await plait(['plan', m, '--root', s.root]), await plait(['apply', m, '--root', s.root, ...state])]
      expect(p.code, show(p)).toBe(1)
      expect(p.stdout).toMatch(new RegExp(`^ {2}file#/etc/x: failed: ${c.says.source}`, 'm'))
      expect(p.stderr).toMatch(new RegExp(`^error: .*manifest\\.yaml:4:11: file#/etc/x: ${c.says.source}`, 'm'))
      expect(p.stderr).not.toMatch(stackFrame)
      expect(a.code, show(a)).toBe(1)
      expect(a.stdout).toMatch(new RegExp(`^failed +file#/etc/x: ${c.says.source}`, 'm'))
      expect(a.stdout).toMatch(/^changed +file#\/etc\/y/m)
      expect(exists(s.at('/etc/x'))).toBe(false)
      expect(read(s.at('/etc/y'))).toBe('y\n')
    })
  }
})

describe.concurrent('a file or a directory replaces what is in its way (5)', () => {
  it('a directory replaces a file, and a file an empty directory', async ({ expect }) => {
    const s = withEtc()
    put(s.at('/etc/was-file'), 'a file\n')
    fs.mkdirSync(s.at('/etc/was-dir'))
    const m = s.manifest(res(fileRes('/etc/was-file', `            ensure: directory\n            owner: root\n            group: root\n            mode: "0755"\n`) + fileRes('/etc/was-dir', `            content: "now a file\\n"\n${attrs}`)))
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toMatch(/file\.remove: a regular file is in the way of the directory; it is removed first\n[\s\S]*file\.mkdir/)
    expect(p.stdout).toMatch(/file\.remove: a directory is in the way of the file; it is removed first\n[\s\S]*file\.write/)
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(fs.statSync(s.at('/etc/was-file')).isDirectory()).toBe(true)
    expect(read(s.at('/etc/was-dir'))).toBe('now a file\n')
    const again = await plait(['plan', m, '--root', s.root])
    expect(again.stdout).toContain('No changes.')
  })

  it('a non-empty directory: refused without force; with force replaced, and an atomic rollback puts it all back', async ({ expect }) => {
    const s = withEtc()
    fs.mkdirSync(s.at('/etc/app.d'))
    put(s.at('/etc/app.d/one.conf'), 'one\n', 0o600)
    fs.mkdirSync(s.at('/etc/app.d/sub'))
    put(s.at('/etc/app.d/sub/two.conf'), 'two\n')
    const without = await plait(['plan', s.manifest(res(fileRes('/etc/app.d', `            content: "flat\\n"\n${attrs}`)), 'without.yaml'), '--root', s.root])
    expect(without.code, show(without)).toBe(1)
    expect(without.stdout).toContain('file#/etc/app.d: failed: /etc/app.d is a non-empty directory; a file replaces it only with force: true (set force: true to replace it and its contents with the file)')
    const before = snapshot(s.root)
    const forced = (then: string) => res(fileRes('/etc/app.d', `            content: "flat\\n"\n            force: true\n${attrs}`) + `    - exec:\n        - then:\n            command: ${then}\n`)
    const atomic = await plait(['apply', s.manifest(forced('/bin/false'), 'boom.yaml'), '--root', s.root, ...state, '--atomic'])
    expect(atomic.code, show(atomic)).toBe(1)
    expect(atomic.stdout).toMatch(/rolled back +file#\/etc\/app\.d/)
    expect(snapshot(s.root, ['var'])).toEqual(before)
    const a = await plait(['apply', s.manifest(forced('/bin/true'), 'fine.yaml'), '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(read(s.at('/etc/app.d'))).toBe('flat\n')
  })
})

describe.concurrent('compile-time differences (6, 7, 8)', () => {
  it('takes CCM durations: 1d and 1w', async ({ expect }) => {
    const s = withEtc()
    const m = s.manifest(res(`    - exec:\n        - daily:\n            command: /bin/true\n            timeout: 1d\n        - weekly:\n            command: /bin/true\n            timeout: 1w2d\n`))
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toContain('Apply: 2 changed, 0 stable, 0 failed, 0 skipped.')
  })

  it('checks a shell command\'s quoting, and names an empty one as CCM does', async ({ expect }) => {
    const s = withEtc()
    const p = await plait(['plan', s.manifest(res(`    - exec:\n        - open:\n            provider: shell\n            command: "echo 'unbalanced | cat"\n        - empty:\n            provider: shell\n            command: "  "\n`)), '--root', s.root])
    expect(p.code, show(p)).toBe(1)
    expect(p.stdout).toBe('')
    expect(p.stderr).toMatch(/manifest\.yaml:6:22: exec#open: command cannot be run: Unterminated single-quoted string/)
    expect(p.stderr).toMatch(/manifest\.yaml:9:22: exec#empty: command cannot be run: no command to execute/)
  })

  it.each([
    ['resources: []', res('').replace('  resources:\n', '  resources: []\n')],
    ['no resources key', 'ccm:\n  fail_on_error: true\n'],
  ])('refuses a manifest without resources (%s): "manifest must contain resources"', async (_, text) => {
    const s = withEtc()
    const r = await plait(['apply', s.manifest(text), '--root', s.root, ...state])
    if (r.code !== 1 || !/^error: .*manifest\.yaml:\d+:\d+: manifest must contain resources$/m.test(r.stderr) || r.stdout !== '') throw new Error(show(r))
  })
})

describe.concurrent('post_message (9)', () => {
  it('is printed after the run, failures and all, as CCM prints it once its run went through', async ({ expect }) => {
    const s = withEtc()
    const m = s.manifest(res(`    - exec:\n        - boom:\n            command: /bin/false\n`, '  pre_message: "PRE"\n  post_message: "POST: after all"\n'))
    const [a, noop] = [await plait(['apply', m, '--root', s.root, ...state]), await plait(['apply', m, '--root', s.root, '--noop', ...state])]
    for (const r of [a, noop]) {
      expect(r.code, show(r)).toBe(a === r ? 1 : 0)
      expect(r.stdout.trimEnd().endsWith('POST: after all'), show(r)).toBe(true)
    }
    expect(a.stdout).toMatch(/failed +exec#boom/)
  })
})

describe('docs (10)', () => {
  it('the file page no longer says that the common properties or facts in content are unsupported', ({ expect }) => {
    const page = fs.readFileSync(new URL('../../docs/resources/file.md', import.meta.url), 'utf8')
    expect(page).not.toMatch(/`alias`, `require`, `subscribe`, `control`, `health_checks` and `register_when_stable` are not supported yet/)
    expect(page).not.toMatch(/facts and environment variables are not supported yet/)
    expect(page).toMatch(/takes the common properties `alias`, `require`, `control` and `health_checks`/)
  })
})
