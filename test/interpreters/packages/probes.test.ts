// The `package` request family: a batch is one status query per provider the requests name, each
// answer in the place of its request; a provider that cannot answer fails only its own requests.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Fault from '../../../src/core/Fault.js'
import type { Manager, Provider } from '../../../src/interpreters/packages/Manager.js'
import * as Probes from '../../../src/interpreters/packages/probes.js'
import * as Observed from '../../../src/types/package/Observed.js'

describe('the package request family', () => {
  it('asks each provider once for all its names, and answers in the order asked', async () => {
    const asked: Array<[ReadonlyArray<string>, Provider | undefined]> = []
    const broken = Fault.make('NotFound', 'package', 'status', 'apt', 'no apt here')
    const manager: Manager = {
      status: async (names, provider) => {
        asked.push([names, provider])
        return provider === 'apt' ? E.left(broken) : E.right(names.map((n) => Observed.of(undefined, `${n}-1`, provider === 'dnf' ? 'dnf' : 'apt')))
      },
      act: async () => E.right(undefined),
    }
    const answers = await Probes.family(() => manager).answer([
      { name: 'a1', provider: 'dnf' },
      { name: 'b1', provider: 'auto' },
      { name: 'c1', provider: 'dnf' },
      { name: 'd1', provider: 'apt' },
      { name: 'e1' },
    ])
    expect(asked).toEqual([
      [['a1', 'c1'], 'dnf'],
      [['b1', 'e1'], 'auto'],
      [['d1'], 'apt'],
    ])
    expect(answers).toEqual([
      E.right(Observed.of(undefined, 'a1-1', 'dnf')),
      E.right(Observed.of(undefined, 'b1-1')),
      E.right(Observed.of(undefined, 'c1-1', 'dnf')),
      E.left(broken),
      E.right(Observed.of(undefined, 'e1-1')),
    ])
  })
})
