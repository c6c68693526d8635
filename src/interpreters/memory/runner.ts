// runner: a scripted command runner over a memory machine, for the laws' exec resources. Its
// commands have small, declared effects on the machine, made through the Machine's own calls (so
// they count as mutations, and injected failures and crashes reach them as they reach a step):
//
//   test -e PATH     exits 0 when PATH exists, 1 when not (a guard: it never changes anything)
//   true / false     exit 0 / 1
//   touch PATH       creates PATH empty when it is absent (one mutation), else changes nothing
//   rm PATH          removes the file PATH; exits 1 when it is absent
//   write PATH TEXT  creates PATH holding TEXT; exits 0 when it already holds TEXT, 1 for other content
//   mark PATH N      does as touch, then exits N (for `returns`)
//
// Every other command cannot start (NotFound), as a missing program cannot. A fault of the machine
// (a crash, an injected failure) is the command's fault: what it did before stays done.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import type { Machine } from '../Machine.js'
import type * as Runner from '../Runner.js'

export interface MemoryRunner extends Runner.Runner {
  /** The command lines run so far (words joined by spaces), guards included. */
  readonly calls: () => ReadonlyArray<string>
}

/** The program of guards: it only asks (true and false change nothing either, but a test may run them as the command itself). */
export const queries: ReadonlySet<string> = new Set(['test'])

const exit = (exitCode: number, stderr = ''): Runner.Exit => ({ exitCode, signal: undefined, stdout: '', stderr, durationMs: 0 })

type Result = Promise<E.Either<Fault.Fault, Runner.Exit>>

/** Whether a path exists (a fault of the machine is the command's). */
const exists = async (machine: Machine, path: string): Promise<E.Either<Fault.Fault, boolean>> => E.map((p: { _tag: string }) => p._tag !== 'Absent')(await machine.probe(path)())

/** Creates an absent path holding `text`; `same` says whether one already there counts as done. */
const create = async (machine: Machine, path: string, text: string, same: (held: string) => boolean, code = 0): Result => {
  const there = await machine.probe(path)()
  if (E.isLeft(there)) return there
  if (there.right._tag !== 'Absent') {
    if (there.right._tag !== 'File') return E.right(exit(1, `${path}: not a regular file`))
    const held = await machine.readFile(path)()
    if (E.isLeft(held)) return held
    return E.right(same(Buffer.from(held.right).toString('utf8')) ? exit(code) : exit(1, `${path}: holds other content`))
  }
  const made = await machine.createExclusive(path, Buffer.from(text, 'utf8'))()
  return E.isLeft(made) ? (made.left._tag === 'NotFound' || made.left._tag === 'NotADirectory' ? E.right(exit(1, `${path}: ${made.left.description}`)) : made) : E.right(exit(code))
}

/** One command's meaning (undefined: no such program). */
const interpret = (machine: Machine, argv: ReadonlyArray<string>): Result | undefined => {
  const [program, a, b, ...rest] = argv
  const arity = (n: number) => argv.length === n + 1 && rest.length === 0
  switch (program) {
    case 'true':
      return arity(0) ? Promise.resolve(E.right(exit(0))) : undefined
    case 'false':
      return arity(0) ? Promise.resolve(E.right(exit(1))) : undefined
    case 'test':
      return a === '-e' && b !== undefined && arity(2) ? exists(machine, b).then(E.map((there) => exit(there ? 0 : 1))) : undefined
    case 'touch':
      return a !== undefined && arity(1) ? create(machine, a, '', () => true) : undefined
    case 'write':
      return a !== undefined && b !== undefined && arity(2) ? create(machine, a, b, (held) => held === b) : undefined
    case 'mark': {
      const code = Number(b)
      return a !== undefined && arity(2) && Number.isInteger(code) && code >= 0 && code <= 255 ? create(machine, a, '', () => true, code) : undefined
    }
    case 'rm':
      return a !== undefined && arity(1)
        ? (async () => {
            const there = await machine.probe(a)()
            if (E.isLeft(there)) return there
            if (there.right._tag === 'Absent') return E.right(exit(1, `rm: ${a}: no such file`))
            if (there.right._tag === 'Directory') return E.right(exit(1, `rm: ${a}: is a directory`))
            const gone = await machine.remove(a, { recursive: false })()
            return E.isLeft(gone) ? gone : E.right(exit(0))
          })()
        : undefined
    default:
      return undefined
  }
}

/** A runner of the commands above over `machine`; it keeps every command line it was asked to run, in `log` when given (one log can follow a machine and its revival). */
export const make = (machine: Machine, log: string[] = []): MemoryRunner => {
  const calls = log
  return {
    calls: () => [...calls],
    run: async (c) => {
      const program = c.argv[0]
      if (program === undefined) return E.left(Fault.make('Failed', 'exec', 'run', '', 'no command specified'))
      calls.push(c.argv.join(' '))
      const r = interpret(machine, c.argv)
      return r === undefined ? E.left(Fault.make('NotFound', 'exec', 'run', program, 'could not start: the memory runner has no such command')) : r
    },
  }
}
