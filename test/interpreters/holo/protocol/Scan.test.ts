// Scan: a plugin's scan report, read as Holo 3 reads it (entities sorted by ID, SOURCE, ACTION and
// info lines, every error with its line), and printed back as `holo scan --porcelain` does.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Entity from '../../../../src/interpreters/holo/protocol/Entity.js'
import * as Scan from '../../../../src/interpreters/holo/protocol/Scan.js'

const report = `
ENTITY: file:/etc/locale.gen
store at: /var/lib/holo/base/etc/locale.gen
SOURCE: /usr/share/holo/files/00-base/etc/locale.gen
apply: /usr/share/holo/files/00-base/etc/locale.gen
ENTITY: file:/etc/a.conf
ACTION: Scrubbing (target was deleted)
delete: /var/lib/holo/files/base/etc/a.conf

`

describe('scan reports', () => {
  it('reads entities with their sources, action and info lines, sorted by ID', () => {
    expect(Scan.parse('files', report)).toEqual(
      E.right([
        { plugin: 'files', id: 'file:/etc/a.conf', actionVerb: 'Scrubbing', actionReason: 'target was deleted', sources: [], info: [{ key: 'delete', value: '/var/lib/holo/files/base/etc/a.conf' }] },
        {
          plugin: 'files',
          id: 'file:/etc/locale.gen',
          actionVerb: 'Working on',
          actionReason: '',
          sources: ['/usr/share/holo/files/00-base/etc/locale.gen'],
          info: [
            { key: 'store at', value: '/var/lib/holo/base/etc/locale.gen' },
            { key: 'apply', value: '/usr/share/holo/files/00-base/etc/locale.gen' },
          ],
        },
      ]),
    )
  })

  it('takes an ACTION without a reason as the verb, and translates SOURCE and info values', () => {
    const r = Scan.parse('p', 'ENTITY: x:1\nACTION: Deleting\nSOURCE: /v/p/a\nfound in: /v/p/a\n', (s) => s.replace('/v/', '/usr/share/holo/'))
    expect(r).toEqual(E.right([{ plugin: 'p', id: 'x:1', actionVerb: 'Deleting', actionReason: '', sources: ['/usr/share/holo/p/a'], info: [{ key: 'found in', value: '/usr/share/holo/p/a' }] }]))
  })

  it('gives no entities for empty output', () => {
    expect(Scan.parse('p', '')).toEqual(E.right([]))
    expect(Scan.parse('p', '\n \n\t\n')).toEqual(E.right([]))
  })

  it('reports every bad line with its number, in Holo words', () => {
    expect(Scan.parse('p', 'found: before any entity\nENTITY: a:1\ngarbage\nkey:no-space\nENTITY: /etc/passwd\nENTITY: a:1\n')).toEqual(
      E.left([
        'error in scan report of p, line 1: expected entity ID, found attribute "found: before any entity"',
        'error in scan report of p, line 3: parse error (line was "garbage")',
        'error in scan report of p, line 4: parse error (line was "key:no-space")',
        'error in scan report of p, line 5: the entity ID "/etc/passwd" looks like a file system path, which the plugin interface forbids',
        'error in scan report of p, line 6: entity "a:1" was already reported at line 2',
      ]),
    )
  })

  it('refuses output beyond its bound without reading it', () => {
    expect(Scan.parse('p', 'x'.repeat(Scan.maxOutput + 1))).toEqual(E.left([`error in scan report of p: it is longer than ${Scan.maxOutput} bytes`]))
  })

  it('prints the porcelain report as Holo reproduces it', () => {
    const [a, b] = (Scan.parse('files', report) as E.Right<ReadonlyArray<Entity.Entity>>).right
    expect(Scan.print(a!)).toBe('ENTITY: file:/etc/a.conf\nACTION: Scrubbing (target was deleted)\ndelete: /var/lib/holo/files/base/etc/a.conf\n')
    expect(Scan.print(b!)).toBe('ENTITY: file:/etc/locale.gen\nSOURCE: /usr/share/holo/files/00-base/etc/locale.gen\nstore at: /var/lib/holo/base/etc/locale.gen\napply: /usr/share/holo/files/00-base/etc/locale.gen\n')
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 600 })])('never throws on arbitrary output; every error names the plugin', (text) => {
    const r = Scan.parse('p', text)
    if (E.isLeft(r)) for (const m of r.left) expect(m).toMatch(/^error in scan report of p, line \d+: /)
  })

  const word = fc.stringMatching(/^[a-z][a-z0-9 _.-]{0,10}[a-z0-9]$/)
  const value = fc.stringMatching(/^[^\s:()][^\n]{0,20}[^\s()]$/)
  const entity = fc.record({
    id: fc.stringMatching(/^[a-z]+:[a-z0-9._-]{1,12}$/),
    action: fc.option(fc.tuple(fc.stringMatching(/^[A-Z][a-z]{1,9}$/), fc.option(value, { nil: undefined })), { nil: undefined }),
    sources: fc.array(fc.stringMatching(/^\/[a-z0-9/._-]{1,20}$/), { maxLength: 3 }),
    info: fc.array(fc.record({ key: word, value }), { maxLength: 4 }),
  })

  test.prop([fc.uniqueArray(entity, { selector: (e) => e.id, maxLength: 6 })])('reads back what it prints, sorted by ID', (es) => {
    const entities = es.map((e) => Entity.make({ plugin: 'p', id: e.id, actionVerb: e.action?.[0] ?? 'Working on', actionReason: e.action?.[1] ?? '', sources: e.sources, info: e.info.filter((l) => !['ENTITY', 'SOURCE', 'ACTION'].includes(l.key)) }))
    const parsed = Scan.parse('p', entities.map(Scan.print).join('\n'))
    expect(parsed).toEqual(E.right([...entities].sort((a, b) => Entity.compareIds(a.id, b.id))))
  })

  test.prop([fc.string(), fc.string()])('orders IDs by code point, as Go orders strings', (a, b) => {
    const bytes = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
    expect(Math.sign(Entity.compareIds(a, b))).toBe(Math.sign(bytes))
  })
})

describe('selectors', () => {
  it('picks an entity by its ID, its plugin, a SOURCE file or the generator of one', () => {
    const e = Entity.make({ plugin: 'files', id: 'file:/etc/x', actionVerb: 'Working on', actionReason: '', sources: ['/usr/share/holo/files/x', '/usr/share/holo/generators/gen.sh::files/y'], info: [] })
    expect([...Entity.selectors(e)].sort()).toEqual(['/usr/share/holo/files/x', '/usr/share/holo/generators/gen.sh', '/usr/share/holo/generators/gen.sh::files/y', 'file:/etc/x', 'files'])
  })
})

// The parser before it read lines by hand, kept as the model: Go's strings.TrimSpace as a regex,
// and Holo's line regex `^\s*([^:]+): (.+)\s*$` as JavaScript wrote it. Both are quadratic on long
// runs of white space, which is why they were replaced; on every other input the two must agree.
const modelLineRx = /^[\t\n\f\r ]*([^:]+): ([^\n]+)$/u
const modelTrim = (s: string): string => s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/gu, '')
const modelParse = (id: string, stdout: string): E.Either<ReadonlyArray<string>, ReadonlyArray<Entity.Entity>> => {
  if (stdout.length > Scan.maxOutput) return E.left([`error in scan report of ${id}: it is longer than ${Scan.maxOutput} bytes`])
  const errors: string[] = []
  const result: Entity.Entity[] = []
  type Mutable = { id: string; actionVerb: string; actionReason: string; sources: string[]; info: Entity.InfoLine[] }
  let current: Mutable | undefined
  const ids = new Map<string, number>()
  const close = (): void => {
    if (current !== undefined) result.push(Entity.make({ plugin: id, ...current }))
  }
  for (const [idx, line] of modelTrim(stdout).split('\n').entries()) {
    if (line === '') continue
    const intro = `error in scan report of ${id}, line ${idx + 1}`
    const m = modelLineRx.exec(line)
    if (m === null) {
      errors.push(`${intro}: parse error (line was "${line}")`)
      continue
    }
    const key = m[1]!
    const value = m[2]!
    if (key === 'ENTITY') {
      close()
      current = { id: value, actionVerb: Entity.defaultVerb, actionReason: '', sources: [], info: [] }
      if (/^(\/|\.\.?\/|\.\.?$)/u.test(value)) errors.push(`${intro}: the entity ID "${value}" looks like a file system path, which the plugin interface forbids`)
      const first = ids.get(value)
      if (first !== undefined) errors.push(`${intro}: entity "${value}" was already reported at line ${first}`)
      else ids.set(value, idx + 1)
    } else if (current === undefined) {
      errors.push(`${intro}: expected entity ID, found attribute "${line}"`)
    } else if (key === 'SOURCE') {
      current.sources.push(value)
    } else if (key === 'ACTION') {
      const a = /^([^()]+) \(([^\n]+)\)$/u.exec(value)
      current.actionVerb = a === null ? value : a[1]!
      current.actionReason = a === null ? '' : a[2]!
    } else {
      current.info.push({ key, value })
    }
  }
  close()
  if (errors.length > 0) return E.left(errors)
  return E.right([...result].sort((a, b) => Entity.compareIds(a.id, b.id)))
}

/** Text that mixes white space of every kind (often in runs), colons, ": ", newlines, the keys Holo knows, and surrogates. */
const mixedText = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u0085', '\u00a0', '\u3000', '\ufeff'),
      fc.constantFrom(':', ': ', 'a', 'b:c', 'ENTITY: ', 'SOURCE: ', 'ACTION: ', 'x (y)', '\ud83d\ude00', '\ud800', '/'),
      fc.tuple(fc.constantFrom(' ', '\t', '\n', ':'), fc.integer({ min: 2, max: 10 })).map(([c, n]) => c.repeat(n)),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''))

describe('scan reports with long runs of white space (read in linear time, as the regexes read them)', () => {
  // lines: the same text, mostly without its newlines (a line of a report has none, and one with a newline never matches)
  const mixedLine = fc.oneof(mixedText.map((s) => s.replace(/\n/gu, '')), mixedText)
  test.prop([mixedLine], { numRuns: 1000 })('parseLine reads a line as the line regex does', (line) => {
    const m = modelLineRx.exec(line)
    expect(Scan.parseLine(line)).toEqual(m === null ? undefined : { key: m[1], value: m[2] })
  })

  test.prop([mixedText])('parse reads a report as the regex-based parser did', (text) => {
    expect(Scan.parse('p', text)).toEqual(modelParse('p', text))
  })

  it('reads a line whose key is all white space as the regex does: the key is its last character', () => {
    expect(Scan.parseLine('  \t: v')).toEqual({ key: '\t', value: 'v' })
    expect(Scan.parseLine(': v')).toBeUndefined()
    expect(Scan.parseLine(' \tk ey : v  ')).toEqual({ key: 'k ey ', value: 'v  ' })
    expect(Scan.parseLine('k: ')).toBeUndefined()
    expect(Scan.parseLine('k:v: w')).toBeUndefined()
  })

  it('refuses a line of 200,000 spaces between two entities, as Holo does, naming the line', () => {
    const spaces = ' '.repeat(200_000)
    expect(Scan.parse('p', `ENTITY: a\n${spaces}\nENTITY: b\n`)).toEqual(E.left([`error in scan report of p, line 2: parse error (line was "${spaces}")`]))
  })

  it('reads a report with 200,000 newlines between two entities', () => {
    expect(E.map((es: ReadonlyArray<Entity.Entity>) => es.map((e) => e.id))(Scan.parse('p', `\n\nENTITY: a\n${'\n'.repeat(200_000)}ENTITY: b\n\n`))).toEqual(E.right(['a', 'b']))
  })

  it('refuses a line of 200,000 spaces without a colon, naming the line', () => {
    const line = `${' '.repeat(200_000)}x`
    expect(Scan.parse('p', `ENTITY: a\n${line}\n`)).toEqual(E.left([`error in scan report of p, line 2: parse error (line was "${line}")`]))
  })

  it('reads a key after 200,000 spaces and a value with 200,000 spaces inside', () => {
    const value = `v${' '.repeat(200_000)}w`
    expect(Scan.parseLine(`${' '.repeat(200_000)}key: ${value}`)).toEqual({ key: 'key', value })
  })
})
