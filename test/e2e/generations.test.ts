// Generations and rollback through the built binary under a temp root: two applies record two
// generations; `plait history` lists them (text and JSON); `plait rollback --to 1` makes a plan
// that `plait show` renders and `plait apply` applies, restoring the files of generation 1 and
// listing the command it cannot undo; bad requests are clear errors.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const uid = String(process.getuid?.() ?? 0)
const gid = String(process.getgid?.() ?? 0)

const manifest = (s: Sandbox, conf: string, extra = ''): string =>
  s.manifest(`ccm:
  resources:
    - file:
        - defaults:
            owner: "${uid}"
            group: "${gid}"
            mode: "0644"
        - /etc/app.conf:
            content: "${conf}"
${extra}`)

const read = (s: Sandbox, p: string): string | undefined => (fs.existsSync(s.at(p)) ? fs.readFileSync(s.at(p), 'utf8') : undefined)

describe('generations and rollback', () => {
  it('apply twice, history lists 2, rollback --to 1 is a plan that restores generation 1 and lists the exec it cannot undo', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    fs.writeFileSync(s.at('/etc/app.conf'), 'original\n', { mode: 0o600 })
    const first = await plait(['apply', manifest(s, 'v1\\n'), '--root', s.root])
    expect(first.code, show(first)).toBe(0)
    expect(first.stdout).toContain('Recorded generation 1 (plait history; plait rollback --to 0 undoes it).')
    const second = await plait([
      'apply',
      manifest(s, 'v2\\n', `        - /etc/extra.conf:\n            content: "extra\\n"\n    - exec:\n        - marker:\n            command: /usr/bin/touch ${s.at('/marker')}\n`),
      '--root',
      s.root,
    ])
    expect(second.code, show(second)).toBe(0)
    expect([read(s, '/etc/app.conf'), read(s, '/etc/extra.conf')]).toEqual(['v2\n', 'extra\n'])

    const history = await plait(['history', '--root', s.root])
    expect(history.code, show(history)).toBe(0)
    expect(history.stdout).toMatch(/^generation 2 {2}\d{4}-\d\d-\d\dT/)
    expect(history.stdout).toContain('  changed   3 resources, 2 files imaged (3 B kept)')
    expect(history.stdout).toMatch(/cannot be restored:\n {4}exec#marker: run \/usr\/bin\/touch .* \(ran; cannot be undone\)/)
    expect(history.stdout).toMatch(/generation 1 {2}.*\n {2}plan {6}sha256:[0-9a-f]{64}\n {2}manifest {2}.*manifest\.yaml \(sha256 [0-9a-f]{12}\)\n {2}changed {3}1 resource, 1 file imaged \(9 B kept\)/)
    const json = await plait(['history', '--root', s.root, '--json'])
    const listed = JSON.parse(json.stdout) as { generations: Array<{ number: number; resources: number; files: number; cannotRestore: string[] }>; problems: string[] }
    expect(listed.generations.map((g) => [g.number, g.resources, g.files, g.cannotRestore.length])).toEqual([
      [1, 1, 1, 0],
      [2, 3, 2, 1],
    ])
    expect(listed.problems).toEqual([])

    const out = path.join(s.host, 'rollback.json')
    const rb = await plait(['rollback', '--to', '1', '--root', s.root, '--out', out])
    expect(rb.code, show(rb)).toBe(0)
    expect(rb.stdout).toContain('plait plan of plait rollback --to 1')
    expect(rb.stdout).toContain('~ file#/etc/app.conf')
    expect(rb.stdout).toContain('- file#/etc/extra.conf')
    expect(rb.stdout).toContain('Plan: 0 to create, 1 to change, 1 to delete, 0 unchanged.')
    expect(rb.stdout).toMatch(/Rolling back to generation 1 cannot restore 1 thing:\n {2}exec#marker: run \/usr\/bin\/touch .*: ran in generation 2 and cannot be undone/)
    expect(rb.stdout).toContain(`Saved the plan to ${out}.`)
    // nothing changed yet: it is only a plan
    expect(read(s, '/etc/app.conf')).toBe('v2\n')

    const shown = await plait(['show', out])
    expect(shown.code, show(shown)).toBe(0)
    expect(shown.stdout).toMatch(/ -v2\n +\+v1\n/)

    const applied = await plait(['apply', out, '--root', s.root])
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stdout).toContain('Rolling back to generation 1 cannot restore 1 thing:')
    expect(applied.stdout).toContain('Recorded generation 3')
    expect([read(s, '/etc/app.conf'), read(s, '/etc/extra.conf')]).toEqual(['v1\n', undefined])
    // the marker the command made stays: it was listed as what cannot be undone
    expect(fs.existsSync(s.at('/marker'))).toBe(true)

    // and back to before the first apply: the original file with its mode
    const zero = await plait(['rollback', '--to', '0', '--root', s.root, '--out', out])
    expect(zero.code, show(zero)).toBe(0)
    const back = await plait(['apply', out, '--root', s.root])
    expect(back.code, show(back)).toBe(0)
    expect(read(s, '/etc/app.conf')).toBe('original\n')
    expect(fs.statSync(s.at('/etc/app.conf')).mode & 0o777).toBe(0o600)
  })

  it('a saved rollback plan is refused when a file changed after it was made', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    expect((await plait(['apply', manifest(s, 'v1\\n'), '--root', s.root])).code).toBe(0)
    const out = path.join(s.host, 'rollback.json')
    expect((await plait(['rollback', '--to', '0', '--root', s.root, '--out', out])).code).toBe(0)
    fs.writeFileSync(s.at('/etc/app.conf'), 'edited by hand\n')
    const r = await plait(['apply', out, '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('refusing a stale plan')
    expect(read(s, '/etc/app.conf')).toBe('edited by hand\n')
  })

  it('prunes old generations, and refuses to roll back past the oldest kept', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    for (const v of ['a', 'b', 'c']) expect((await plait(['apply', manifest(s, v), '--root', s.root])).code).toBe(0)
    const pruned = await plait(['history', '--root', s.root, '--prune', '1', '--json'])
    expect(pruned.code, show(pruned)).toBe(0)
    expect(pruned.stderr).toBe('Pruned generations 1, 2.\n')
    expect((JSON.parse(pruned.stdout) as { generations: Array<{ number: number }> }).generations.map((g) => g.number)).toEqual([3])
    const r = await plait(['rollback', '--to', '0', '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('error: --to 0: generation 1 is no longer kept, so the files cannot be brought back to generation 0; the oldest generation it can go back to is 2')
  })

  it('says clearly what is wrong with a bad request', async () => {
    const s = sandbox()
    const none = await plait(['rollback', '--to', '0', '--root', s.root])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('error: there are no generations yet: an apply that changes something records one')
    const bad = await plait(['rollback', '--to', 'two', '--root', s.root])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('error: --to two: expected a whole number from 0')
    const empty = await plait(['history', '--root', s.root])
    expect(empty.code, show(empty)).toBe(0)
    expect(empty.stdout).toBe('No generations: an apply that changes something records one.\n')
    const prune = await plait(['history', '--root', s.root, '--prune', '-1'])
    expect(prune.code).toBe(1)
    expect(prune.stderr).toContain('--prune -1: expected a whole number from 0')
  })
})
