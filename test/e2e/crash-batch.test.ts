// e2e: crashes inside a batch (docs/apply.md, "Batches"). Five new files in one directory are one
// batch: their step records reach the disk together, their temp files are written, then each is
// renamed in plan order. `PLAIT_CRASH_AT_STEP=N` SIGKILLs apply just before step N's rename: the
// steps before it are new, the rest old. The batch's resources end together, after all of them
// are verified, so recovery rolls back the whole batch (telling each step it undid), removes
// every temp file, and the next apply completes.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, findNames, plait, sandbox, show, snapshot, stackFrame, stateRel, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const names = ['a', 'b', 'c', 'd', 'e'] as const
const manifest = `ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
${names.map((n) => `        - /etc/app/${n}.conf:\n            content: "new ${n}\\n"\n`).join('')}`

const tempName = /\.plait-/

/** Each file: absent (old) or its new content (new); anything else is "neither". */
const states = (s: Sandbox): Array<'old' | 'new' | 'neither'> =>
  names.map((n) => {
    const p = s.at(`/etc/app/${n}.conf`)
    if (!fs.existsSync(p)) return 'old'
    return fs.readFileSync(p, 'utf8') === `new ${n}\n` && (fs.statSync(p).mode & 0o777) === 0o644 ? 'new' : 'neither'
  })

const planned = async (expect: import('vitest').ExpectStatic): Promise<{ s: Sandbox; m: string; plan: string }> => {
  const s = sandbox()
  fs.mkdirSync(s.at('/etc/app'), { recursive: true })
  const m = s.manifest(manifest)
  const plan = path.join(s.host, 'plan.json')
  const r = await plait(['plan', m, '--root', s.root, '--out', plan])
  expect(r.code, show(r)).toBe(0)
  return { s, m, plan }
}

const crash = async (expect: import('vitest').ExpectStatic, s: Sandbox, plan: string, n: number, atomic: boolean): Promise<void> => {
  const r = await plait(['apply', plan, '--root', s.root, ...(atomic ? ['--atomic'] : [])], { env: { PLAIT_CRASH_AT_STEP: String(n) } })
  expect(r.signal, show(r)).toBe('SIGKILL')
  expect(states(s), `after a crash at step ${n}`).toEqual(names.map((_, i) => (i < n - 1 ? 'new' : 'old')))
  // every step of the batch had its temp file written before the first rename
  expect(findNames(s.root, tempName)).toHaveLength(names.length - (n - 1))
}

const finished = (expect: import('vitest').ExpectStatic, s: Sandbox): void => {
  expect(states(s)).toEqual(names.map(() => 'new'))
  expect(findNames(s.root, tempName)).toEqual([])
  expect(fs.readdirSync(path.join(s.root, stateRel)).filter((x) => x !== 'generations')).toEqual([])
}

/** The journal's records of the dead run. */
const records = (s: Sandbox): Array<{ _tag: string; seq?: number; batch?: boolean }> =>
  fs
    .readFileSync(path.join(s.root, stateRel, 'journal'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { _tag: string })

describe.concurrent('a crash inside a batch, then recovery', () => {
  for (const n of [1, 3, 5]) {
    for (const atomic of [false, true]) {
      it(`${atomic ? '--atomic ' : ''}crash at step ${n} of ${names.length}: the batch's records were durable first; recovery undoes the ${n - 1} renamed step(s) and no other, and apply completes`, async ({ expect }) => {
        const { s, m, plan } = await planned(expect)
        await crash(expect, s, plan, n, atomic)
        const journal = records(s)
        expect(journal.filter((r) => r._tag === 'step').map((r) => [r.seq, r.batch])).toEqual(names.map((_, i) => [i + 1, true]))
        expect(journal.filter((r) => r._tag === 'begin').map((r) => r.seq)).toEqual(names.map((_, i) => i + 1))
        expect(journal.some((r) => r._tag === 'end')).toBe(false)

        const p = await plait(['plan', m, '--root', s.root])
        expect(p.stderr, show(p)).toMatch(/the next apply rolls back its 5 begun step\(s\) first/)

        const a = await plait(['apply', m, '--root', s.root])
        expect(a.code, show(a)).toBe(0)
        expect(a.stderr).not.toMatch(stackFrame)
        const recovered = a.stdout.split('\n').filter((l) => l.startsWith('recovered: '))
        // told newest first, one line for each file that had been renamed into place
        expect(recovered, show(a)).toEqual(names.slice(0, n - 1).reverse().map((x) => `recovered: file#/etc/app/${x}.conf: undid write /etc/app/${x}.conf (6 bytes, root:root 0644)`))
        expect(a.stdout).toMatch(/Apply: 5 changed, 0 stable, 0 failed, 0 skipped\./)
        finished(expect, s)
      })
    }
  }

  it('a crash after every rename of the batch, before its directory fsync: recovery undoes all five, and the saved plan applies again', async ({ expect }) => {
    const { s, plan } = await planned(expect)
    const before = snapshot(s.root, ['var'])
    await crash(expect, s, plan, 5, false)
    // do by hand what the step would have done next: the last rename (the directory fsync comes after it)
    const temp = findNames(s.root, tempName)
    expect(temp).toHaveLength(1)
    fs.renameSync(temp[0]!, s.at('/etc/app/e.conf'))
    expect(states(s)).toEqual(names.map(() => 'new'))
    // drift nothing: recovery alone puts back the old machine, so the saved plan is not stale
    const a = await plait(['apply', plan, '--root', s.root])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout.split('\n').filter((l) => l.startsWith('recovered: ')), show(a)).toHaveLength(5)
    expect(a.stdout).toMatch(/Apply: 5 changed, 0 stable, 0 failed, 0 skipped\./)
    finished(expect, s)
    // nothing else below the root changed
    expect(Object.keys(snapshot(s.root, ['var'])).sort()).toEqual(Object.keys(before).concat(names.map((x) => `etc/app/${x}.conf`)).sort())
  })
})
