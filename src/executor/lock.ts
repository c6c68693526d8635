// lock: the run lock, one apply at a time per state directory; a lock left by a dead process is taken over.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import type { Machine } from '../interpreters/Machine.js'

/** What a lock file holds: the holder's pid and its start time (so a reused pid is not mistaken for it). */
export interface Holder {
  readonly pid: number
  readonly start: string | null
}

const decoder = new TextDecoder()

/** Takes the lock at `path`; returns a release function, or a diagnostic naming the live holder. */
export const acquire = async (machine: Machine, path: string): Promise<E.Either<Diagnostic.Diagnostic, { readonly release: () => Promise<void>; readonly tookOver?: Holder }>> => {
  const me: Holder = { pid: machine.pid(), start: E.getOrElse((): string | null => null)(await machine.processStart(machine.pid())()) }
  const body = new TextEncoder().encode(JSON.stringify(me) + '\n')
  let tookOver: Holder | undefined
  for (let attempt = 0; attempt < 3; attempt++) {
    const created = await machine.createExclusive(path, body)()
    if (E.isRight(created)) {
      const release = async (): Promise<void> => {
        await machine.remove(path, { recursive: false })()
      }
      return E.right(tookOver === undefined ? { release } : { release, tookOver })
    }
    if (created.left._tag !== 'Exists') {
      return E.left(Diagnostic.make('Locked', `cannot take the run lock ${path}: ${Fault.render(created.left)}`))
    }
    const text = await machine.readFile(path)()
    const holder = E.isRight(text) ? parseHolder(decoder.decode(text.right)) : undefined
    if (holder !== undefined) {
      const start = await machine.processStart(holder.pid)()
      // Every plait records its start time; a lock without one cannot be told from a reused pid
      // (pid 1 would hold it forever), so it is taken over like the lock of a dead process.
      const alive = E.isRight(start) && start.right !== null && holder.start !== null && start.right === holder.start
      if (alive) {
        return E.left(
          Diagnostic.make('Locked', `another plait apply (pid ${holder.pid}) holds the run lock ${path}`, {
            hint: 'wait for it to finish; plait takes over a lock only when its holder is no longer running',
          }),
        )
      }
      tookOver = holder
    }
    // The holder is gone (or the lock is unreadable garbage): take it over.
    await machine.remove(path, { recursive: false })()
  }
  return E.left(Diagnostic.make('Locked', `cannot take the run lock ${path}: it keeps being re-created`))
}

/** Reads a lock file's holder, or undefined when it is not one. */
export const parseHolder = (text: string): Holder | undefined => {
  try {
    const v = JSON.parse(text) as unknown
    if (v !== null && typeof v === 'object' && typeof (v as Holder).pid === 'number') {
      const s = (v as Holder).start
      return { pid: (v as Holder).pid, start: typeof s === 'string' ? s : typeof s === 'number' ? String(s) : null }
    }
  } catch {
    // fall through
  }
  return undefined
}
