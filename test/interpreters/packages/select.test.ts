// Provider selection over the scripted process runner: apt where apt-get, apt-cache and
// dpkg-query are found, else dnf where dnf and rpm are, a named provider honoured, and the
// diagnostics of a machine with neither. PATH directories hold stand-in executables that are
// never run (the scripted runner answers for them): suitability is only whether they are found.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import { aptNotSuitable, dnfNotSuitable, notSuitable } from '../../../src/interpreters/packages/Manager.js'
import * as Select from '../../../src/interpreters/packages/select.js'
import * as Processes from '../../../src/interpreters/process.js'

const made: string[] = []
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
})
const bin = (...names: ReadonlyArray<string>) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-bin-'))
  made.push(d)
  for (const n of names) fs.writeFileSync(path.join(d, n), '#!/bin/sh\nexit 99\n', { mode: 0o755 })
  return d
}
const apt = ['apt-get', 'apt-cache', 'dpkg-query']
const dnf = ['dnf', 'rpm']
const both = bin(...apt, ...dnf)
const dnfOnly = bin(...dnf)
const none = bin()

/** Both package managers answering "not installed, nothing available" for every name. */
const quiet = () =>
  Processes.memory((p) => {
    if (p.file === 'dpkg-query') return { exit: 1, stderr: p.args.slice(p.args.indexOf('--') + 1).map((n) => `dpkg-query: no packages found matching ${n}\n`).join('') }
    if (p.file === 'rpm') return { exit: 1, stdout: p.args.slice(p.args.indexOf('--') + 1).map((n) => `package ${n} is not installed\n`).join('') }
    return { exit: 0 }
  })

describe('package provider selection', () => {
  it('picks apt where both are found (a Debian machine), dnf where only dnf and rpm are, and neither where one of a pair is missing', () => {
    expect(Select.pick(both)).toBe('apt')
    expect(Select.pick(dnfOnly)).toBe('dnf')
    expect(Select.pick(bin('dnf', 'apt-get', 'apt-cache'))).toBeUndefined()
    expect(Select.pick(none)).toBeUndefined()
  })

  it('asks the machine’s provider when none is named, and the one named otherwise', async () => {
    const processes = quiet()
    const m = Select.make({ root: '/', processes, path: both })
    expect(E.isRight(await m.status(['zsh']))).toBe(true)
    expect(E.isRight(await m.status(['zsh'], 'dnf'))).toBe(true)
    expect(E.isRight(await m.status(['zsh'], 'apt'))).toBe(true)
    expect(processes.runs().map((p) => p.file)).toEqual(['dpkg-query', 'apt-cache', 'rpm', 'dnf', 'dpkg-query', 'apt-cache'])
    const d = quiet()
    const onDnf = Select.make({ root: '/', processes: d, path: dnfOnly })
    const observed = await onDnf.status(['zsh'])
    expect(E.isRight(observed) && observed.right[0]!.provider).toBe('dnf')
    expect(d.runs().map((p) => p.file)).toEqual(['rpm', 'dnf'])
  })

  it("runs a step with the provider that planned it, and with the machine's when the step names none", async () => {
    const processes = quiet()
    const m = Select.make({ root: '/', processes, path: both })
    expect(await m.act({ _tag: 'Remove', name: 'zsh', provider: 'dnf' })).toEqual(E.right(undefined))
    expect(await m.act({ _tag: 'Remove', name: 'zsh' })).toEqual(E.right(undefined))
    expect(processes.runs().map((p) => [p.file, p.args[0]])).toEqual([
      ['dnf', 'remove'],
      ['apt-get', '-q'],
    ])
  })

  it('fails with the diagnostic of what is missing, before running anything', async () => {
    const processes = quiet()
    const description = async (m: ReturnType<typeof Select.make>, provider?: 'apt' | 'dnf') => {
      const r = await m.status(['zsh'], provider)
      return E.isLeft(r) ? [r.left._tag, r.left.description] : 'answered'
    }
    expect(await description(Select.make({ root: '/', processes, path: none }))).toEqual(['NotFound', notSuitable])
    expect(await description(Select.make({ root: '/', processes, path: dnfOnly }), 'apt')).toEqual(['NotFound', aptNotSuitable])
    expect(await description(Select.make({ root: '/', processes, path: bin(...apt) }), 'dnf')).toEqual(['NotFound', dnfNotSuitable])
    const a = await Select.make({ root: '/', processes, path: none }).act({ _tag: 'Remove', name: 'zsh' })
    expect(E.isLeft(a) && a.left.description).toBe(notSuitable)
    expect(processes.runs()).toEqual([])
  })

  it('never asks apt of a name only dnf takes', async () => {
    const processes = quiet()
    const r = await Select.make({ root: '/', processes, path: both }).status(['zsh', 'NetworkManager'])
    expect(E.isLeft(r) && r.left.description).toBe('apt package name "NetworkManager": has "N", which Debian package names do not: only lower-case letters, digits and + - . are allowed: apt cannot be asked of it')
    expect(processes.runs()).toEqual([])
  })
})

describe('the private configuration files of package managers', () => {
  it('are removed at exit by one listener, however many managers a run makes (one each made Node warn past ten)', async () => {
    const Tools = await import('../../../src/interpreters/packages/tools.js')
    const before = process.listenerCount('exit')
    const files = Array.from({ length: 20 }, (_, i) => Tools.privateFile('plait-test-', 'apt.conf', `x ${i}\n`))
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1)
    expect(new Set(files.map((f) => path.dirname(f))).size).toBe(20)
    for (const [i, f] of files.entries()) expect(fs.readFileSync(f, 'utf8')).toBe(`x ${i}\n`)
  })
})
