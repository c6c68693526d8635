// e2e: the happy path of the built binary: plan, --detailed-exitcode, --json, --out, show, apply a
// saved plan, plan again, apply a manifest in one go; the real files it leaves below a temp root.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, exists, modeOf, otherAccount, plait, put, read, repo, sandbox, show, snapshot, stackFrame, stateRel, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const other = otherAccount() ?? { user: 'root', uid: 0, group: 'root', gid: 0 }

const manifestText = `# a manifest exercising defaults, both resource forms, templates and every action
data:
  app: hello
  port: 8080
  dir: /etc/app
ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/keep.conf:
            content: "same\\n"
        - /etc/app/change.conf:
            content: |
              name = {{ lookup('data.app') }}
              port = \${ Data.port }
        - /etc/app/attrs.conf:
            mode: "0640"
        - /etc/app/new:
            ensure: directory
            mode: 0750
        - /etc/app/new/created.conf:
            content: "created\\n"
            mode: 0600
        - "{{ lookup('data.dir') }}/owned.conf":
            content: "owned\\n"
            owner: ${other.user}
            group: ${other.group}
            mode: 640
        - "/etc/app/with space é.conf":
            content: "spaced\\n"
            owner: 4242
            group: 4243
            mode: 0o600
        - /etc/app/gone.conf:
            ensure: absent
        - /etc/app/olddir:
            ensure: absent
            force: true
    - file:
        name: /etc/app/named.conf
        ensure: present
        owner: root
        group: root
        mode: "0444"
        content: "named form\\n"
`

/** The machine before: one unchanged file, two to change, one file and one non-empty directory to remove. */
const seed = (at: (p: string) => string): void => {
  put(at('/etc/app/keep.conf'), 'same\n', 0o644)
  put(at('/etc/app/change.conf'), 'name = old\n', 0o600)
  put(at('/etc/app/attrs.conf'), 'attrs\n', 0o600)
  put(at('/etc/app/gone.conf'), 'bye\n', 0o644)
  put(at('/etc/app/olddir/a'), 'a\n', 0o644)
  put(at('/etc/app/olddir/sub/b'), 'b\n', 0o600)
  fs.chmodSync(at('/etc/app'), 0o755)
}

describe('happy path', () => {
  it('plans, saves, shows, applies a saved plan, and then has nothing to do', async () => {
    const s = sandbox()
    seed(s.at)
    const m = s.manifest(manifestText)
    const before = snapshot(s.root)
    const planOut = path.join(s.host, 'plan.json')
    const planOut2 = path.join(s.host, 'plan2.json')

    const [text, detailed, json, saved] = await Promise.all([
      plait(['plan', m, '--root', s.root]),
      plait(['plan', m, '--root', s.root, '--detailed-exitcode']),
      plait(['plan', m, '--root', s.root, '--json', '--out', planOut2]),
      plait(['plan', m, '--root', s.root, '--out', planOut]),
    ])

    // text
    expect(text.code, show(text)).toBe(0)
    expect(text.stderr).toBe('')
    const lines = text.stdout.split('\n')
    expect(lines).toContain('+ file#/etc/app/new')
    expect(lines).toContain('+ file#/etc/app/new/created.conf')
    expect(lines).toContain('+ file#/etc/app/owned.conf')
    expect(lines).toContain('+ file#/etc/app/named.conf')
    expect(lines).toContain('+ file#/etc/app/with space é.conf')
    expect(lines).toContain('~ file#/etc/app/change.conf')
    expect(lines).toContain('~ file#/etc/app/attrs.conf')
    expect(lines).toContain('- file#/etc/app/gone.conf')
    expect(lines).toContain('- file#/etc/app/olddir')
    expect(text.stdout).not.toMatch(/file#\/etc\/app\/keep\.conf/) // unchanged resources are listed only with -v
    expect(text.stdout).toContain('+name = hello')
    expect(text.stdout).toContain('+port = 8080')
    expect(text.stdout).toContain('-name = old')
    expect(text.stdout).toMatch(/mode 0600 → 0640/)
    // diffs show ---/+++ and hunks only (plan.ts drops jsdiff's "Index:" and "====" header lines)
    expect(text.stdout).toMatch(/^ {6}--- \/etc\/app\/change\.conf$/m)
    expect.soft(text.stdout).not.toMatch(/^\s*(={10,}|Index: .*)$/m)
    expect(text.stdout).toContain('Plan: 5 to create, 2 to change, 2 to delete, 1 unchanged.')
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 5 to create, 2 to change, 2 to delete, 1 unchanged.')

    // --detailed-exitcode with changes
    expect(detailed.code, show(detailed)).toBe(2)
    expect(detailed.stdout).toBe(text.stdout)

    // --json: the plan file format, and the same bytes as a file saved by another run (determinism)
    expect(json.code, show(json)).toBe(0)
    const plan = JSON.parse(json.stdout) as {
      format: string
      root: string
      hash: string
      summary: Record<string, number>
      resources: Array<{ id: string; action: string; desired: { mode?: string; owner?: { name: string; id: number } } }>
    }
    expect(plan.format).toBe('plait.plan/2')
    expect(plan.root).toBe(fs.realpathSync(s.root))
    expect(plan.hash).toMatch(/^(sha256:)?[0-9a-f]{64}$/)
    expect(plan.summary).toEqual({ create: 5, update: 2, delete: 2, unchanged: 1 })
    expect(plan.resources.map((r) => r.id)).toEqual([
      'file#/etc/app/keep.conf',
      'file#/etc/app/change.conf',
      'file#/etc/app/attrs.conf',
      'file#/etc/app/new',
      'file#/etc/app/new/created.conf',
      'file#/etc/app/owned.conf',
      'file#/etc/app/with space é.conf',
      'file#/etc/app/gone.conf',
      'file#/etc/app/olddir',
      'file#/etc/app/named.conf',
    ])
    const desired = Object.fromEntries(plan.resources.map((r) => [r.id, r.desired]))
    expect(desired['file#/etc/app/new']?.mode).toBe('0750') // unquoted 0750 keeps its octal spelling
    expect(desired['file#/etc/app/new/created.conf']?.mode).toBe('0600')
    expect(desired['file#/etc/app/owned.conf']?.mode).toBe('0640') // unquoted 640 is octal too
    expect(desired['file#/etc/app/owned.conf']?.owner).toEqual({ name: other.user, id: other.uid })
    expect(desired['file#/etc/app/keep.conf']?.mode).toBe('0644') // from defaults
    expect(desired['file#/etc/app/with space é.conf']?.mode).toBe('0600') // 0o600
    expect(desired['file#/etc/app/with space é.conf']?.owner).toEqual({ name: '4242', id: 4242 }) // a numeric id not in the user database

    // --out: the file, and the plan text plus a note on stdout
    expect(saved.code, show(saved)).toBe(0)
    expect(saved.stdout.startsWith(text.stdout)).toBe(true)
    expect(saved.stdout).toContain(`Saved the plan to ${planOut}`)
    const savedBytes = fs.readFileSync(planOut)
    expect(savedBytes.equals(fs.readFileSync(planOut2))).toBe(true)
    expect(savedBytes.toString('utf8')).toBe(json.stdout)

    // planning wrote nothing below the root (not even the state directory)
    expect(snapshot(s.root)).toEqual(before)

    // show renders the saved plan exactly as plan did
    const shown = await plait(['show', planOut])
    expect(shown.code, show(shown)).toBe(0)
    expect(shown.stdout).toBe(text.stdout)

    // apply the saved plan, under a hostile umask
    const applied = await plait(['apply', planOut, '--root', s.root], { umask: 0o077 })
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stderr).toBe('')
    const out = applied.stdout.split('\n')
    expect(out).toContain('stable   file#/etc/app/keep.conf')
    for (const id of ['change.conf', 'attrs.conf', 'new', 'new/created.conf', 'owned.conf', 'with space é.conf', 'gone.conf', 'olddir', 'named.conf']) {
      expect(out.some((l) => l.startsWith(`changed  file#/etc/app/${id}:`)), `changed line for ${id}\n${applied.stdout}`).toBe(true)
    }
    expect(applied.stdout).toContain('Apply: 9 changed, 1 stable, 0 failed, 0 skipped.')

    // the real files
    expect(read(s.at('/etc/app/keep.conf'))).toBe('same\n')
    expect(read(s.at('/etc/app/change.conf'))).toBe('name = hello\nport = 8080\n')
    expect(modeOf(s.at('/etc/app/change.conf'))).toBe('0644')
    expect(read(s.at('/etc/app/attrs.conf'))).toBe('attrs\n')
    expect(modeOf(s.at('/etc/app/attrs.conf'))).toBe('0640')
    expect(fs.lstatSync(s.at('/etc/app/new')).isDirectory()).toBe(true)
    expect(modeOf(s.at('/etc/app/new'))).toBe('0750')
    expect(read(s.at('/etc/app/new/created.conf'))).toBe('created\n')
    expect(modeOf(s.at('/etc/app/new/created.conf'))).toBe('0600')
    expect(read(s.at('/etc/app/owned.conf'))).toBe('owned\n')
    expect(modeOf(s.at('/etc/app/owned.conf'))).toBe('0640')
    const st = fs.lstatSync(s.at('/etc/app/owned.conf'))
    expect([st.uid, st.gid]).toEqual([other.uid, other.gid])
    const named = fs.lstatSync(s.at('/etc/app/named.conf'))
    expect([named.uid, named.gid, modeOf(s.at('/etc/app/named.conf'))]).toEqual([0, 0, '0444'])
    expect(read(s.at('/etc/app/named.conf'))).toBe('named form\n')
    const spaced = fs.lstatSync(s.at('/etc/app/with space é.conf'))
    expect([spaced.uid, spaced.gid, modeOf(s.at('/etc/app/with space é.conf'))]).toEqual([4242, 4243, '0600'])
    expect(exists(s.at('/etc/app/gone.conf'))).toBe(false)
    expect(exists(s.at('/etc/app/olddir'))).toBe(false)
    // the state directory exists, holds no journal, lock or backups after a clean run
    expect(fs.readdirSync(path.join(s.root, stateRel)).filter((n) => n !== 'generations')).toEqual([]) // generations stay (docs/generations.md)
    // no temp files left beside managed files
    expect(fs.readdirSync(s.at('/etc/app')).filter((n) => n.startsWith('.'))).toEqual([])

    // plan again: nothing to do, exit 0 with --detailed-exitcode; and a saved plan is not applied twice
    const [again, reapply] = await Promise.all([
      plait(['plan', m, '--root', s.root, '--detailed-exitcode']),
      plait(['apply', planOut, '--root', s.root]),
    ])
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('No changes.')
    expect(again.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 10 unchanged.')
    expect(again.stdout).not.toMatch(/^[+~-] /m)
    expect(reapply.code, show(reapply)).toBe(1)
    expect(reapply.stderr).toMatch(/stale/)
    expect(reapply.stderr).not.toMatch(stackFrame)
  })

  it('applies a manifest in one go, with sources relative to the manifest directory, then is stable', async () => {
    const s = sandbox()
    const m = path.join(repo, 'test/e2e/fixtures/source/manifest.yaml')
    // a decoy with the same relative path below the working directory: it must not be used
    const cwd = tempDir()
    put(path.join(cwd, 'files/motd.txt'), 'decoy from the working directory\n')
    const first = await plait(['apply', m, '--root', s.root], { cwd, umask: 0o027 })
    expect(first.code, show(first)).toBe(0)
    // the plan is printed first, then the report
    const planAt = first.stdout.indexOf('Plan: 4 to create, 0 to change, 0 to delete, 0 unchanged.')
    const reportAt = first.stdout.indexOf('Apply: 4 changed, 0 stable, 0 failed, 0 skipped.')
    expect(planAt, first.stdout).toBeGreaterThanOrEqual(0)
    expect(reportAt).toBeGreaterThan(planAt)
    const motd = fs.readFileSync(path.join(repo, 'test/e2e/fixtures/source/files/motd.txt'), 'utf8')
    expect(read(s.at('/etc/motd'))).toBe(motd)
    expect(modeOf(s.at('/etc/motd'))).toBe('0644')
    expect(fs.readFileSync(s.at('/srv/data/blob.bin')).equals(fs.readFileSync(path.join(repo, 'test/e2e/fixtures/source/files/blob.bin')))).toBe(true)
    expect(modeOf(s.at('/srv/data/blob.bin'))).toBe('0600')
    expect(modeOf(s.at('/srv/data'))).toBe('0755')
    expect(modeOf(s.at('/srv'))).toBe('0755')

    const second = await plait(['apply', m, '--root', s.root], { cwd })
    expect(second.code, show(second)).toBe(0)
    expect(second.stdout).toContain('No changes.')
    expect(second.stdout).toContain('Apply: 0 changed, 4 stable, 0 failed, 0 skipped.')
  })
})
