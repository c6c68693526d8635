// Status: what plait knows of a service once systemd answered (pure): running or stopped by the
// is-active table, enabled or disabled at boot by the is-enabled table (unknown when systemd
// has no unit file state for it), the words it said, and the digest the staleness check compares.
import * as E from 'fp-ts/lib/Either.js'
import * as Digest from '../../core/Digest.js'
import * as Systemctl from './Systemctl.js'

// model

export interface Status {
  readonly running: boolean
  /** undefined: systemd reports no unit file state, so whether it starts at boot is not known. */
  readonly enabled: boolean | undefined
  /** systemd's words, for people (`active`, `failed`, `enabled`, `masked`, ...). */
  readonly active: string
  readonly unitFile: string
  /** Set when systemd does not know the unit (`LoadState=not-found`): it is neither running nor enabled. */
  readonly missing?: true
}

// constructors

/** A unit systemd does not know: "service not found", unless an earlier resource of the run may install it. */
export const missing: Status = { running: false, enabled: false, active: 'not-found', unitFile: 'not-found', missing: true }

/** The status of a unit by the spec's tables. */
export const of = (u: Systemctl.Unit): E.Either<string, Status> => {
  if (u.load === 'not-found') return E.right(missing)
  const running = Systemctl.running(u.active)
  if (E.isLeft(running)) return running
  if (u.unitFile === '') return E.right({ running: running.right, enabled: undefined, active: u.active, unitFile: u.unitFile })
  const enabled = Systemctl.enabled(u.unitFile)
  if (E.isLeft(enabled)) return enabled
  return E.right({ running: running.right, enabled: enabled.right, active: u.active, unitFile: u.unitFile })
}

// interop

/** What the plan's decisions depend on, digested: a change of it between plan and apply is drift. */
export const digest = (s: Status): string => Digest.ofValue(s.missing === true ? { missing: true } : { running: s.running, enabled: s.enabled ?? null })

/** One line for people: `running (active), enabled at boot (enabled)`. */
export const summary = (s: Status): string =>
  s.missing === true
    ? 'not found'
    : `${s.running ? 'running' : 'stopped'} (${s.active}), ${s.enabled === undefined ? 'boot state unknown (no unit file state)' : s.enabled ? `enabled at boot (${s.unitFile})` : `disabled at boot (${s.unitFile})`}`
