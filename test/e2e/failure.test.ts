// e2e: a step that really fails. Plan refuses a file whose directory is missing or is a file, so
// the failures here come from a parent that changed after the plan was saved (a parent directory
// is not part of the staleness check: only the managed paths are). By default the failed resource is reported and the others run;
// with --atomic the resources changed before it are rolled back; with fail_on_error the rest are
// skipped. pre_message and post_message are printed around the run.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, exists, findNames, modeOf, plait, put, read, sandbox, show, snapshot, stackFrame, stateRel, type Run, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const manifest = (failOnError: boolean): string => `data:
  who: operators
ccm:
  fail_on_error: ${failOnError}
  pre_message: "PRE: starting the run for {{ lookup('data.who') }}"
  post_message: "POST: the run is over"
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/a.conf:
            content: "new a\\n"
        - /etc/app/newdir:
            ensure: directory
            mode: "0755"
        - /etc/app/b.conf:
            content: "new b\\n"
        - /etc/app/blocker/x.conf:
            content: "under a regular file\\n"
        - /etc/app/d.conf:
            content: "new d\\n"
        - /etc/app/gone.conf:
            ensure: absent
        - /etc/missing/y.conf:
            content: "parent missing\\n"
`

const seed = (s: Sandbox): void => {
  put(s.at('/etc/app/a.conf'), 'old a\n', 0o600)
  fs.mkdirSync(s.at('/etc/app/blocker'))
  fs.mkdirSync(s.at('/etc/missing'))
  put(s.at('/etc/app/gone.conf'), 'gone\n', 0o644)
}

/** Plans and saves the plan, then breaks two parents: a regular file where a directory was, and a directory removed. */
const planThenBreak = async (s: Sandbox, failOnError: boolean): Promise<string> => {
  const m = s.manifest(manifest(failOnError))
  const plan = path.join(s.host, 'plan.json')
  const p = await plait(['plan', m, '--root', s.root, '--out', plan])
  if (p.code !== 0) throw new Error(show(p))
  fs.rmdirSync(s.at('/etc/app/blocker'))
  put(s.at('/etc/app/blocker'), 'I am a regular file\n', 0o644)
  fs.rmdirSync(s.at('/etc/missing'))
  return plan
}

const outcome = (r: Run, id: string): string | undefined => {
  // report lines only (apply MANIFEST prints the plan first, whose lines start with + ~ -)
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const line = r.stdout.split('\n').find((l) => new RegExp(`^(changed|failed|rolled back|stable|skipped)\\s+file#${escaped}(:|$)`).test(l))
  return line === undefined ? undefined : line.replace(/\s+file#.*/, '')
}

const around = (expect: import('vitest').ExpectStatic, r: Run): void => {
  const pre = r.stdout.indexOf('PRE: starting the run for operators')
  const first = r.stdout.search(/^(changed|failed|rolled back|stable|skipped) /m)
  const post = r.stdout.indexOf('POST: the run is over')
  expect(pre, show(r)).toBeGreaterThanOrEqual(0)
  expect(first).toBeGreaterThan(pre)
  expect(post).toBeGreaterThan(first)
  expect(r.stdout.trimEnd().endsWith('POST: the run is over')).toBe(true)
}

const clean = (expect: import('vitest').ExpectStatic, s: Sandbox): void => {
  expect(findNames(s.root, /\.plait-/)).toEqual([])
  expect(fs.readdirSync(path.join(s.root, stateRel)).filter((n) => n !== 'generations')).toEqual([]) // generations stay (docs/generations.md)
}

describe.concurrent('failing steps', () => {
  it('default: the failing resources are reported failed, the others changed, exit 1', async ({ expect }) => {
    const s = sandbox()
    seed(s)
    const plan = await planThenBreak(s, false)
    const r = await plait(['apply', plan, '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).not.toMatch(stackFrame)
    around(expect, r)
    expect(outcome(r, '/etc/app/a.conf')).toBe('changed')
    expect(outcome(r, '/etc/app/newdir')).toBe('changed')
    expect(outcome(r, '/etc/app/b.conf')).toBe('changed')
    expect(outcome(r, '/etc/app/blocker/x.conf')).toBe('failed')
    expect(r.stdout).toMatch(/failed\s+file#\/etc\/app\/blocker\/x\.conf: write \/etc\/app\/blocker\/x\.conf .*failed: .*not a directory/)
    expect(outcome(r, '/etc/app/d.conf')).toBe('changed')
    expect(outcome(r, '/etc/app/gone.conf')).toBe('changed')
    expect(outcome(r, '/etc/missing/y.conf')).toBe('failed')
    expect(r.stdout).toMatch(/failed\s+file#\/etc\/missing\/y\.conf: .*\/etc\/missing does not exist/)
    expect(r.stdout).not.toMatch(/y\.conf.*\n.*rolled back to how it was/) // nothing was written, so nothing to roll back
    expect(r.stdout).toContain('Apply: 5 changed, 0 stable, 2 failed, 0 skipped.')
    expect(read(s.at('/etc/app/a.conf'))).toBe('new a\n')
    expect(modeOf(s.at('/etc/app/a.conf'))).toBe('0644')
    expect(read(s.at('/etc/app/d.conf'))).toBe('new d\n')
    expect(exists(s.at('/etc/app/gone.conf'))).toBe(false)
    expect(read(s.at('/etc/app/blocker'))).toBe('I am a regular file\n')
    expect(exists(s.at('/etc/missing'))).toBe(false)
    clean(expect, s)
  })

  it('--atomic: the resources changed before the failure are rolled back and the rest not run', async ({ expect }) => {
    const s = sandbox()
    seed(s)
    const plan = await planThenBreak(s, false)
    const before = snapshot(s.root)
    const r = await plait(['apply', plan, '--root', s.root, '--atomic'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).not.toMatch(stackFrame)
    around(expect, r)
    expect(outcome(r, '/etc/app/a.conf')).toBe('rolled back')
    expect(outcome(r, '/etc/app/newdir')).toBe('rolled back')
    expect(outcome(r, '/etc/app/b.conf')).toBe('rolled back')
    expect(outcome(r, '/etc/app/blocker/x.conf')).toBe('failed')
    expect(outcome(r, '/etc/app/d.conf')).toBe('skipped')
    expect(outcome(r, '/etc/app/gone.conf')).toBe('skipped')
    expect(outcome(r, '/etc/missing/y.conf')).toBe('skipped')
    expect(r.stdout).toMatch(/skipped\s+file#\/etc\/app\/d\.conf: not run: file#\/etc\/app\/blocker\/x\.conf failed and the run is atomic/)
    expect(r.stdout).toMatch(/^Rolled back:$/m)
    expect(r.stdout).toMatch(/^ {2}file#\/etc\/app\/a\.conf: undid write/m)
    expect(r.stdout).toContain('Apply: 0 changed, 0 stable, 1 failed, 3 skipped, 3 rolled back.')
    // the machine is as it was (the state directory /var/lib/plait and its new parents aside)
    expect(snapshot(s.root, ['var'])).toEqual(before)
    expect(read(s.at('/etc/app/a.conf'))).toBe('old a\n')
    expect(modeOf(s.at('/etc/app/a.conf'))).toBe('0600')
    clean(expect, s)
    // the same saved plan can be applied again after the cause is fixed
    fs.rmSync(s.at('/etc/app/blocker'))
    fs.mkdirSync(s.at('/etc/app/blocker'))
    fs.mkdirSync(s.at('/etc/missing'))
    const again = await plait(['apply', plan, '--root', s.root, '--atomic'])
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('Apply: 7 changed, 0 stable, 0 failed, 0 skipped.')
    expect(read(s.at('/etc/app/blocker/x.conf'))).toBe('under a regular file\n')
  })

  it('fail_on_error: the resources after the failure are skipped, the earlier ones stay changed', async ({ expect }) => {
    const s = sandbox()
    seed(s)
    const plan = await planThenBreak(s, true)
    const r = await plait(['apply', plan, '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    around(expect, r)
    expect(outcome(r, '/etc/app/a.conf')).toBe('changed')
    expect(outcome(r, '/etc/app/newdir')).toBe('changed')
    expect(outcome(r, '/etc/app/b.conf')).toBe('changed')
    expect(outcome(r, '/etc/app/blocker/x.conf')).toBe('failed')
    expect(outcome(r, '/etc/app/d.conf')).toBe('skipped')
    expect(outcome(r, '/etc/app/gone.conf')).toBe('skipped')
    expect(outcome(r, '/etc/missing/y.conf')).toBe('skipped')
    expect(r.stdout).toMatch(/skipped\s+file#\/etc\/app\/d\.conf: not run: file#\/etc\/app\/blocker\/x\.conf failed and fail_on_error is set/)
    expect(r.stdout).toContain('Apply: 3 changed, 0 stable, 1 failed, 3 skipped.')
    expect(read(s.at('/etc/app/a.conf'))).toBe('new a\n')
    expect(fs.lstatSync(s.at('/etc/app/newdir')).isDirectory()).toBe(true)
    expect(exists(s.at('/etc/app/d.conf'))).toBe(false)
    expect(read(s.at('/etc/app/gone.conf'))).toBe('gone\n')
    clean(expect, s)
  })
})
