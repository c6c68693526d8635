// Step: the exec type's step (`exec.run`) as the plan carries it: a command, its guards and how
// its exit is judged. It cannot be undone.
import * as t from 'io-ts'

// model

/** A command to run (an exec resource, or one of its guards): its words, where, with what environment, for how long. */
export const CommandC = t.intersection([
  t.type({ argv: t.array(t.string), environment: t.array(t.string), timeoutMs: t.number }),
  t.partial({ cwd: t.string, path: t.string }),
])
export type CommandC = t.TypeOf<typeof CommandC>

/**
 * Run an exec resource's command; it cannot be undone. `guards` are checked again at its turn
 * (unless a subscription triggered it): an earlier step may have changed their answer.
 */
export const ExecRun = t.intersection([
  t.type({
  _tag: t.literal('exec.run'),
  /** The command line as the manifest gave it, for people. */
  line: t.string,
  provider: t.keyof({ posix: null, shell: null }),
  command: CommandC,
  /** Exit codes that mean success. */
  returns: t.array(t.number),
  logoutput: t.boolean,
  guards: t.partial({ creates: t.string, onlyif: CommandC, unless: CommandC }),
  reason: t.string,
  noop: t.string,
  }),
  t.partial({
    /** The subscribed resources: when one of them changed in this run, the command runs whatever its guards say. */
    subscribe: t.array(t.string),
    /** A refresh only: the command runs only if one of these changed in this run (the guards said skip at plan time). */
    when: t.array(t.string),
  }),
])
export type ExecRun = t.TypeOf<typeof ExecRun>
