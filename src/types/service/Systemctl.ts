// Systemctl: systemctl's output as plait reads it (pure): the is-active and is-enabled tables of
// CCM's systemd provider, the `systemctl show` blocks that answer for all of a run's services in
// one process, and how a run of systemctl that found no running manager reads. Every value here
// comes from a tool: it is checked against the tables and never trusted beyond them.
import * as E from 'fp-ts/lib/Either.js'

// model

/** What systemd reports of one unit, as its words (the `LoadState`, `ActiveState` and `UnitFileState` properties). */
export interface Unit {
  readonly load: string
  readonly active: string
  /** Empty when systemd knows no unit file state (the unit is not found, or has no unit file). */
  readonly unitFile: string
}

/** The properties plait asks `systemctl show` for. */
export const properties = ['Id', 'LoadState', 'ActiveState', 'UnitFileState'] as const

/** Why a run of systemctl did not answer. */
export type Failure = { readonly _tag: 'NotRunning' } | { readonly _tag: 'Failed'; readonly detail: string }

// the tables

/** The is-active table: true (running), false (stopped), or an error for any other word. */
export const running = (word: string): E.Either<string, boolean> => {
  switch (word) {
    case 'active':
      return E.right(true)
    case 'inactive':
    case 'failed':
    case 'activating':
      return E.right(false)
    default:
      return E.left(`invalid systemctl is-active output ${JSON.stringify(word.slice(0, 40))}`)
  }
}

const enabledWords: Readonly<Record<string, boolean>> = {
  enabled: true,
  'enabled-runtime': true,
  alias: true,
  static: true,
  indirect: true,
  generated: true,
  transient: true,
  linked: false,
  'linked-runtime': false,
  masked: false,
  'masked-runtime': false,
  disabled: false,
}

/** The is-enabled table: true (enabled), false (disabled), or an error ("service not found" for `not-found`). */
export const enabled = (word: string): E.Either<string, boolean> => {
  if (word === 'not-found') return E.left('service not found')
  const v = Object.prototype.hasOwnProperty.call(enabledWords, word) ? enabledWords[word] : undefined
  return v === undefined ? E.left(`invalid systemctl is-enabled output ${JSON.stringify(word.slice(0, 40))}`) : E.right(v)
}

// parsing

/** The longest line plait reads of a `show` answer (its values are a few words). */
const maxLine = 4096

/**
 * Parses the output of `systemctl show --property=... UNIT...`: one block of `Key=Value` lines
 * per unit, blocks separated by an empty line, in the order the units were given. Any other shape
 * (a count that differs, a line without `=`, a block without the states asked) is an error.
 */
export const parseShow = (stdout: string, count: number): E.Either<string, ReadonlyArray<Unit>> => {
  const blocks: Array<Map<string, string>> = []
  let current: Map<string, string> | undefined
  for (const line of stdout.split('\n')) {
    if (line === '') {
      current = undefined
      continue
    }
    if (line.length > maxLine) return E.left(`systemctl show printed a line longer than ${maxLine} characters`)
    const eq = line.indexOf('=')
    if (eq <= 0) return E.left(`systemctl show printed a line that is not Key=Value: ${JSON.stringify(line.slice(0, 80))}`)
    if (current === undefined) {
      current = new Map()
      blocks.push(current)
    }
    current.set(line.slice(0, eq), line.slice(eq + 1))
  }
  if (blocks.length !== count) return E.left(`systemctl show described ${blocks.length} unit${blocks.length === 1 ? '' : 's'} where ${count} ${count === 1 ? 'was' : 'were'} asked`)
  const units: Unit[] = []
  for (const b of blocks) {
    const load = b.get('LoadState')
    const active = b.get('ActiveState')
    if (load === undefined || active === undefined) return E.left('systemctl show printed a unit without its LoadState or ActiveState')
    units.push({ load, active, unitFile: b.get('UnitFileState') ?? '' })
  }
  return E.right(units)
}

/**
 * How a run of systemctl that exited non-zero reads: "not running" when it says there is no
 * manager to talk to (systemd installed but not PID 1, as in a container, prints "System has not
 * been booted with systemd as init system (PID 1). Can't operate." and "Failed to connect to bus"),
 * otherwise a failure with the last lines it printed.
 */
export const failure = (stderr: string): Failure => {
  if (/has not been booted with systemd|Failed to connect to (system scope )?bus|Failed to get D-Bus connection/.test(stderr)) return { _tag: 'NotRunning' }
  const tail = stderr.trim().split('\n').slice(-3).join(' / ').slice(0, 400)
  return { _tag: 'Failed', detail: tail === '' ? 'it printed nothing on stderr' : tail }
}

/** The diagnostic of a machine without a running systemd manager. */
export const notRunning = 'no suitable provider: systemd is not running'

/** The diagnostic of a machine without systemctl. */
export const notInstalled = 'no suitable provider: systemctl was not found'
