// security: the manifest decoder, fuzzed. Any text, however broken, deep or hostile, gives either
// a catalog or diagnostics with positions: never a thrown error, never an internal error.
import * as os from 'node:os'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect } from 'vitest'
import { fileReader } from '../../src/cli/pipeline.js'
import * as Compile from '../../src/compiler/compile.js'
import * as Value from '../../src/manifest/expr/Value.js'

const pieces = [
  'ccm:\n', '  resources:\n', '    - file:\n', '    - exec:\n', '        - /etc/x:\n', '            content: ', '            mode: ', '            owner: root\n',
  '            ensure: absent\n', 'data:\n', '  a: ', 'hierarchy:\n', '  order: [x]\n', 'overrides:\n', '{{ ', ' }}', '${ ', '}', "lookup('data.a')", 'Data.a',
  '[', ']', '{', '}', ': ', '- ', '&a ', '*a', '!!str ', '"', "'", '\n', '  ', '\t', '#', '|\n', '>-\n', '0644', '9999', 'true', 'null', '~', '0x1F',
  "replace('x', 'x', 'xx')", 'split(', 'join(', ' + ', '1..1000000', '\0', '\x1b[2J', '\u202e', 'readFile("../../etc/passwd")', 'file("/etc/shadow")',
]

const text: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((p) => p.join('')),
  fc.string({ maxLength: 200 }),
  fc.tuple(fc.nat({ max: 400 }), fc.constantFrom('[', '{', '- ', '{a: ')).map(([n, open]) => `data:\n  x: ${open.repeat(n)}`),
)

describe('the manifest decoder under any input', () => {
  test.prop([text], { numRuns: 400 })('a catalog or positioned diagnostics, never a throw', (source) => {
    const dir = os.tmpdir()
    const tree = Compile.parse('m.yaml', source)
    if (E.isLeft(tree)) {
      expect(tree.left.length).toBeGreaterThan(0)
      for (const d of tree.left) expect(d.at?.file).toBe('m.yaml')
      return
    }
    const catalog = Compile.compileTree('m.yaml', source, tree.right, dir, { readFile: fileReader(dir), now: Value.time('2026-11-23T12:00:00Z')! })
    if (E.isLeft(catalog)) {
      expect(catalog.left.length).toBeGreaterThan(0)
      for (const d of catalog.left) expect(d.message).not.toMatch(/internal error|Maximum call stack|is not a function|undefined/)
    }
  })
})
