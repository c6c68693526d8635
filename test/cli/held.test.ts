// held: an internal error's message is redacted with the sensitive values the process held: none
// of them, nor any of the forms redaction looks for, reaches the terminal.
import { describe, expect, it } from 'vitest'
import * as Held from '../../src/cli/held.js'
import * as Resolve from '../../src/load/resolve.js'

describe('held', () => {
  it('leaves a message as it is while nothing is held, then replaces every form of a held value', () => {
    const message = 'Invalid regular expression: /s3cret-Line-One\\nsecond-line|x/: too large'
    expect(Held.scrub(message)).toBe(message)
    Held.hold(Resolve.texts('s3cret-Line-One\nsecond-line'))
    const out = Held.scrub(message)
    expect(out).not.toMatch(/s3cret|second-line/)
    expect(out).toBe(`Invalid regular expression: /${Held.stand}|x/: too large`)
    expect(Held.scrub('plain words')).toBe('plain words')
  })
})
