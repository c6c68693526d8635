// provider: `plait provider test PATH`, how provider authors test their work: property tests of a
// libral provider run offline in sandboxes (PLAIT_ROOT_DIR). Exit 0 when every provider passes,
// 1 when a property fails (the shrunk counterexample is printed), 2 when a provider can not even
// be loaded (bad metadata, not executable, describe fails) or the command is misused.
import { readdir, stat } from 'node:fs/promises'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as ProviderTest from '../interpreters/libral/providerTest.js'
import { EXIT_ERROR, EXIT_NOT_FOUND, EXIT_OK, exitWith, parseTimeout, processIo, type Io } from './ral.js'
import * as Stack from './stack.js'
import * as Streams from './streams.js'

interface Options {
  readonly runs?: string
  readonly steps?: string
  readonly seed?: string
  readonly replayPath?: string
  readonly timeout?: string
  readonly fixture?: string
  readonly json?: boolean
}

const positiveInt = (io: Io, flag: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  const n = Number(text)
  if (!Number.isSafeInteger(n) || n < 1) {
    io.err(`error: ${flag} ${text}: not a positive whole number\n`)
    return exitWith(EXIT_ERROR)
  }
  return n
}

/** The provider files a PATH names: the file itself, or DIR/providers/*.prov, or DIR/*.prov. */
const providerFiles = async (io: Io, path: string): Promise<ReadonlyArray<string>> => {
  let st
  try {
    st = await stat(path)
  } catch {
    io.err(`error: ${path}: no such file or directory\n`)
    return exitWith(EXIT_ERROR)
  }
  if (!st.isDirectory()) return [path]
  for (const dir of [nodePath.join(path, 'providers'), path]) {
    try {
      const names = (await readdir(dir)).filter((n) => n.endsWith('.prov')).sort()
      if (names.length > 0) return names.map((n) => nodePath.join(dir, n))
    } catch {
      // not there: try the next place
    }
  }
  io.err(`error: ${path}: no providers (*.prov) in it or in its providers/ directory\n`)
  return exitWith(EXIT_ERROR)
}

const run = async (io: Io, path: string, o: Options): Promise<number> => {
  const runs = positiveInt(io, '--runs', o.runs)
  const steps = positiveInt(io, '--steps', o.steps)
  const seed = o.seed === undefined ? undefined : Number(o.seed)
  if (seed !== undefined && !Number.isSafeInteger(seed)) {
    io.err(`error: --seed ${o.seed}: not a whole number\n`)
    return EXIT_ERROR
  }
  if (o.replayPath !== undefined && seed === undefined) {
    io.err('error: --replay-path needs the --seed of the run it replays\n')
    return EXIT_ERROR
  }
  const timeoutSeconds = parseTimeout(o.timeout, io)
  if (o.fixture !== undefined && !(await stat(o.fixture).then((s) => s.isDirectory(), () => false))) {
    io.err(`error: --fixture ${o.fixture}: not a directory\n`)
    return EXIT_ERROR
  }
  const files = await providerFiles(io, path)
  let status = EXIT_OK
  const reports: unknown[] = []
  for (const file of files) {
    const r = await ProviderTest.testProvider({
      path: file,
      hostEnv: io.env,
      ...(runs !== undefined ? { runs } : {}),
      ...(steps !== undefined ? { steps } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(o.replayPath !== undefined ? { replayPath: o.replayPath } : {}),
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      ...(o.fixture !== undefined ? { fixture: o.fixture } : {}),
    })
    if (E.isLeft(r)) {
      io.err(r.left.map(Diagnostic.render).join('\n') + '\n')
      reports.push({ path: file, ok: false, errors: r.left.map(Diagnostic.render) })
      status = EXIT_ERROR
      continue
    }
    if (r.right.failure !== undefined) status = Math.max(status, EXIT_NOT_FOUND)
    // an unexpected error's stack, mapped to the TypeScript lines (the shipped script's say nothing)
    const x = r.right.failure === undefined ? r.right : { ...r.right, failure: { ...r.right.failure, message: Stack.readable(r.right.failure.message, fileURLToPath(import.meta.url)) } }
    if (o.json === true) {
      reports.push({ path: file, provider: x.meta.qname, ok: x.failure === undefined, runs: x.runs, seed: x.seed, invocations: x.invocations, durationMs: x.durationMs, warnings: x.warnings, ...(x.skipped !== undefined ? { skipped: x.skipped } : {}), ...(x.failure !== undefined ? { failure: { ...x.failure, counterexample: x.failure.counterexample.map((s) => ProviderTest.renderStep(x.meta, s)) } } : {}) })
    } else io.out(ProviderTest.renderReport(x))
  }
  if (o.json === true) io.out(Streams.json({ providers: reports }))
  return status
}

/** Adds `plait provider test` to a program. */
export const register = (program: Command, io: Io = processIo): void => {
  const provider = program.command('provider').description('tools for libral provider authors')
  provider
    .command('test')
    .description('property-test a libral provider offline, in sandboxes passed as PLAIT_ROOT_DIR')
    .argument('<path>', 'a provider (.prov), or a directory of them (DIR/providers/*.prov or DIR/*.prov)')
    .option('--runs <n>', `generated sequences to try (default ${ProviderTest.defaultRuns})`)
    .option('--steps <n>', `the most desired states per sequence (default ${ProviderTest.defaultSteps})`)
    .option('--seed <n>', 'the random seed (printed with every result)')
    .option('--replay-path <path>', 'replay a reported failure directly (with its --seed)')
    .option('--timeout <seconds>', 'kill a provider run that takes longer (default: its plait.timeout, else 60)')
    .option('--fixture <dir>', 'copy this directory into each sandbox first (an /etc to start from)')
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nExit status:\n  0 when every provider passes\n  1 when a property fails\n  2 when a provider can not be loaded or the command is misused\n')
    .action(async (path: string, o: Options) => {
      const code = await run(io, path, o)
      if (code !== EXIT_OK) exitWith(code)
    })
}
