import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Args from '../../src/ensure/Args.js'
import * as Registry from '../../src/types/registry.js'

const types = Registry.types().names
const name = fc.string({ minLength: 1, maxLength: 40 })
const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/).filter((k) => !['name', 'require', 'subscribe', 'enable', 'force', 'refreshonly', 'refresh_only', 'logoutput', 'returns', 'environment'].includes(k))

describe('Args', () => {
  fcTest.prop([fc.constantFrom(...types), name, fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }), fc.array(fc.tuple(key, fc.string({ maxLength: 20 })), { maxLength: 5 })])(
    'maps every registered type: the positional arguments it takes and any property flags give a one-resource document of exactly those properties',
    (type, n, rawArgs, props) => {
      const args = rawArgs.slice(0, Args.positionalsOf(type).length)
      const r = Args.resource({ type, name: n, args, props, require: [], subscribe: [] })
      expect(E.isRight(r)).toBe(true)
      if (E.isLeft(r)) return
      const expected: Record<string, unknown> = {}
      for (const [i, a] of args.entries()) expected[Args.positionalsOf(type)[i]!] = a
      for (const [k, v] of props) expected[k] = v
      expect(r.right.properties).toEqual(expected)
      expect(JSON.parse(Args.document(r.right))).toEqual({ ccm: { resources: [{ [type]: [{ [n]: expected }] }] } })
    },
  )

  fcTest.prop([fc.constantFrom(...types), name, fc.array(fc.string(), { minLength: 3, maxLength: 5 })])('refuses more positional arguments than a type takes, naming how many it takes', (type, n, args) => {
    const r = Args.resource({ type, name: n, args, props: [], require: [], subscribe: [] })
    expect(r).toMatchObject({ left: [expect.stringContaining(`but a ${type} takes`)] })
  })

  it('gives `package zsh 5.9` as ensure 5.9, which the package type decodes', () => {
    const r = Args.resource({ type: 'package', name: 'zsh', args: ['5.9'], props: [], require: [], subscribe: [] })
    expect(E.isRight(r)).toBe(true)
    if (E.isLeft(r)) return
    const c = compile('ensure.yaml', Args.document(r.right), '/srv')
    expect(E.isRight(c) && c.right.resources[0]).toMatchObject({ id: 'package#zsh', ensure: '5.9' })
  })

  it('keeps 50,000 repeated list flags in order (each pushed, not the list copied per flag)', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `V${i}=${i}`)
    const r = Args.resource({ type: 'exec', name: '/bin/true', args: [], props: many.map((m) => ['environment', m] as const), require: [], subscribe: [] })
    expect(E.isRight(r) && r.right.properties['environment']).toEqual(many)
  })

  it('types flag values: booleans, comma-separated numbers and repeated lists; bad ones are named', () => {
    const r = Args.resource({ type: 'exec', name: '/bin/true', args: [], props: [['refresh_only', 'true'], ['returns', '0, 2'], ['environment', 'A=1'], ['environment', 'B=2']], require: [], subscribe: [] })
    expect(r).toEqual(E.right({ type: 'exec', name: '/bin/true', properties: { refresh_only: true, returns: [0, 2], environment: ['A=1', 'B=2'] } }))
    expect(Args.resource({ type: 'service', name: 'web', args: [], props: [['enable', 'yes']], require: [], subscribe: [] })).toEqual(E.left(['enable: expected true or false, got "yes"']))
    expect(Args.resource({ type: 'exec', name: 'x', args: [], props: [['returns', '1,a']], require: [], subscribe: [] })).toEqual(E.left(['returns: expected whole numbers separated by commas, got "1,a"']))
  })

  it('refuses an empty name, a bad reference and links given as properties', () => {
    expect(Args.resource({ type: 'file', name: '', args: [], props: [], require: [], subscribe: [] })).toEqual(E.left(['file: the name is empty']))
    expect(Args.resource({ type: 'service', name: 'web', args: [], props: [], require: [], subscribe: ['/etc/x'] })).toEqual(E.left(['"/etc/x": a reference is TYPE#NAME, e.g. file#/etc/motd']))
    expect(Args.resource({ type: 'service', name: 'web', args: [], props: [['subscribe', 'file#/x']], require: [], subscribe: [] })).toEqual(E.left(['--prop subscribe: give --subscribe TYPE#NAME']))
  })

  it('reads --prop K=V, refusing text without = or with a bad name', () => {
    expect(Args.prop('mode=0644')).toEqual(E.right(['mode', '0644']))
    expect(Args.prop('content=a=b')).toEqual(E.right(['content', 'a=b']))
    expect(Args.prop('=x')).toEqual(E.left('--prop "=x": expected KEY=VALUE'))
    expect(Args.prop('Mode=1')).toEqual(E.left('--prop "Mode=1": a property name is lower case letters, digits and _'))
  })

  it("observes a file for status as one to be absent (so it needs no owner, group or mode), other types as they are", () => {
    expect(Args.statusProperties('file')).toEqual({ ensure: 'absent' })
    expect(Args.statusProperties('package')).toEqual({})
  })
})
