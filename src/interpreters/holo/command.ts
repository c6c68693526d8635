// command: Holo's own command line over a Host (holo(8)): `scan [--short|--porcelain]`,
// `apply [--force]` and `diff`, each with selectors (an entity ID, a plugin ID, a SOURCE file or
// a generator), written as Holo 3 writes them: paragraphs (protocol/Paragraphs.ts) shared by
// stdout and stderr, an entity's report before the first output of its apply (and only if it
// changed or said something), `!! ` errors, diffs through git. Exit codes are Holo's: 0, 255 for a
// configuration, scan or selector error or a lock held, 1 for a failed generator; and, beyond
// Holo, 1 when a plugin broke the protocol (timed out, wrote what fd 3 may not hold), which Holo
// cannot see. What a plugin printed is always passed on, even when it then broke the protocol.
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type * as Fault from '../../core/Fault.js'
import * as Host from './Host.js'
import * as Entity from './protocol/Entity.js'
import * as Output from './protocol/Output.js'
import * as Paragraphs from './protocol/Paragraphs.js'
import * as Report from './protocol/Report.js'
import * as Scan from './protocol/Scan.js'
import * as Append from '../../core/Append.js'

// model

/** Where the command writes: stdout (1) or stderr (2). */
export interface Sink {
  readonly write: (fd: 1 | 2, text: string) => void
}

export type Args =
  | { readonly _tag: 'scan'; readonly selectors: ReadonlyArray<string>; readonly short: boolean; readonly porcelain: boolean }
  | { readonly _tag: 'apply'; readonly selectors: ReadonlyArray<string>; readonly force: boolean }
  | { readonly _tag: 'diff'; readonly selectors: ReadonlyArray<string> }

/** Holo's exit status for errors that stop it. */
export const exitFatal = 255

// constructors

/** Runs one Holo command; its exit status. */
export const run = async (open: TE.TaskEither<Fault.Fault, Host.Host>, args: Args, sink: Sink): Promise<number> => {
  const out = writer(sink)
  const host = await open()
  if (E.isLeft(host)) {
    out.faultOutput(host.left)
    out.error(host.left.description)
    if (host.left.op === 'generate') {
      out.end()
      return 1
    }
    return exitFatal
  }
  try {
    for (const n of host.right.notes) {
      if (n.level === 'stderr') out.stderr(n.text)
      else if (n.level === 'error') out.error(n.text)
      else out.warning(n.text)
    }
    out.flushStderr()
    const entities: Entity.Entity[] = []
    for (const p of host.right.plugins) {
      const scanned = await host.right.scan(p)()
      if (E.isLeft(scanned)) {
        // a scan's stdout is its report, which Holo reads and never shows; its stderr is passed on
        out.stderr(Output.of(Host.outputOf(scanned.left) ?? Output.empty, 2))
        out.flushStderr()
        out.error(scanned.left.description)
        return exitFatal
      }
      out.stderr(scanned.right.stderr)
      out.flushStderr()
      Append.append(entities, scanned.right.entities)
      out.end()
    }
    const selected = select(entities, args.selectors)
    if (E.isLeft(selected)) {
      for (const s of selected.left) sink.write(2, `Unrecognized argument: ${s}\n`)
      return exitFatal
    }
    switch (args._tag) {
      case 'scan':
        for (const e of selected.right) {
          if (args.porcelain) out.write(1, Scan.print(e))
          else if (args.short) sink.write(1, `${e.id}\n`)
          else out.write(1, Report.entity(e, false))
          if (!args.short) out.end()
        }
        return 0
      case 'diff':
        return await diffAll(host.right, selected.right, sink, out)
      case 'apply':
        return await applyAll(host.right, selected.right, args.force, out)
    }
  } finally {
    await host.right.close()
  }
}

/** The entities the selectors pick (all when there are none), in scan order; or the selectors that pick nothing. */
export const select = (entities: ReadonlyArray<Entity.Entity>, selectors: ReadonlyArray<string>): E.Either<ReadonlyArray<string>, ReadonlyArray<Entity.Entity>> => {
  if (selectors.length === 0) return E.right(entities)
  const used = new Set<string>()
  const picked = entities.filter((e) => {
    const s = Entity.selectors(e)
    const hits = selectors.filter((x) => s.has(x))
    hits.forEach((h) => used.add(h))
    return hits.length > 0
  })
  const unused = selectors.filter((s) => !used.has(s))
  return unused.length > 0 ? E.left(unused) : E.right(picked)
}

// internals

const diffAll = async (host: Host.Host, entities: ReadonlyArray<Entity.Entity>, sink: Sink, out: Writer): Promise<number> => {
  let status = 0
  for (const e of entities) {
    const d = await host.diff(e)()
    if (E.isLeft(d)) {
      out.faultOutput(d.left)
      out.error(`cannot diff ${e.id}: ${d.left.description}`)
      if (d.left._tag === 'ProtocolViolation' || d.left._tag === 'TimedOut') status = 1
    } else {
      out.output(d.right.output)
      if (d.right._tag === 'Files') sink.write(1, d.right.text)
    }
    out.end()
  }
  return status
}

const applyAll = async (host: Host.Host, entities: ReadonlyArray<Entity.Entity>, force: boolean, out: Writer): Promise<number> => {
  const lock = await host.lock()()
  if (E.isLeft(lock)) {
    const [first, ...rest] = lock.left.description.split('\n')
    out.error(first ?? '')
    for (const l of rest) out.write(2, `${l}\n`)
    return exitFatal
  }
  let status = 0
  try {
    for (const e of entities) {
      if (!(await applyOne(host, e, force, out))) status = 1
      out.end()
    }
  } finally {
    await lock.right()
  }
  return status
}

/** Applies one entity as Holo shows it; false when the plugin broke the protocol. */
const applyOne = async (host: Host.Host, e: Entity.Entity, force: boolean, out: Writer): Promise<boolean> => {
  let reported = false
  const prologue = (): void => {
    if (reported) return
    reported = true
    out.write(1, Report.entity(e, true))
    out.end()
  }
  const said = out.withPrologue(prologue)
  const applied = await host.apply(e, force)()
  if (E.isLeft(applied)) {
    said.faultOutput(applied.left)
    said.error(applied.left.description)
    return false
  }
  said.output(applied.right.output)
  const o = applied.right.outcome
  if (o._tag === 'Failed') {
    said.error(o.message)
    return true
  }
  if (o._tag === 'RequiresForceToOverwrite') said.error(Report.modified)
  if (o._tag === 'RequiresForceToRestore') said.error(Report.deleted)
  if (o._tag !== 'NotChanged') prologue()
  if (o._tag !== 'RequiresForceToOverwrite') return true
  const d = await host.diff(e)()
  if (E.isLeft(d)) {
    out.faultOutput(d.left)
    said.error(d.left.description)
    return d.left._tag !== 'ProtocolViolation' && d.left._tag !== 'TimedOut'
  }
  out.output(d.right.output)
  out.end()
  if (d.right._tag === 'Files') out.write(1, Report.indent(d.right.text))
  return true
}

interface Writer {
  /** Writes through the paragraph tracker. */
  readonly write: (fd: 1 | 2, text: string) => void
  /** Plugin stderr: line by line (Holo colours it by line), the rest held until flushStderr. */
  readonly stderr: (text: string) => void
  readonly flushStderr: () => void
  readonly output: (o: Output.Output) => void
  readonly faultOutput: (f: Fault.Fault) => void
  readonly error: (text: string) => void
  readonly warning: (text: string) => void
  readonly end: () => void
  /** The same writer, running `prologue` before anything is written. */
  readonly withPrologue: (prologue: () => void) => Writer
}

const writer = (sink: Sink): Writer => {
  let state = Paragraphs.initial
  let held = ''
  const make = (before: () => void): Writer => {
    const write = (fd: 1 | 2, text: string): void => {
      if (text === '') return
      before()
      const [next, writes] = Paragraphs.write(state, fd, text)
      state = next
      for (const w of writes) sink.write(w.fd, w.text)
    }
    const stderr = (text: string): void => {
      held += text
      const cut = held.lastIndexOf('\n')
      if (cut === -1) return
      const lines = held.slice(0, cut + 1)
      held = held.slice(cut + 1)
      write(2, lines)
    }
    const flushStderr = (): void => {
      if (held === '') return
      const rest = held
      held = ''
      write(2, rest + '\n')
    }
    const output = (o: Output.Output): void => {
      for (const c of o.chunks) {
        if (c.fd === 1) write(1, c.text)
        else stderr(c.text)
      }
      flushStderr()
    }
    const self: Writer = {
      write,
      stderr,
      flushStderr,
      output,
      faultOutput: (f) => {
        const o = Host.outputOf(f)
        if (o !== undefined) output(o)
      },
      error: (text) => text.split('\n').forEach((l) => write(2, Report.error(l))),
      warning: (text) => write(2, Report.warning(text)),
      end: () => {
        const [next, writes] = Paragraphs.end(state)
        state = next
        for (const w of writes) sink.write(w.fd, w.text)
      },
      withPrologue: (p) => make(p),
    }
    return self
  }
  return make(() => undefined)
}
