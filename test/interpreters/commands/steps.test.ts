// The exec step's report lines of a command's output (`logoutput`): every non-empty line as
// `output: LINE`, the last maxOutputLines of them when there are more, after a line that says how
// many are not shown.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Steps from '../../../src/interpreters/commands/steps.js'

/** The model: every line, split and filtered, then the last `most`. */
const model = (stdout: string, most: number): ReadonlyArray<string> => {
  const lines = stdout.split('\n').filter((l) => l !== '').map((l) => `output: ${l}`)
  if (lines.length <= most) return lines
  const hidden = lines.length - most
  return [`output: (${hidden} earlier line${hidden === 1 ? '' : 's'} not shown)`, ...lines.slice(-most)]
}

describe('outputLines', () => {
  test.prop([fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' ', '\r'), maxLength: 200 }), fc.integer({ min: 1, max: 12 })])('is the model: the non-empty lines, the last ones when there are more than it shows', (stdout, most) => {
    expect(Steps.outputLines(stdout, most)).toEqual(model(stdout, most))
  })

  it('shows the last 1,000 lines of a million', () => {
    const stdout = Array.from({ length: 1_000_000 }, (_, i) => String(i + 1)).join('\n') + '\n'
    const lines = Steps.outputLines(stdout)
    expect(lines.length).toBe(1001)
    expect(lines[0]).toBe('output: (999000 earlier lines not shown)')
    expect(lines[1]).toBe('output: 999001')
    expect(lines.at(-1)).toBe('output: 1000000')
  })
})
