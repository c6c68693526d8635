// e2e: removing a special file (here a real fifo made with mkfifo). It cannot be copied, so it has
// no backup: the plan says its removal cannot be undone, the report lists it as irreversible, and
// an --atomic rollback names it instead of pretending to restore it.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, exists, plait, put, sandbox, show, stackFrame } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const manifest = (extra = ''): string => `ccm:
  resources:
    - file:
        - /run/app.fifo:
            ensure: absent
${extra}`

describe.concurrent('special files', () => {
  it('plans the removal of a fifo as irreversible, removes it and reports it', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('/run'))
    execFileSync('mkfifo', [s.at('/run/app.fifo')])
    const m = s.manifest(manifest())
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('- file#/run/app.fifo')
    expect(p.stdout).toContain('file.remove: special file exists (its removal cannot be undone)')
    const a = await plait(['apply', m, '--root', s.root])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/^Ran and cannot be undone:\n {2}file#\/run\/app\.fifo: remove special file \/run\/app\.fifo$/m)
    expect(exists(s.at('/run/app.fifo'))).toBe(false)
  })

  it('--atomic: a later failure rolls back what it can and names the fifo it could not bring back', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('/run'))
    fs.mkdirSync(s.at('/etc/app'), { recursive: true })
    execFileSync('mkfifo', [s.at('/run/app.fifo')])
    const m = s.manifest(
      manifest(`        - /etc/app/x.conf:
            content: "x\\n"
            owner: root
            group: root
            mode: "0644"
`),
    )
    const plan = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--out', plan])
    expect(p.code, show(p)).toBe(0)
    // the parent of x.conf becomes a regular file after the plan: the write fails at apply
    fs.rmdirSync(s.at('/etc/app'))
    put(s.at('/etc/app'), 'in the way\n')
    const a = await plait(['apply', plan, '--root', s.root, '--atomic'])
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).not.toMatch(stackFrame)
    expect(a.stdout).toMatch(/failed\s+file#\/etc\/app\/x\.conf/)
    expect(a.stdout).toContain('cannot undo remove special file /run/app.fifo: it is irreversible')
    expect(a.stdout).toMatch(/^changed\s+file#\/run\/app\.fifo: .*\n\s+the atomic rollback could not undo it; see file#\/etc\/app\/x\.conf$/m)
    expect(exists(s.at('/run/app.fifo'))).toBe(false)
  })
})
