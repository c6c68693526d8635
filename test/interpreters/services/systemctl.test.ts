// The systemctl interpreter: its exact argv and environment (through the process runtime's
// double), one process for a batch of units, one systemctl at a time (the service lock), and what
// a machine without systemctl or without a running systemd reads as. The last is asked of this
// machine's real systemctl: systemd is installed here but is not PID 1.
import * as fs from 'node:fs'
import { spawnSync } from 'node:child_process'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Processes from '../../../src/interpreters/process.js'
import * as Memory from '../../../src/interpreters/services/memory.js'
import * as Probes from '../../../src/interpreters/services/probes.js'
import * as Steps from '../../../src/interpreters/services/steps.js'
import * as Systemctl from '../../../src/interpreters/services/systemctl.js'
import type { ServiceStep } from '../../../src/types/service/Step.js'

const systemdIsPid1 = fs.existsSync('/proc/1/comm') && fs.readFileSync('/proc/1/comm', 'utf8').trim() === 'systemd'
const hasSystemctl = spawnSync('systemctl', ['--version']).status === 0
const show = (n: number) => Array.from({ length: n }, (_, i) => `Id=u${i}.service\nLoadState=loaded\nActiveState=active\nUnitFileState=enabled\n`).join('\n')

describe('systemctl, as plait runs it', () => {
  it('asks every unit of a batch with one `systemctl show`, argv only, with a complete environment', async () => {
    const p = Processes.memory(() => ({ stdout: show(3) }))
    const r = await Systemctl.make({ processes: p, path: '/opt/bin:/usr/bin' }).status(['u0', 'u1', 'u2'])
    expect(E.isRight(r) && r.right.length).toBe(3)
    expect(p.runs()).toHaveLength(1)
    expect(p.runs()[0]).toMatchObject({
      file: 'systemctl',
      args: ['show', '--system', '--property=Id,LoadState,ActiveState,UnitFileState', '--', 'u0', 'u1', 'u2'],
      env: { PATH: '/opt/bin:/usr/bin', LC_ALL: 'C', SYSTEMD_PAGER: 'cat', SYSTEMD_COLORS: '0' },
      input: '',
      module: 'service',
    })
  })

  it('runs each verb on one unit with --system, and daemon-reload on its own', async () => {
    const p = Processes.memory(() => ({}))
    const m = Systemctl.make({ processes: p, binary: '/usr/bin/systemctl' })
    for (const verb of ['start', 'stop', 'restart', 'enable', 'disable'] as const) expect(await m.act(verb, 'web')).toEqual(E.right(undefined))
    expect(await m.reload()).toEqual(E.right(undefined))
    expect(p.runs().map((r) => [r.file, ...r.args].join(' '))).toEqual([
      '/usr/bin/systemctl start --system -- web',
      '/usr/bin/systemctl stop --system -- web',
      '/usr/bin/systemctl restart --system -- web',
      '/usr/bin/systemctl enable --system -- web',
      '/usr/bin/systemctl disable --system -- web',
      '/usr/bin/systemctl daemon-reload --system',
    ])
  })

  it('runs one systemctl at a time (the service lock), even when asked at once', async () => {
    let inFlight = 0
    let most = 0
    const processes: Processes.Processes = {
      run: async () => {
        inFlight += 1
        most = Math.max(most, inFlight)
        await new Promise((r) => setTimeout(r, 5))
        inFlight -= 1
        return E.right({ exitCode: 0, signal: undefined, stdout: '', stderr: '', durationMs: 5 })
      },
    }
    const m = Systemctl.make({ processes })
    await Promise.all([m.act('start', 'a'), m.act('start', 'b'), m.reload(), m.act('stop', 'c')])
    expect(most).toBe(1)
  })

  it('refuses an answer it cannot read as a protocol violation, never a guess', async () => {
    const r = await Systemctl.make({ processes: Processes.memory(() => ({ stdout: show(1) })) }).status(['a', 'b'])
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['ProtocolViolation', 'systemctl show described 1 unit where 2 were asked'])
  })

  it('says "no suitable provider: systemctl was not found" without systemctl', async () => {
    const r = await Systemctl.make({ path: '/nonexistent-plait-dir' }).status(['web'])
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['NotFound', 'no suitable provider: systemctl was not found'])
  })

  it.runIf(hasSystemctl && !systemdIsPid1)('says "no suitable provider: systemd is not running" when asked of the real systemctl here (systemd is not PID 1)', async () => {
    const m = Systemctl.make()
    const r = await m.status(['cron', 'ssh'])
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['Failed', 'no suitable provider: systemd is not running'])
    const started = await m.act('start', 'plait-no-such-unit')
    expect(E.isLeft(started) && started.left.description).toBe('no suitable provider: systemd is not running')
  })

  it('reports a verb that fails with its exit and its last words on stderr', async () => {
    const m = Systemctl.make({ processes: Processes.memory(() => ({ exit: 5, stderr: 'Failed to start web.service: Unit web.service not found.\n' })) })
    const r = await m.act('start', 'web')
    expect(E.isLeft(r) && r.left.description).toBe('systemctl start exited 5: Failed to start web.service: Unit web.service not found.')
  })
})

describe('the service request family', () => {
  it('answers a round of requests with one status query, and the same Left for each when the manager cannot answer', async () => {
    const up = Memory.make({ web: { active: 'active', unitFile: 'enabled' } })
    const answers = await Probes.family(() => up).answer([{ name: 'web' }, { name: 'db' }])
    expect(answers).toEqual([E.right({ load: 'loaded', active: 'active', unitFile: 'enabled' }), E.right({ load: 'not-found', active: 'inactive', unitFile: '' })])
    expect(up.calls()).toEqual(['show web db'])
    const down = Memory.make({}, { running: false })
    const failed = await Probes.family(() => down).answer([{ name: 'web' }, { name: 'db' }])
    expect(failed[0]).toBe(failed[1])
    expect(E.isLeft(failed[0] as E.Either<unknown, unknown>)).toBe(true)
  })
})

describe('the service step family', () => {
  const step = (tag: ServiceStep['_tag'], name: string): ServiceStep => ({ _tag: tag, name, reason: 'r', noop: 'n' })
  const env = { id: 'service#x', now: undefined, output: [] }

  it('reloads the unit files once per run, before the first change, and never for a status query', async () => {
    const m = Memory.make({ web: { active: 'inactive', unitFile: 'disabled' }, db: { active: 'active', unitFile: 'enabled' } })
    const f = Steps.family(() => m)
    await m.status(['web'])
    expect(await f.run(step('service.start', 'web'), env)).toEqual(E.right(undefined))
    expect(await f.run(step('service.enable', 'web'), env)).toEqual(E.right(undefined))
    expect(await f.run(step('service.restart', 'db'), env)).toEqual(E.right(undefined))
    expect(m.calls()).toEqual(['show web', 'daemon-reload', 'start web', 'enable web', 'restart db'])
  })

  it('declares every step irreversible, and describes it', async () => {
    const f = Steps.family(() => Memory.make({}))
    expect(await f.prepare(step('service.stop', 'web'), '/b')).toEqual(E.right({ _tag: 'Irreversible', reason: 'a service that was started, stopped or enabled cannot be put back as it was' }))
    expect(f.describe(step('service.disable', 'web'))).toBe('disable service web')
  })

  it('refuses a step whose name could not come from a manifest (an edited plan), running nothing', async () => {
    const m = Memory.make({})
    const r = await Steps.family(() => m).run(step('service.start', '--now'), env)
    expect(E.isLeft(r) && [r.left._tag, r.left.description]).toEqual(['ProtocolViolation', 'service name must not start with "-": "--now"'])
    expect(m.calls()).toEqual([])
  })

  it('fails its step when systemd is not running, with the provider diagnostic', async () => {
    const f = Steps.family(() => Memory.make({}, { running: false }))
    const r = await f.run(step('service.start', 'web'), env)
    expect(E.isLeft(r) && f.failure(r.left)).toBe('no suitable provider: systemd is not running')
  })
})
