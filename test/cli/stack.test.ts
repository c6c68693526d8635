// stack: an internal error's frames in the minified bundle are mapped to the TypeScript source,
// and nothing else in the stack changes.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Stack from '../../src/cli/stack.js'

const file = '/opt/plait (1.0)/dist/bin/plait.cjs'

/** A lookup that knows the generated positions of a table, 0-based as Node's SourceMap is. */
const lookupOf = (table: ReadonlyMap<string, readonly [string, number, number]>): Stack.Lookup => ({
  findEntry: (line, column) => {
    const e = table.get(`${line}:${column}`)
    return e === undefined ? {} : { originalSource: e[0], originalLine: e[1], originalColumn: e[2] }
  },
})

const position = fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 90_000 }))
// the bundle's frames name it by its path, or by the path of the build that made its code cache
// (V8 keeps that name for a script compiled from a cache); other frames, the launcher's among them
const frame = fc.oneof(
  fc.tuple(fc.constantFrom(file, '/home/ci/work/plait/dist/bin/plait.cjs'), position).map(([f, [l, c]]) => ({ bundle: true, f, l, c })),
  fc.tuple(fc.constantFrom('node:internal/main', '/tmp/other.cjs', '/opt/plait (1.0)/dist/bin/plait.js', '/tmp/myplait.cjs', '/tmp/plait.cjs.bak'), position).map(([f, [l, c]]) => ({ bundle: false, f, l, c })),
)

describe('mapStack', () => {
  test.prop([fc.array(frame, { maxLength: 12 }), fc.array(fc.tuple(position, fc.constantFrom('../../src/a.ts', '../../src/b/c.ts'), fc.nat(999), fc.nat(199)), { maxLength: 12 })])(
    'maps each frame of the bundle the lookup knows, and leaves every other frame as it is',
    (frames, known) => {
      const table = new Map(known.map(([[l, c], s, ol, oc]) => [`${l - 1}:${c - 1}`, [s, ol, oc] as const]))
      const at = (f: (typeof frames)[number]): string => `${f.f}:${f.l}:${f.c}`
      const stack = ['TypeError: x', ...frames.map((f, i) => `    at f${i} (${at(f)})`)].join('\n')
      const expected = ['TypeError: x', ...frames.map((f, i) => {
        const e = f.bundle ? table.get(`${f.l - 1}:${f.c - 1}`) : undefined
        return `    at f${i} (${e === undefined ? at(f) : `/src/${e[0]}:${e[1] + 1}:${e[2] + 1}`})`
      })].join('\n')
      expect(Stack.mapStack(stack, file, lookupOf(table), (s) => `/src/${s}`)).toBe(expected)
    },
  )

  it('maps a frame without a function name and one under the build\'s path, and no frame of the launcher or of a name that only ends in the bundle\'s', () => {
    const lookup = lookupOf(new Map([['254:219', ['../../src/core/UnifiedDiff.ts', 16, 124] as const]]))
    const stack = `Error: boom\n    at ${file}:255:220\n    at ${file.replace('.cjs', '.js')}:255:220\n    at f (/build/dist/bin/plait.cjs:255:220)\n    at /x/myplait.cjs:255:220\n    at ${file}:1:1`
    expect(Stack.mapStack(stack, file, lookup, (s) => s.replace('../../', '/repo/'))).toBe(
      `Error: boom\n    at /repo/src/core/UnifiedDiff.ts:17:125\n    at ${file.replace('.cjs', '.js')}:255:220\n    at f (/repo/src/core/UnifiedDiff.ts:17:125)\n    at /x/myplait.cjs:255:220\n    at ${file}:1:1`,
    )
  })

  it('gives the stack as it is where there is no source map', () => {
    expect(Stack.readable(`Error: boom\n    at ${file}:1:1`, file)).toBe(`Error: boom\n    at ${file}:1:1`)
  })
})
