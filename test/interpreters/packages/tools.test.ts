// The package managers' runner (src/interpreters/packages/tools.ts), over a double whose every
// program ends only when the test says: a status's queries run side by side and answer in the
// order given, and an install or removal never overlaps them (the run's package lock). apt's and
// dnf's statuses use it (their own tests, and the real tools in test/contract/packages.test.ts).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Command } from '../../../src/core/Command.js'
import type * as Processes from '../../../src/interpreters/process.js'
import * as Tools from '../../../src/interpreters/packages/tools.js'

/** Programs that end when `end(name)` is called: what started and ended is kept in order. */
const held = () => {
  const events: string[] = []
  const waiting = new Map<string, () => void>()
  const processes: Processes.Processes = {
    run: (p) => {
      events.push(`start ${p.file}`)
      return new Promise((resolve) => {
        waiting.set(p.file, () => {
          events.push(`end ${p.file}`)
          resolve(E.right({ exitCode: 0, signal: undefined, stdout: `${p.file} says\n`, stderr: '', durationMs: 0 }))
        })
      })
    },
  }
  return {
    processes,
    events,
    end: (file: string) => {
      const f = waiting.get(file)
      if (f === undefined) throw new Error(`${file} has not started`)
      waiting.delete(file)
      f()
    },
  }
}

/** Lets every promise that can settle now settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve))

const command = (file: string): Command => ({ argv: [file, '--', 'hello'], environment: ['EXTRA=1'], timeoutMs: 1000 })
const query = (file: string): Tools.Query => ({ command: command(file), op: file, subject: 'hello' })

describe('the package runner', () => {
  it('runs queries side by side and answers in the order they were given, whichever ends first', async () => {
    const h = held()
    const run = Tools.runner(h.processes, { PATH: '/usr/bin' }, Tools.serializer())
    const answers = run.together([query('dpkg-query'), query('apt-cache')])
    await settle()
    expect(h.events).toEqual(['start dpkg-query', 'start apt-cache'])
    h.end('apt-cache')
    h.end('dpkg-query')
    const [first, second] = await answers
    expect([first, second].map((r) => (E.isRight(r) ? r.right.stdout : r.left.description))).toEqual(['dpkg-query says\n', 'apt-cache says\n'])
  })

  it('starts an install only once every query of a status before it has ended, and a status only once the install before it has', async () => {
    const h = held()
    const run = Tools.runner(h.processes, { PATH: '/usr/bin' }, Tools.serializer())
    const status = run.together([query('dpkg-query'), query('apt-cache')])
    const install = run(command('apt-get'), 'install', 'hello')
    const after = run.together([query('rpm'), query('dnf')])
    await settle()
    expect(h.events).toEqual(['start dpkg-query', 'start apt-cache'])
    h.end('dpkg-query')
    await settle()
    // one query still runs: the install waits for it
    expect(h.events).toEqual(['start dpkg-query', 'start apt-cache', 'end dpkg-query'])
    h.end('apt-cache')
    await status
    await settle()
    expect(h.events.slice(3)).toEqual(['end apt-cache', 'start apt-get'])
    h.end('apt-get')
    await install
    await settle()
    expect(h.events.slice(5)).toEqual(['end apt-get', 'start rpm', 'start dnf'])
    h.end('dnf')
    h.end('rpm')
    await after
  })

  it('runs each command with the runner environment and its own entries added, without input', async () => {
    const seen: Processes.Program[] = []
    const processes: Processes.Processes = {
      run: async (p) => {
        seen.push(p)
        return E.right({ exitCode: 0, signal: undefined, stdout: '', stderr: '', durationMs: 0 })
      },
    }
    const run = Tools.runner(processes, { PATH: '/usr/bin', LC_ALL: 'C' }, Tools.serializer())
    await run.together([query('dpkg-query')])
    await run(command('apt-get'), 'install', 'hello')
    expect(seen.map((p) => [p.file, p.args, p.env, p.input, p.op, p.module])).toEqual([
      ['dpkg-query', ['--', 'hello'], { PATH: '/usr/bin', LC_ALL: 'C', EXTRA: '1' }, '', 'dpkg-query', 'package'],
      ['apt-get', ['--', 'hello'], { PATH: '/usr/bin', LC_ALL: 'C', EXTRA: '1' }, '', 'install', 'package'],
    ])
  })

  it('keeps going after a command whose run failed: the next waits for it, then runs', async () => {
    let calls = 0
    const processes: Processes.Processes = {
      run: async () => {
        calls += 1
        if (calls === 1) throw new Error('could not start')
        return E.right({ exitCode: 0, signal: undefined, stdout: 'ok', stderr: '', durationMs: 0 })
      },
    }
    const run = Tools.runner(processes, { PATH: '/usr/bin' }, Tools.serializer())
    await expect(run.together([query('dpkg-query')])).rejects.toThrow('could not start')
    const [r] = await run.together([query('dpkg-query')])
    expect(E.isRight(r) && r.right.stdout).toBe('ok')
  })
})
