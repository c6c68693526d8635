// memory: a service manager in memory, the double of systemctl for offline tests and the laws: units
// with their active and unit file states as systemd's words, a manager that may not be running,
// and units whose start fails or whose process dies at once. It keeps every call it was asked.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Systemctl from '../../types/service/Systemctl.js'
import type { Manager, Unit, Verb } from './Manager.js'

// model

/** A unit: systemd's words for its states, and how it behaves when started (`fails`: the start job fails; `dies`: it starts, then exits at once). */
export interface MemoryUnit {
  readonly active: string
  readonly unitFile: string
  readonly behaviour?: 'ok' | 'fails' | 'dies'
}

export interface MemoryManager extends Manager {
  /** The units as they are now. */
  readonly units: () => Readonly<Record<string, MemoryUnit>>
  /** The calls so far, as systemctl would be run (`show a b`, `start a`, `daemon-reload`). */
  readonly calls: () => ReadonlyArray<string>
}

// constructors

/** A manager with these units; `running: false` is a machine where systemd is installed but not running. */
export const make = (initial: Readonly<Record<string, MemoryUnit>>, options: { readonly running?: boolean } = {}): MemoryManager => {
  const units = new Map(Object.entries(initial))
  const calls: string[] = []
  const down = (op: string) => (options.running === false ? Fault.make('Failed', 'service', op, 'systemd', Systemctl.notRunning) : undefined)
  const failed = (op: string, name: string, detail: string) => E.left(Fault.make('Failed', 'service', op, name, `systemctl ${op} exited 1: ${detail}`))
  return {
    units: () => Object.fromEntries(units),
    calls: () => [...calls],
    status: async (names) => {
      if (names.length === 0) return E.right([])
      calls.push(`show ${names.join(' ')}`)
      const d = down('show')
      if (d !== undefined) return E.left(d)
      return E.right(names.map((n): Unit => {
        const u = units.get(n)
        return u === undefined ? { load: 'not-found', active: 'inactive', unitFile: '' } : { load: 'loaded', active: u.active, unitFile: u.unitFile }
      }))
    },
    act: async (verb: Verb, name) => {
      calls.push(`${verb} ${name}`)
      const d = down(verb)
      if (d !== undefined) return E.left(d)
      const u = units.get(name)
      if (u === undefined) return failed(verb, name, `Unit ${name}.service not found.`)
      const set = (next: Partial<MemoryUnit>) => units.set(name, { ...u, ...next })
      switch (verb) {
        case 'start':
        case 'restart':
          if (u.behaviour === 'fails') {
            set({ active: 'failed' })
            return failed(verb, name, `Job for ${name}.service failed because the control process exited with error code.`)
          }
          set({ active: u.behaviour === 'dies' ? 'inactive' : 'active' })
          return E.right(undefined)
        case 'stop':
          set({ active: 'inactive' })
          return E.right(undefined)
        case 'enable':
          if (u.unitFile === 'masked') return failed(verb, name, `Unit file ${name}.service is masked.`)
          if (u.unitFile === 'disabled') set({ unitFile: 'enabled' })
          return E.right(undefined)
        case 'disable':
          if (u.unitFile === 'enabled') set({ unitFile: 'disabled' })
          return E.right(undefined)
      }
    },
    reload: async () => {
      calls.push('daemon-reload')
      const d = down('daemon-reload')
      return d !== undefined ? E.left(d) : E.right(undefined)
    },
  }
}
