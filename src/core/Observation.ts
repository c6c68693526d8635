// Observation: what a resource type needs to know of a machine, as data. A type never calls an
// interpreter: it returns a program of requests (probe this path, run this guard, ask this
// provider), and the observe stage runs every resource's program together, batching the requests
// of each family (see src/observe/run.ts). The same programs serve the staleness check, the
// verification after a step and a resource's decision at its turn.
//
// Invariants: a program is a pure value; running it twice against the same answers gives the same
// result. A request's `key` names what it asks: equal keys in one batch are asked once.
import * as E from 'fp-ts/lib/Either.js'
import type { Bytes } from './Bytes.js'
import type { Fault } from './Fault.js'
import type { Command, Exit } from './Command.js'
import type { Probe, ProbeOptions } from './Probe.js'

// model

/** One question for an interpreter family: `family` picks the interpreter, `key` identifies the question. */
export interface Request {
  readonly family: string
  readonly key: string
  readonly body: unknown
}

/**
 * A program that yields an `A` once its requests are answered. `next` is given the answers of a
 * whole batch and where its own begin (`start`, 0 when the batch is its requests alone): programs
 * run side by side read theirs in place, rather than each from a copy.
 */
export type Observation<A> =
  | { readonly _tag: 'Done'; readonly value: A }
  | { readonly _tag: 'Ask'; readonly requests: ReadonlyArray<Request>; readonly next: (answers: ReadonlyArray<unknown>, start?: number) => Observation<A> }

/** An interpreter of one request family (the observe stage runs programs with a table of these). */
export interface Family {
  /** Answers a batch of request bodies, one answer each, in order. */
  readonly answer: (bodies: ReadonlyArray<unknown>) => Promise<ReadonlyArray<unknown>>
  /**
   * true: requests with equal keys in one batch are asked once. false: the family gets every
   * request (commands run each; path probes merge equal questions themselves, see `probe`).
   */
  readonly merge: boolean
}

/** The families a run can ask: undefined for one it has no interpreter of (a bug: the caller did not open it). */
export type Families = (family: string) => Family | undefined

// constructors

export const done = <A>(value: A): Observation<A> => ({ _tag: 'Done', value })

/** Asks one question; the answer's type is the family's (the typed askers below and in each family's module fix it). */
export const ask = <A>(family: string, key: string, body: unknown): Observation<A> => ({
  _tag: 'Ask',
  requests: [{ family, key, body }],
  next: (answers, start = 0) => done(answers[start] as A),
})

/** Asks one question and continues with its answer: `chain(k)(ask(...))` in one step, for hot paths. */
export const askThen = <A, B>(family: string, key: string, body: unknown, k: (answer: A) => Observation<B>): Observation<B> => ({
  _tag: 'Ask',
  requests: [{ family, key, body }],
  next: (answers, start = 0) => k(answers[start] as A),
})

// combinators

export const chain =
  <A, B>(f: (a: A) => Observation<B>) =>
  (o: Observation<A>): Observation<B> =>
    o._tag === 'Done' ? f(o.value) : { _tag: 'Ask', requests: o.requests, next: (answers, start) => chain(f)(o.next(answers, start)) }

export const map =
  <A, B>(f: (a: A) => B) =>
  (o: Observation<A>): Observation<B> =>
    chain((a: A) => done(f(a)))(o)

/** Runs programs side by side: each round asks the pending requests of all of them at once. */
export const all = <A>(os: ReadonlyArray<Observation<A>>): Observation<ReadonlyArray<A>> => {
  const requests: Request[] = []
  // where each pending program's requests start in this round (-1: it is done)
  const starts = new Array<number>(os.length)
  for (let i = 0; i < os.length; i++) {
    const o = os[i]!
    if (o._tag === 'Done') starts[i] = -1
    else {
      starts[i] = requests.length
      for (const r of o.requests) requests.push(r)
    }
  }
  if (requests.length === 0) return done(os.map((o) => (o as { readonly value: A }).value))
  return {
    _tag: 'Ask',
    requests,
    next: (answers, start = 0) => all(os.map((o, i) => (o._tag === 'Done' ? o : o.next(answers, start + starts[i]!)))),
  }
}

/** Chains on the right of an Either-valued program: a Left stops it. */
export const chainRight =
  <L, A, B>(f: (a: A) => Observation<E.Either<L, B>>) =>
  (o: Observation<E.Either<L, A>>): Observation<E.Either<L, B>> =>
    chain((r: E.Either<L, A>) => (E.isLeft(r) ? done(r as E.Either<L, B>) : f(r.right)))(o)

// the families every machine has

export type { Command, Exit } from './Command.js'

/**
 * lstat (and hash, and maybe bytes) of a machine path. Asked in parallel. Its key is the path: the
 * family merges the probes of one path that have equal options itself (interpreters/probes.ts),
 * which spares every probe a key that spells its options.
 */
export const probe = (path: string, options: ProbeOptions = {}): Observation<E.Either<Fault, Probe>> => ask('path', path, { path, options })

/** `probe`, continued with its answer (see askThen). */
export const probeThen = <B>(path: string, options: ProbeOptions, k: (answer: E.Either<Fault, Probe>) => Observation<B>): Observation<B> =>
  askThen('path', path, { path, options }, k)

/** Runs a command (a guard). Commands run one at a time, in the order the programs ask them, and are never merged. */
export const command = (c: Command): Observation<E.Either<Fault, Exit>> => ask('command', '', c)

/** A host file's bytes with their sha256 and size. */
export type HostFile = Bytes

/** Reads a host file (a `source:` beside the manifest, not on the target); the plan records its digest. */
export const host = (path: string): Observation<E.Either<Fault, HostFile>> => ask('host', path, path)
