// probes: the interpreters of the request families every run has (see core/Observation.ts):
// `path` (a Machine probe, many at once), `command` (a Runner, one at a time, in order) and
// `host` (a host input file, beside the manifest).
import * as E from 'fp-ts/lib/Either.js'
import * as Bytes from '../core/Bytes.js'
import type * as Fault from '../core/Fault.js'
import type { ProbeOptions } from '../core/Probe.js'
import type { Family } from '../core/Observation.js'
import type { Machine } from './Machine.js'
import type { Command, Runner } from './Runner.js'

/** Reads a file of the host (a manifest's source files live beside the manifest, not on the target). */
export type ReadHost = (path: string) => Promise<E.Either<Fault.Fault, Uint8Array>>

/** One probe a program asks: a path, with what to return of it. */
export interface PathProbe {
  readonly path: string
  readonly options?: ProbeOptions
}

const sameOptions = (a: ProbeOptions = {}, b: ProbeOptions = {}): boolean => a.contentUnless === b.contentUnless && a.contentLimit === b.contentLimit

/**
 * The distinct probes of a batch (equal path and options once, in first-asked order) and, for each
 * probe asked, the index of its distinct one. Keyed by the path alone (a string the run has
 * already hashed), not by a string spelling path and options: one path asked with other options
 * (a file's own probe and its parent's) is told apart by comparing the options.
 */
export const distinct = (probes: ReadonlyArray<PathProbe>): { readonly unique: ReadonlyArray<PathProbe>; readonly slots: ReadonlyArray<number> } => {
  const unique: PathProbe[] = []
  const slots = new Array<number>(probes.length)
  const byPath = new Map<string, number>() // the first distinct probe of each path
  let more: Map<string, number[]> | undefined // the other distinct probes of a path asked with other options
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i]!
    const first = byPath.get(p.path)
    if (first === undefined) {
      byPath.set(p.path, unique.length)
      slots[i] = unique.length
      unique.push(p)
    } else if (sameOptions(unique[first]!.options, p.options)) slots[i] = first
    else {
      more ??= new Map()
      const others = more.get(p.path) ?? []
      const found = others.find((j) => sameOptions(unique[j]!.options, p.options))
      if (found !== undefined) slots[i] = found
      else {
        others.push(unique.length)
        more.set(p.path, others)
        slots[i] = unique.length
        unique.push(p)
      }
    }
  }
  return { unique, slots }
}

/** Probes of machine paths: one batch of the machine's for each round's requests, each distinct probe once. */
export const paths = (machine: Machine): Family => ({
  merge: false,
  answer: async (bodies) => {
    const { unique, slots } = distinct(bodies as ReadonlyArray<PathProbe>)
    const got = await machine.probeAll(unique)()
    if (unique.length === bodies.length) return got
    const out = new Array<unknown>(slots.length)
    for (let i = 0; i < slots.length; i++) out[i] = got[slots[i]!]
    return out
  },
})

/** Commands, one at a time in the order asked; the runner is made on the first one. */
export const commands = (runner: () => Promise<Runner>): Family => ({
  merge: false,
  answer: async (bodies) => {
    const r = await runner()
    const out: unknown[] = []
    for (const c of bodies as ReadonlyArray<Command>) out.push(await r.run(c))
    return out
  },
})

/** Host input files, one at a time, hashed as they are read; `read` is told of each that was (for the plan's inputs). */
export const hostFiles = (read: ReadHost, seen?: (path: string, sha256: string) => void): Family => ({
  merge: true,
  answer: async (bodies) => {
    const out: unknown[] = []
    for (const p of bodies as ReadonlyArray<string>) {
      const r = await read(p)
      if (E.isRight(r)) {
        const bytes = Bytes.of(r.right)
        seen?.(p, bytes.sha256)
        out.push(E.right(bytes))
      } else out.push(r)
    }
    return out
  },
})
