// The command line's shared options: a repeatable option keeps every value in the order given, in
// a list of each parse's own (it is pushed to, not copied for each value).
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import * as Options from '../../src/cli/options.js'

const parsed = (args: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  const program = new Command().exitOverride().addOption(Options.fact())
  program.parse(['node', 'plait', ...args])
  return program.opts<{ fact?: ReadonlyArray<string> }>().fact
}

describe('a repeatable option', () => {
  it('keeps every value in the order given, 40,000 of them', () => {
    const many = Array.from({ length: 40_000 }, (_, i) => `k${i}=v`)
    expect(parsed(many.map((f) => `--fact=${f}`))).toEqual(many)
  })

  it('is undefined when not given, and each parse has a list of its own', () => {
    expect(parsed([])).toBeUndefined()
    const first = parsed(['--fact', 'a=1'])
    const second = parsed(['--fact', 'b=2', '--fact', 'c=3'])
    expect(first).toEqual(['a=1'])
    expect(second).toEqual(['b=2', 'c=3'])
  })
})
