// facts: `plait facts [QUERY]`, the facts a manifest sees on this machine (or, with --facts,
// on another), whole or one value by a dotted query.
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Facts from '../facts/Facts.js'
import * as FactsGather from '../interpreters/posix/facts.js'
import * as FactsFiles from '../interpreters/posix/factsFiles.js'
import * as Posix from '../interpreters/posix/posix.js'
import * as Options from './options.js'
import * as Render from './render.js'
import * as Streams from './streams.js'
import * as Terminal from '../core/Terminal.js'

// model

/** What the command uses from the outside world; tests replace parts of it. */
export interface Deps {
  readonly out: (s: string) => void
  readonly err: (s: string) => void
  /** Configuration directories for facts files, lowest precedence first. */
  readonly dirs: () => ReadonlyArray<string>
  readonly gather: (o: FactsGather.Options) => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Facts.Facts>>
}

interface Flags {
  readonly root?: string
  readonly facts?: string
  readonly fact?: ReadonlyArray<string>
  readonly json?: boolean
}

const defaults: Deps = {
  out: Streams.out,
  err: Streams.err,
  dirs: () => FactsFiles.defaultDirs(process.env),
  gather: FactsGather.gather,
}

/** Exit code 1 without more output: the diagnostics are already written (main turns this into the exit code). */
const failed = (): CommanderError => new CommanderError(1, 'plait.facts', 'plait facts failed')

// constructors

/** Adds `plait facts [QUERY] [--root DIR] [--facts FILE] [--fact k=v]... [--json]` to a program. */
export const register = (program: Command, deps: Partial<Deps> = {}): Command => {
  const d: Deps = { ...defaults, ...deps }
  return program
    .command('facts')
    .description('print the facts a manifest sees: system facts, facts files, --facts and --fact, merged')
    .argument('[query]', 'a dotted path: host.info.platformFamily, cpu.info.0.modelName, cpu.info.# (a count), cpu.info.#.modelName')
    .addOption(Options.root('read the operating system release files (/etc/os-release, ...) below this directory'))
    .addOption(Options.facts("another machine's facts (JSON or YAML, as `plait facts --json` prints them there), used instead of this machine's"))
    .addOption(Options.fact('set a fact, repeatable; a dotted key builds maps; the value is a string'))
    .option('--json', 'print JSON')
    .action(async (query: string | undefined, o: Flags) => {
      const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
        d.err(Render.diagnostics(ds))
        throw failed()
      }
      const resolved = await Options.resolveRoot(o.root)
      const root = E.isLeft(resolved) ? fail([resolved.left]) : resolved.right
      const facts = await d.gather({
        machine: Posix.make(root === '/' ? {} : { root }),
        dirs: d.dirs(),
        ...(o.facts !== undefined ? { factsFile: o.facts } : {}),
        assignments: o.fact ?? [],
      })
      if (E.isLeft(facts)) return fail(facts.left)
      const value = Facts.query(facts.right, query ?? '')
      if (E.isLeft(value)) return fail([Diagnostic.make('Validation', `no fact at "${query ?? ''}": ${value.left}`)])
      d.out(o.json === true ? Terminal.json(Facts.render(value.right, 'json')) : Facts.render(value.right, 'text'))
    })
}
