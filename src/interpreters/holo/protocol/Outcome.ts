// Outcome: what `apply` or `force-apply` of one entity did, read from the plugin's exit and the
// messages it wrote on file descriptor 3 (holo-plugin-interface(7), "The apply operation"):
// "not changed\n", "requires --force to overwrite\n", "requires --force to restore\n". Anything
// else on fd 3 is a protocol violation; a non-zero exit is a failure, whatever fd 3 says.
import * as E from 'fp-ts/lib/Either.js'

// model

export type Outcome =
  /** The plugin provisioned the entity (exit 0, nothing on fd 3). */
  | { readonly _tag: 'Changed' }
  /** The entity was already in its desired state ("not changed"). */
  | { readonly _tag: 'NotChanged' }
  /** The entity was changed by someone else since it was provisioned; only force-apply overwrites it. */
  | { readonly _tag: 'RequiresForceToOverwrite' }
  /** The entity was deleted by someone else since it was provisioned; only force-apply restores it. */
  | { readonly _tag: 'RequiresForceToRestore' }
  /** The plugin exited non-zero or was killed by a signal: `message` as Holo words it ("exit status 1", "signal: killed"). */
  | { readonly _tag: 'Failed'; readonly message: string }

/** The fd 3 messages of apply, without their newline. */
export const messages = {
  notChanged: 'not changed',
  overwrite: 'requires --force to overwrite',
  restore: 'requires --force to restore',
} as const

/** The most fd 3 may hold for apply (three messages, with room to spare). */
export const maxMessages = 4096

// constructors

export const changed: Outcome = Object.freeze({ _tag: 'Changed' })
export const notChanged: Outcome = Object.freeze({ _tag: 'NotChanged' })
export const overwrite: Outcome = Object.freeze({ _tag: 'RequiresForceToOverwrite' })
export const restore: Outcome = Object.freeze({ _tag: 'RequiresForceToRestore' })

/** A failure with Holo's words for how the process ended. */
export const failed = (exit: { readonly code?: number; readonly signal?: string }): Outcome => Object.freeze({ _tag: 'Failed', message: exitWords(exit) })

/** How a process ended, in Go's words: "exit status 1", "signal: killed". */
export const exitWords = (exit: { readonly code?: number; readonly signal?: string }): string =>
  exit.signal !== undefined ? `signal: ${signalWords[exit.signal] ?? exit.signal}` : `exit status ${exit.code ?? -1}`

/** Go's words for the common signals (as `exec.ExitError` prints them). */
const signalWords: Readonly<Record<string, string>> = {
  SIGHUP: 'hangup',
  SIGINT: 'interrupt',
  SIGQUIT: 'quit',
  SIGILL: 'illegal instruction',
  SIGABRT: 'aborted',
  SIGBUS: 'bus error',
  SIGFPE: 'floating point exception',
  SIGKILL: 'killed',
  SIGSEGV: 'segmentation fault',
  SIGPIPE: 'broken pipe',
  SIGALRM: 'alarm clock',
  SIGTERM: 'terminated',
}

// interop

/**
 * Reads fd 3 of an apply that exited 0: nothing is `Changed`; each message may end in a newline
 * (the last may lack it) and may repeat; "not changed" together with a --force message, the two
 * --force messages together, or any other text is the protocol violation described.
 */
export const parse = (fd3: string): E.Either<string, Outcome> => {
  if (fd3.length > maxMessages) return E.left(`wrote more than ${maxMessages} bytes on fd 3`)
  const lines = fd3.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const seen = new Set<string>()
  for (const [i, line] of lines.entries()) {
    if (line !== messages.notChanged && line !== messages.overwrite && line !== messages.restore)
      return E.left(`wrote ${JSON.stringify(line)} on fd 3 (line ${i + 1}), which is not one of "${messages.notChanged}", "${messages.overwrite}", "${messages.restore}"`)
    seen.add(line)
  }
  if (seen.size > 1) return E.left(`wrote contradicting messages on fd 3: ${[...seen].map((s) => JSON.stringify(s)).join(' and ')}`)
  const only = [...seen][0]
  return E.right(only === undefined ? changed : only === messages.notChanged ? notChanged : only === messages.overwrite ? overwrite : restore)
}

/** The fd 3 text a plugin writes for an outcome (Failed and Changed write nothing). */
export const print = (o: Outcome): string =>
  o._tag === 'NotChanged' ? `${messages.notChanged}\n` : o._tag === 'RequiresForceToOverwrite' ? `${messages.overwrite}\n` : o._tag === 'RequiresForceToRestore' ? `${messages.restore}\n` : ''

/** Matches an outcome. */
export const match =
  <A>(m: { readonly Changed: () => A; readonly NotChanged: () => A; readonly RequiresForceToOverwrite: () => A; readonly RequiresForceToRestore: () => A; readonly Failed: (message: string) => A }) =>
  (o: Outcome): A =>
    o._tag === 'Failed' ? m.Failed(o.message) : m[o._tag]()
