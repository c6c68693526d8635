// process: the one primitive that runs plugin programs, real and double. Extra descriptors (fd 3,
// which Holo plugins answer on) are read like stdout; the double answers from a script with the
// same outcomes and faults, and a libral session runs on it as on real processes.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Session from '../../src/interpreters/libral/Session.js'
import * as Processes from '../../src/interpreters/process.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import { hostMeta } from '../libral/support.js'

const program = (script: string, more: Partial<Processes.Program> = {}): Processes.Program => ({
  file: '/bin/sh',
  args: ['-c', script],
  env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  input: '',
  timeoutMs: 10_000,
  subject: 'sh',
  op: 'run',
  module: 'exec',
  ...more,
})

describe('real processes', () => {
  it('read what a program writes on its extra descriptors, in order', async () => {
    const r = await Processes.real.run(program('echo out; echo three >&3; echo four >&4; echo err >&2', { extraFds: 2 }))
    expect(E.isRight(r) && { stdout: r.right.stdout, stderr: r.right.stderr, fds: r.right.fds }).toEqual({ stdout: 'out\n', stderr: 'err\n', fds: ['three\n', 'four\n'] })
  })

  it('give no fd 3 unless asked: writing there fails, and no extra output is reported', async () => {
    const r = await Processes.real.run(program('echo x >&3 2>/dev/null || echo no fd 3'))
    expect(E.isRight(r) && [r.right.stdout, r.right.fds]).toEqual(['no fd 3\n', undefined])
  })

  it('pass stdin and the complete environment, nothing else', async () => {
    const r = await Processes.real.run(program('cat; printf "[%s][%s]" "$ONLY" "$HOME"', { input: 'in\n', env: { ONLY: 'me', PATH: process.env['PATH'] ?? '/usr/bin:/bin' } }))
    expect(E.isRight(r) && r.right.stdout).toBe('in\n[me][]')
  })
})

describe('the double', () => {
  it('answers as its script says, with the faults real processes give', async () => {
    const double = Processes.memory((p) => (p.args[1] === 'hang' ? { hangs: true } : p.args[1] === 'ok' ? { stdout: 'o', fds: ['three'] } : p.args[1] === 'sig' ? { signal: 'SIGKILL' } : undefined))
    const ok = await double.run(program('ok', { extraFds: 2 }))
    expect(E.isRight(ok) && ok.right).toEqual({ exitCode: 0, signal: undefined, stdout: 'o', stderr: '', fds: ['three', ''], durationMs: 0 })
    const sig = await double.run(program('sig'))
    expect(E.isRight(sig) && [sig.right.exitCode, sig.right.signal]).toEqual([undefined, 'SIGKILL'])
    const missing = await double.run(program('nothing'))
    expect(E.isLeft(missing) && [missing.left._tag, missing.left.description]).toEqual(['NotFound', 'could not start: no such file'])
    const hung = await double.run(program('hang', { timeoutMs: 300 }))
    const real = await Processes.real.run(program('sleep 5', { timeoutMs: 300 }))
    if (E.isRight(hung) || E.isRight(real)) throw new Error(`expected both to time out, got ${JSON.stringify([hung, real])}`)
    expect([hung.left._tag, hung.left.description]).toEqual([real.left._tag, real.left.description])
    expect(double.runs().map((p) => p.args[1])).toEqual(['ok', 'sig', 'nothing', 'hang'])
  })

  it('runs a libral provider: a session on the double lists what the script prints', async () => {
    const double = Processes.memory((p) => (p.args[0] === 'ral_action=list' ? { stdout: '# simple\nname: db1\nip: 10.0.0.5\n' } : undefined))
    const s = Session.make({ hostEnv: {}, processes: double })
    const r = await s.list({ meta: hostMeta, path: '/providers/host.prov' })
    expect(r).toEqual(E.right([Resource.make('db1', { ip: '10.0.0.5' })]))
    expect(double.runs().map((p) => [p.file, p.args])).toEqual([['/providers/host.prov', ['ral_action=list']]])
    expect(s.invocations().map((i) => [i.action, i.outcome])).toEqual([['list', 'ok']])
  })
})
