// holo: `plait holo scan|apply|diff [SELECTOR...]`, Holo's own command line with plait as the
// host (holo(8)): the root is $HOLO_ROOT_DIR (default "/"), the output and the exit codes are
// Holo 3's (see interpreters/holo/command.ts), so that scripts and Holo's test suites run with
// plait in Holo's place. `plait holo test DIR...` runs test cases in holo-test(7)'s layout. The
// runtime is loaded only when a holo command runs, so that other commands do not pay for it.
import { Command, CommanderError, Option } from 'commander'

/** The CommanderError code of a holo command's exit (main passes its status through). */
export const exitCode = 'plait.holo'

const exit = (status: number): never => {
  throw new CommanderError(status, exitCode, `exit ${status}`)
}

interface Flags {
  readonly pluginTimeout?: number
}

const timeout = (): Option =>
  new Option('--plugin-timeout <seconds>', 'how long one plugin operation may run, in seconds (default 600); it is then killed with its process group').argParser((v: string) => {
    const n = Number(v)
    if (!Number.isFinite(n) || n <= 0) throw new CommanderError(2, 'commander.invalidArgument', `error: --plugin-timeout ${JSON.stringify(v)} is not a positive number of seconds`)
    return n
  })

/** Runs one Holo command and ends with its exit status. */
const runHolo = async (args: import('../interpreters/holo/command.js').Args, o: Flags): Promise<never> => {
  const [Command, Runtime, Spawn, Streams] = await Promise.all([import('../interpreters/holo/command.js'), import('../interpreters/holo/runtime.js'), import('../interpreters/holo/spawn.js'), import('./streams.js')])
  // plugins run in process groups of their own: an interrupt must end them too (128 + the signal, as a shell reports it)
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const)
    process.once(signal, () => {
      Spawn.killRunning()
      process.exit(code)
    })
  const root = process.env['HOLO_ROOT_DIR'] === undefined || process.env['HOLO_ROOT_DIR'] === '' ? '/' : process.env['HOLO_ROOT_DIR']
  const open = Runtime.open({ root, env: process.env, cwd: process.cwd(), ...(o.pluginTimeout !== undefined ? { timeoutMs: o.pluginTimeout * 1000 } : {}) })
  const status = await Command.run(open, args, { write: (fd, text) => (fd === 1 ? Streams.out(text) : Streams.err(text)) })
  return exit(status)
}

/** Options Holo accepts anywhere among the selectors; anything else that looks like an option is a selector Holo does not recognize. */
const split = (words: ReadonlyArray<string>, known: ReadonlyArray<string>): { readonly flags: ReadonlySet<string>; readonly selectors: ReadonlyArray<string> } => ({
  flags: new Set(words.filter((w) => known.includes(w))),
  selectors: words.filter((w) => !known.includes(w)),
})

/** Adds `plait holo` to a program. */
export const register = (program: Command): void => {
  const holo = program
    .command('holo')
    .description("plait as a Holo host: Holo's command line (scan, apply, diff) on $HOLO_ROOT_DIR, and holo-test(7) cases")
  holo
    .command('scan')
    .description('list the entities of the configured Holo plugins (-s/--short: IDs only; -p/--porcelain: the scan reports)')
    .argument('[selectors...]', 'entity IDs, plugin IDs or resource files')
    .addOption(timeout())
    .allowUnknownOption()
    .helpOption('--help')
    .action(async (words: string[], o: Flags) => {
      const { flags, selectors } = split(words, ['-s', '--short', '-p', '--porcelain'])
      await runHolo({ _tag: 'scan', selectors, short: flags.has('-s') || flags.has('--short'), porcelain: flags.has('-p') || flags.has('--porcelain') }, o)
    })
  holo
    .command('apply')
    .description('provision the selected entities (-f/--force: overwrite or restore what was changed by hand)')
    .argument('[selectors...]', 'entity IDs, plugin IDs or resource files')
    .addOption(timeout())
    .allowUnknownOption()
    .helpOption('--help')
    .action(async (words: string[], o: Flags) => {
      const { flags, selectors } = split(words, ['-f', '--force'])
      await runHolo({ _tag: 'apply', selectors, force: flags.size > 0 }, o)
    })
  holo
    .command('diff')
    .description('show how the selected entities differ from their state as last applied')
    .argument('[selectors...]', 'entity IDs, plugin IDs or resource files')
    .addOption(timeout())
    .allowUnknownOption()
    .helpOption('--help')
    .action(async (words: string[], o: Flags) => {
      await runHolo({ _tag: 'diff', selectors: words }, o)
    })
  holo
    .command('test')
    .description("run Holo plugin test cases in holo-test(7)'s layout (source-tree, expected-*); exit 1 when any fails")
    .argument('<dirs...>', 'test case directories')
    .action(async (dirs: string[]) => {
      const [HoloTest, Streams] = await Promise.all([import('../interpreters/holo/holoTest.js'), import('./streams.js')])
      // holo-test runs its cases under umask 022, so that the modes in a tree do not depend on the caller's
      process.umask(0o022)
      const script = process.argv[1] ?? ''
      const failed = await HoloTest.run(dirs, { holo: [process.execPath, ...process.execArgv, script, 'holo'], env: process.env, cwd: process.cwd() }, { write: (fd, text) => (fd === 1 ? Streams.out(text) : Streams.err(text)) })
      exit(failed ? 1 : 0)
    })
}
