// held: the sensitive values this process holds in clear. Plan and apply redact every text they
// make of a plan (planfile/Redact.ts); an internal error's message is the one text nothing was
// written to redact, and it may quote what the failing code held (a V8 error once quoted a whole
// regular expression of secrets). So plan and apply note here each value as they seal or reveal,
// and the command line's last words on an internal error are redacted with them.
import * as Literals from '../core/Literals.js'

/** What stands for a sensitive value in an internal error's message. */
export const stand = '⟦sensitive⟧'

const held: string[] = []

/** Notes sensitive values (each in every form redaction looks for) as held by this process. */
export const hold = (values: ReadonlyArray<string>): void => {
  for (const v of values) held.push(v)
}

/** A text with every held value replaced (the longest first, as Redact does), for the terminal. */
export const scrub = (text: string): string => {
  const l = held.length === 0 ? undefined : Literals.compile(held)
  return l === undefined ? text : Literals.replace(l, text, () => stand)
}
