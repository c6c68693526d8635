#!/usr/bin/env node
// main: the plait command line; the one place where errors become exit codes and text. Each command's
// module (plan, show and apply are planApply.ts's) is loaded when the command line names it.
import { fileURLToPath } from 'node:url'
import { Command, CommanderError } from 'commander'
import * as Installation from '../interpreters/installation.js'
import { EXIT_ERROR, Exit } from './exit.js'
import * as Held from './held.js'
import * as Streams from './streams.js'

const version = Installation.version(import.meta.url)

const { out, err } = Streams

const program = new Command()
  .name('plait')
  .description('A configuration manager built like a compiler: plan, review, apply.')
  .version(version)
  .exitOverride()
  .configureOutput({ writeErr: err, writeOut: out })
  .showHelpAfterError()

/** One of planApply's commands, which share that module. */
const fromPlanApply =
  (name: 'registerPlan' | 'registerShow' | 'registerApply') =>
  async (): Promise<{ readonly register: (program: Command) => void }> => ({ register: (await import('./planApply.js'))[name] })

/**
 * The commands, in the order the help lists them (by name; a module may register more than one),
 * each loaded and registered only when the command line needs it (registerFor): a start runs at
 * most one, and `--version` none, so it does not set up the modules of the others, nor have
 * commander make their options.
 */
const onDemand: ReadonlyArray<{ readonly names: ReadonlyArray<string>; readonly load: () => Promise<{ readonly register: (program: Command) => unknown }> }> = [
  { names: ['plan'], load: fromPlanApply('registerPlan') },
  { names: ['show'], load: fromPlanApply('registerShow') },
  { names: ['apply'], load: fromPlanApply('registerApply') },
  { names: ['validate', 'compile'], load: () => import('./compileCommands.js') },
  { names: ['facts'], load: () => import('./facts.js') },
  { names: ['check'], load: () => import('./check.js') },
  { names: ['ensure', 'status'], load: () => import('./ensure.js') },
  { names: ['session'], load: () => import('./session.js') },
  { names: ['holo'], load: () => import('./holo.js') },
  { names: ['policy'], load: () => import('./policy.js') },
  { names: ['secret'], load: () => import('./secret.js') },
  { names: ['history', 'rollback'], load: () => import('./history.js') },
  { names: ['diff'], load: () => import('./diff.js') },
  { names: ['ral'], load: () => import('./ral.js') },
  { names: ['provider'], load: () => import('./provider.js') },
]

/**
 * Registers the commands this command line needs: the one it names; none for --version; all of
 * them, in the help's order, for the help listing, for an option before any command, or for a
 * name plait does not know (so that commander lists them, or suggests the nearest).
 */
const registerFor = async (sub: string | undefined): Promise<void> => {
  if (sub === '--version' || sub === '-V') return
  const named = onDemand.filter((c) => sub !== undefined && c.names.includes(sub))
  for (const c of named.length > 0 ? named : onDemand) (await c.load()).register(program)
}

const main = async (): Promise<number> => {
  try {
    await registerFor(process.argv[2])
    await program.parseAsync(process.argv)
    return 0
  } catch (e) {
    if (e instanceof Exit) return e.code
    if (e instanceof CommanderError) {
      // A command that owns its exit status (check's nagios status, holo's, diff's 0/1/2, ral's
      // ralsh codes: 1 not found, 2 error) throws a CommanderError whose code starts with `plait.`:
      // that status passes through. Other commander exits are usage errors.
      if (e.code.startsWith('plait.')) return e.exitCode
      return e.exitCode === 0 ? 0 : EXIT_ERROR
    }
    // redacted with the sensitive values this process held: nothing else was written to redact it
    err(Held.scrub(`error: internal error: ${(e as Error).message}\n  please report this with the command you ran\n`))
    // the stack mapped to the TypeScript source: the shipped script's names and lines say nothing
    if (process.env['PLAIT_DEBUG'] !== undefined) err(Held.scrub(`${(await import('./stack.js')).readable((e as Error).stack ?? '', fileURLToPath(import.meta.url))}\n`))
    return EXIT_ERROR
  }
}

// No top-level await: the bundled command is a script (scripts/bundle.mjs), which has none.
void main().then((status) => {
  // output nobody chose to lose (not a reader's stopping early): said on the other stream, and exit 1
  const lost = Streams.lostOutput()
  if (lost !== undefined) err(`error: ${lost}: the rest of the output was lost; the command ran to its end\n`)
  const code = lost !== undefined ? EXIT_ERROR : status
  process.exitCode = code
  // Every command has finished its work: once stdout and stderr have handed all they were given to
  // the system, exit at once rather than have Node dispose of the heap page by page (some 10 ms
  // after a large plan). Output still queued (a pipe that is full) is left to the normal exit.
  if (Streams.drained()) process.exit(code)
})
