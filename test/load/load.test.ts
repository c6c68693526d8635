// load: every host input is read once; what compile and observe use is what was read, and what the
// plan records a digest of.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Load from '../../src/load/load.js'
import { compile } from '../../src/compiler/compile.js'
import * as Fault from '../../src/core/Fault.js'
import * as Digest from '../../src/core/Digest.js'

describe('Load.once', () => {
  it('reads each path once, and gives the same text (or error) to every later read', () => {
    const reads: string[] = []
    let n = 0
    const read = Load.once((p) => {
      reads.push(p)
      n += 1
      return p === 'missing' ? E.left('no such file') : E.right(`${p} #${n}`)
    })
    expect([read('a'), read('b'), read('a'), read('missing'), read('missing')]).toEqual([E.right('a #1'), E.right('b #2'), E.right('a #1'), E.left('no such file'), E.left('no such file')])
    expect(reads).toEqual(['a', 'b', 'missing'])
  })

  it('makes the plan record the digest of the text compile used, even when the file changes while compile runs', () => {
    let n = 0
    const changing = (): E.Either<string, string> => E.right(`version ${++n}`)
    const text = 'ccm:\n  resources:\n    - file:\n        - /etc/a:\n            owner: root\n            group: root\n            mode: "0644"\n            content: "{{ readFile(\\"f.txt\\") }}"\n'
    const c = compile('m.yaml', text, '/srv', { readFile: Load.once(changing) })
    if (E.isLeft(c)) throw new Error(c.left.map((d) => d.message).join('\n'))
    const spec = c.right.resources[0] as unknown as { content: { text: string } }
    expect(spec.content.text).toBe('version 1')
    expect(c.right.files).toEqual([{ path: 'f.txt', sha256: Digest.sha256('version 1') }])
  })
})

describe('Load.sources', () => {
  it('reads each source of the catalog once, and answers from what it read', async () => {
    const file = (path: string, source: string): string => `        - ${path}:\n            owner: root\n            group: root\n            mode: "0644"\n            source: ${source}\n`
    const text = `ccm:\n  resources:\n    - file:\n${file('/etc/a', 's.txt')}${file('/etc/b', 's.txt')}${file('/etc/c', 'gone.txt')}`
    const c = compile('m.yaml', text, '/srv')
    if (E.isLeft(c)) throw new Error(c.left.map((d) => d.message).join('\n'))
    const reads: string[] = []
    const read = await Load.sources(c.right, async (p) => {
      reads.push(p)
      return p.endsWith('gone.txt') ? E.left(Fault.make('NotFound', 'host', 'read', p, 'no such file')) : E.right(new TextEncoder().encode('bytes'))
    })
    expect(reads).toEqual(['/srv/s.txt', '/srv/gone.txt'])
    expect(E.isRight(await read('/srv/s.txt'))).toBe(true)
    expect(E.isLeft(await read('/srv/gone.txt'))).toBe(true)
    await expect(read('/srv/other.txt')).rejects.toThrow(/without having been loaded/)
    expect(reads).toHaveLength(2)
  })
})
