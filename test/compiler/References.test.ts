// References: ids and aliases of earlier resources, as compile meets them in manifest order; the
// maps behind them are made at their first use, and answer as if they had been made up front.
import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as References from '../../src/compiler/References.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type { Position } from '../../src/core/Position.js'
import type { RawResource } from '../../src/manifest/Manifest.js'
import type * as Node from '../../src/manifest/Node.js'

const at = (line: number): Position => ({ file: 'm.yaml', line, col: 3 })
const scalar = (value: string, line: number): Node.Node => ({ _tag: 'Scalar', value, text: value, quoted: false, at: at(line) }) as Node.Node
const exec = (name: string, line: number, alias?: string): RawResource => ({
  type: 'exec',
  name,
  nameAt: at(line),
  props: alias === undefined ? [] : [{ key: 'alias', keyAt: at(line), value: scalar(alias, line) } as Node.Entry],
})
const ref = (text: string) => ({ text, at: at(99) })
const messages = (ds: ReadonlyArray<Diagnostic.Diagnostic>) => ds.map((d) => d.message)

describe('References', () => {
  it('resolves the id and the alias of an earlier resource, and says why it cannot resolve the others', () => {
    const raws = [exec('a', 1, 'first'), exec('b', 2), exec('c', 3)]
    const refs = References.make(raws)
    refs.noteAlias('first', 'exec', 'exec#a')
    const problems: Diagnostic.Diagnostic[] = []
    expect(refs.resolve([ref('exec#a'), ref('first'), ref('exec#first')], 'require', 1, 'exec#b', problems)).toEqual(['exec#a', 'exec#a', 'exec#a'])
    expect(refs.resolve([ref('exec#b'), ref('exec#c'), ref('exec#z')], 'subscribe', 1, 'exec#b', problems)).toEqual([])
    expect(messages(problems)).toEqual([
      'subscribe: exec#b is this resource itself',
      'subscribe: exec#c comes later in the manifest; resources run in manifest order, so a resource can only subscribe to an earlier one',
      'subscribe: no resource exec#z in this manifest',
    ])
    expect(problems.map((d) => d.resource)).toEqual(['exec#b', 'exec#b', 'exec#b'])
  })

  it('knows every id, earlier or later, and never takes an alias that is an id as a bare name', () => {
    const refs = References.make([exec('a', 1), exec('b', 2)])
    expect(refs.isId('exec#b')).toBe(true)
    expect(refs.isId('b')).toBe(false)
    refs.noteAlias('exec#b', 'exec', 'exec#a')
    expect(refs.earlier('exec#b', 1)).toBeUndefined()
    expect(refs.earlier('exec#b', 2)).toBe('exec#b')
  })

  it('says an id that is also the alias of another earlier resource is ambiguous', () => {
    const refs = References.make([exec('second', 1), exec('first', 2, 'second'), exec('third', 3)])
    refs.noteAlias('second', 'exec', 'exec#first')
    const problems: Diagnostic.Diagnostic[] = []
    expect(refs.resolve([ref('exec#second')], 'require', 2, 'exec#third', problems)).toEqual([])
    expect(messages(problems)).toEqual(['require: exec#second is ambiguous: it is the id of exec#second and the alias of exec#first'])
  })

  fcTest.prop([fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 8 }), fc.nat(), fc.constantFrom<string>('a', 'b', 'c', 'd', 'e')])(
    'resolves an id exactly when a resource before the one asking has it',
    (names, at, wanted) => {
      const index = at % names.length
      const refs = References.make(names.map((n, i) => exec(n, i + 1)))
      const problems: Diagnostic.Diagnostic[] = []
      const before = names.slice(0, index).includes(wanted)
      expect(refs.resolve([ref(`exec#${wanted}`)], 'require', index, `exec#${names[index]}`, problems)).toEqual(before ? [`exec#${wanted}`] : [])
      expect(problems.length).toBe(before ? 0 : 1)
      expect(refs.earlier(`exec#${wanted}`, index)).toBe(before ? `exec#${wanted}` : undefined)
      expect(refs.isId(`exec#${wanted}`)).toBe(names.includes(wanted))
    },
  )
})
