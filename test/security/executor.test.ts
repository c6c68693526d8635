// security: the executor keeps what recovery needs. A damaged journal is never read as "nothing to
// do" and deleted; a failed undo keeps the journal and backups for the next apply to retry; a
// resource that does not converge is reported; the state directory is private; a lock without a
// start time does not block forever.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Journal from '../../src/executor/Journal.js'
import * as Lock from '../../src/executor/lock.js'
import * as Recover from '../../src/executor/recover.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import { cleanup, ensureBuilt, plait, repo, sandbox, show, stackFrame, tempDir } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const lines = (...rs: unknown[]): string => rs.map((r) => JSON.stringify(r) + '\n').join('')
const run = { _tag: 'run', plan: 'sha256:x', atomic: true, pid: 42 }
const step = (seq: number) => ({ _tag: 'step', seq, id: 'file#/a', what: `write /a (${seq})`, undo: { _tag: 'Remove', paths: ['/a'] } })

describe('reading a journal', () => {
  it('ignores only a torn last line', () => {
    const r = Journal.read(lines(run, step(1)) + '{"_tag":"do')
    expect(r._tag === 'Unfinished' && r.steps.map((s) => s.seq)).toEqual([1])
  })

  it('calls a torn or garbage line anywhere else damaged, with its number', () => {
    expect(Journal.read('{"_tag":"ru\n' + lines(step(1)))).toEqual({ _tag: 'Damaged', line: 1, reason: 'not a JSON record' })
    expect(Journal.read(lines(run) + 'garbage\n' + lines(step(2)))).toEqual({ _tag: 'Damaged', line: 2, reason: 'not a JSON record' })
    expect(Journal.read(lines(run, { _tag: 'step', seq: 1 }) + lines(step(2)))).toMatchObject({ _tag: 'Damaged', line: 2 })
    expect(Journal.read(lines(step(1), run))).toMatchObject({ _tag: 'Damaged', line: 1, reason: 'the first record is not the run header' })
    expect(Journal.read(lines(run, { _tag: 'step', seq: 1, id: 'x', what: 'y', undo: { _tag: 'Explode' } }))).toMatchObject({ _tag: 'Damaged', line: 2 })
  })

  it('is clean when empty, committed, or only a torn header (no step began)', () => {
    expect(Journal.read('')._tag).toBe('Clean')
    expect(Journal.read('{"_tag":"ru')._tag).toBe('Clean')
    expect(Journal.read(lines(run, step(1), { _tag: 'commit' }))._tag).toBe('Clean')
  })
})

describe('recovery from a damaged journal', () => {
  it('refuses, saying where, and keeps the journal and the backups', async () => {
    const root = tempDir()
    const state = path.join(root, 'var/lib/plait')
    fs.mkdirSync(path.join(state, 'backups'), { recursive: true })
    fs.writeFileSync(path.join(state, 'backups', '1'), 'the only copy\n')
    const journal = '{"_tag":"ru\n' + lines(step(1))
    fs.writeFileSync(path.join(state, 'journal'), journal)
    const r = await Recover.recover(Posix.make({ root }), '/var/lib/plait')
    expect(E.isLeft(r) && r.left.message).toBe('the journal /var/lib/plait/journal is damaged at line 1 (not a JSON record): plait cannot tell what the unfinished run changed')
    expect(fs.readFileSync(path.join(state, 'journal'), 'utf8')).toBe(journal)
    expect(fs.readFileSync(path.join(state, 'backups', '1'), 'utf8')).toBe('the only copy\n')
  })

  it('through the CLI: apply refuses with exit 1 and no stack trace', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/var/lib/plait'), { recursive: true })
    fs.writeFileSync(s.at('/var/lib/plait/journal'), 'garbage\n' + lines(run))
    const m = s.manifest('ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('is damaged at line 1')
    expect(r.stderr).not.toMatch(stackFrame)
    expect(fs.existsSync(s.at('/var/lib/plait/journal'))).toBe(true)
  })
})

describe('a failed undo', () => {
  it('reports its own cause, keeps the journal and backups, leaves no hidden half-restore, and the next apply retries', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'), { recursive: true })
    fs.writeFileSync(s.at('/etc/a.conf'), 'old\n')
    const uid = String(process.getuid?.() ?? 0)
    // the second resource destroys the backups, then fails: the atomic rollback of the first cannot restore it
    const m = s.manifest(`ccm:
  resources:
    - file:
        - /etc/a.conf:
            content: "new\\n"
            owner: "${uid}"
            group: "${uid}"
            mode: "0644"
    - exec:
        - break:
            command: ${JSON.stringify(`/bin/sh -c 'rm -rf ${s.at('/var/lib/plait/backups')}/*; exit 1'`)}
`)
    const r = await plait(['apply', m, '--root', s.root, '--atomic'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout).toMatch(/could not undo .*backup .* is missing/)
    expect(r.stdout).toContain('the journal and backups are kept in /var/lib/plait')
    expect(fs.existsSync(s.at('/var/lib/plait/journal'))).toBe(true)
    expect(fs.readdirSync(s.at('/etc')).filter((n) => n.includes('plait-restore'))).toEqual([])
    // the next apply retries the rollback first, and says why it still cannot
    const again = await plait(['apply', m, '--root', s.root])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/cannot roll back the unfinished run/)
    expect(fs.existsSync(s.at('/var/lib/plait/journal'))).toBe(true)
  })
})

describe('post-apply verification', () => {
  it('reports a resource that a provider claims to have changed but did not converge', async () => {
    const s = sandbox()
    const m = s.manifest(`ccm:\n  resources:\n    - kv:\n        - abc:\n            value: abcdef\n`)
    const r = await plait(['apply', m, '--root', s.root, '--provider-path', path.join(repo, 'test/libral/fixtures')])
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout).toMatch(/failed +kv#abc: did not reach the desired state/)
  })
})

describe('the state directory', () => {
  it('is created 0700, and --json and PLAIT_STATE_DIR work', async () => {
    const s = sandbox()
    const uid = String(process.getuid?.() ?? 0)
    const m = s.manifest(`ccm:\n  resources:\n    - file:\n        - /f:\n            content: "x"\n            owner: "${uid}"\n            group: "${uid}"\n            mode: "0644"\n`)
    const r = await plait(['apply', m, '--root', s.root, '--json'], { env: { PLAIT_STATE_DIR: '/srv/state' } })
    expect(r.code, show(r)).toBe(0)
    const report = JSON.parse(r.stdout) as { resources: Array<{ id: string; outcome: string }> }
    expect(report.resources).toEqual([expect.objectContaining({ id: 'file#/f', outcome: 'changed' })])
    expect(fs.statSync(s.at('/srv/state')).mode & 0o777).toBe(0o700)
    expect(fs.existsSync(s.at('/var/lib/plait'))).toBe(false)
  })

  it('that cannot be created is a clear error', async () => {
    const s = sandbox()
    fs.writeFileSync(s.at('/srv'), 'a file where a directory must be\n')
    const r = await plait(['apply', s.manifest('ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n'), '--root', s.root, '--state-dir', '/srv/state'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/\/srv/)
    expect(r.stderr).not.toMatch(stackFrame)
  })
})

describe('the run lock', () => {
  it('without a start time is taken over, even when its pid is alive (pid 1)', async () => {
    const root = tempDir()
    fs.mkdirSync(path.join(root, 'state'))
    fs.writeFileSync(path.join(root, 'state', 'lock'), JSON.stringify({ pid: 1 }) + '\n')
    const r = await Lock.acquire(Posix.make({ root }), '/state/lock')
    expect(E.isRight(r) && r.right.tookOver).toEqual({ pid: 1, start: null })
    if (E.isRight(r)) await r.right.release()
  })
})
