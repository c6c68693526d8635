// Depth: the nesting of a parsed JSON value, found without recursion, and the places that refuse
// data from outside nested deeper than the passes after them can take (each was a stack overflow,
// "internal error: Maximum call stack size exceeded", before).
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Depth from '../../src/core/Depth.js'
import * as FactsFile from '../../src/facts/FactsFile.js'
import * as Output from '../../src/interpreters/bolt/protocol/Output.js'
import * as Json from '../../src/manifest/expr/Json.js'
import * as Yaml from '../../src/manifest/Yaml.js'

/** The model: the depth by recursion (fine for the shallow values fast-check makes). */
const depthOf = (v: unknown): number =>
  typeof v !== 'object' || v === null ? 0 : 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf))

/** JSON text of lists nested `n` deep around a scalar. */
const nested = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`

describe('deeperThan', () => {
  test.prop([fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 })])('agrees with the depth found by recursion', (v, limit) => {
    expect(Depth.deeperThan(v, limit)).toBe(depthOf(v) > limit)
  })

  it('walks a value nested far deeper than the stack allows recursion to', () => {
    const deep = JSON.parse(nested(200_000)) as unknown
    expect(Depth.deeperThan(deep, Depth.maxPlan)).toBe(true)
    expect(Depth.deeperThan(deep, 200_000)).toBe(false)
    expect(Depth.deeperThan(JSON.parse(`{"a":${nested(199)}}`), Depth.maxData)).toBe(false)
    expect(Depth.deeperThan(JSON.parse(`{"a":${nested(200)}}`), Depth.maxData)).toBe(true)
  })

  it("allows outside data as deep as a YAML document may nest, no more", () => {
    expect(Depth.maxData).toBe(Yaml.maxDepth)
  })
})

describe('deep data from outside is refused with a message', () => {
  it('a JSON facts file', () => {
    const deep = FactsFile.parse('f.json', `{"a":${nested(10_000)}}`, 'json')
    expect(E.isLeft(deep) && deep.left.map((d) => d.message)).toEqual([`facts nest deeper than ${Depth.maxData} levels`])
    expect(E.isRight(FactsFile.parse('f.json', `{"a":${nested(199)}}`, 'json'))).toBe(true)
  })

  it("a Bolt plugin's output", () => {
    const read = Output.read({ plugin: 'deep', hook: 'resolve_reference' }, { stdout: `{"value":${nested(10_000)}}`, stderr: '', exitCode: 0 }, true)
    expect(read).toEqual(E.left({ _tag: 'ProtocolViolation', message: `Error executing plugin deep from resolve_reference in deep: its output nests deeper than ${Depth.maxData} levels` }))
  })

  it("fromJSON's text, in Go's words", () => {
    expect(Json.decode(nested(10_000))).toEqual(E.left('json: exceeded max depth'))
    expect(E.isRight(Json.decode(nested(199)))).toBe(true)
  })
})
