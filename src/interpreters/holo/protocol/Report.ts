// Report: Holo 3's words on a terminal. An entity's report (the line `VERB ID (REASON)` and its
// informational lines right-aligned under the verb), the messages of apply's fd 3 outcomes, and
// Holo's error and warning lines (`!! ...`, `>> ...`). Colours are not part of these texts: a
// terminal painter adds them (Holo's are removed by every script that compares its output).
import * as Entity from './Entity.js'

// constructors

/**
 * An entity's report (Holo's PrintReport), without the paragraph end: with the action, the verb
 * first and the lines aligned to the verb's width; without it (scan), the lines in 12 columns.
 */
export const entity = (e: Entity.Entity, withAction: boolean): string => {
  const plain = e.actionVerb === '' || !withAction
  const width = plain ? 12 : e.actionVerb.length
  const head = (plain ? e.id : `${e.actionVerb} ${e.id}`) + (e.actionReason === '' ? '' : ` (${e.actionReason})`) + '\n'
  return head + e.info.map((l) => `${padStart(l.key, width)} ${l.value}\n`).join('')
}

/** Holo's error line. */
export const error = (text: string): string => `!! ${text.replace(/\n$/u, '')}\n`

/** Holo's warning line. */
export const warning = (text: string): string => `>> ${text.replace(/\n$/u, '')}\n`

/** The error Holo shows for an entity modified since it was provisioned. */
export const modified = 'Entity has been modified by user (use --force to overwrite)'

/** The error Holo shows for an entity deleted since it was provisioned. */
export const deleted = 'Entity has been deleted by user (use --force to restore)'

/** A diff indented by four spaces per line, as apply shows it under an entity that needs --force. */
export const indent = (diff: string): string => {
  // Go's (?m:^) starts a line only after "\n" (and at the end of a text ending in one); then Holo trims one trailing indent.
  const out = diff
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n')
  return out.endsWith('    ') ? out.slice(0, -4) : out
}

/** Pads on the left to a width counted in code points, as Go's %*s does. */
const padStart = (s: string, width: number): string => ' '.repeat(Math.max(0, width - [...s].length)) + s
