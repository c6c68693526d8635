// health and Report, in process: a check's tries, waits and statuses, and how a report counts.
import { describe, expect, it } from 'vitest'
import * as Health from '../../src/executor/health.js'
import * as Report from '../../src/executor/Report.js'
import * as MemoryRunner from '../../src/interpreters/commands/memory.js'

const check = (argv: string[], tries = 1) => ({ name: 'c', argv, timeoutMs: 1000, tries, trySleepMs: 250 })

describe('Health.runCheck', () => {
  it('stops at the first OK, waiting between tries only', async () => {
    let n = 0
    const runner = MemoryRunner.make(() => ({ exit: ++n >= 2 ? 0 : 2, stdout: `try ${n}\nmore\n` }))
    const waits: number[] = []
    expect(await Health.runCheck(check(['x'], 5), runner, async (ms) => void waits.push(ms))).toEqual({ name: 'c', status: 'OK', message: 'try 2', tries: 2 })
    expect(waits).toEqual([250])
  })

  it('gives the last result when every try fails, and UNKNOWN for a check that cannot run', async () => {
    const waits: number[] = []
    const critical = MemoryRunner.make(() => ({ exit: 2, stdout: 'down\n' }))
    expect(await Health.runCheck(check(['x'], 3), critical, async (ms) => void waits.push(ms))).toEqual({ name: 'c', status: 'CRITICAL', message: 'down', tries: 3 })
    expect(waits).toEqual([250, 250])
    const missing = await Health.runCheck(check(['nothing']), MemoryRunner.make(() => undefined), async () => undefined)
    expect(missing).toEqual({ name: 'c', status: 'UNKNOWN', message: 'run nothing: could not start: no such file', tries: 1 })
    expect(await Health.runCheck(check(['x'], 0), critical, async () => undefined)).toEqual({ name: 'c', status: 'UNKNOWN', message: 'not run', tries: 0 })
  })

  it('runs every check in order', async () => {
    const runner = MemoryRunner.make((line) => ({ exit: line === 'a' ? 0 : 1, stdout: line }))
    expect((await Health.runAll([{ ...check(['a']), name: 'a' }, { ...check(['b']), name: 'b' }], runner, async () => undefined)).map((r) => [r.name, r.status])).toEqual([
      ['a', 'OK'],
      ['b', 'WARNING'],
    ])
  })

  it('waits for real when not told otherwise', async () => {
    const started = Date.now()
    await Health.sleep(20)
    expect(Date.now() - started).toBeGreaterThanOrEqual(15)
  })
})

describe('Report', () => {
  const report = (...outcomes: Report.Outcome[]): Report.Report => ({ noop: false, recovered: [], resources: outcomes.map((o, i) => ({ id: `r${i}`, outcome: o, messages: [] })), rolledBack: [], irreversible: [] })

  it('counts each outcome, and fails when one resource failed', () => {
    expect(Report.counts(report('stable', 'changed', 'changed', 'skipped', 'rolled back', 'failed'))).toEqual({ stable: 1, changed: 2, failed: 1, skipped: 1, 'rolled back': 1 })
    expect(Report.counts(report())).toEqual({ stable: 0, changed: 0, failed: 0, skipped: 0, 'rolled back': 0 })
    expect(Report.failed(report('stable', 'failed'))).toBe(true)
    expect(Report.failed(report('stable', 'rolled back', 'skipped'))).toBe(false)
  })
})
