import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Reply from '../../src/interpreters/libral/protocol/Reply.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import * as Simple from '../../src/interpreters/libral/protocol/SimpleOutput.js'
import * as Value from '../../src/interpreters/libral/protocol/Value.js'
import { hostMeta } from './support.js'

const ok = <A>(r: E.Either<string, Reply.Reply<A>>): A => {
  if (E.isLeft(r)) throw new Error(`protocol violation: ${r.left}`)
  if (r.right._tag === 'Error') throw new Error(`provider error: ${r.right.message}`)
  return r.right.value
}

const violation = <A>(r: E.Either<string, Reply.Reply<A>>): string => {
  if (E.isRight(r)) throw new Error(`expected a protocol violation, got ${JSON.stringify(r.right)}`)
  return r.left
}

describe('Simple.parseList', () => {
  it('reads resources typed by the metadata; name starts a resource', () => {
    const rs = ok(Simple.parseList(hostMeta, '# simple\nname: db1\nip: 10.0.0.5\naliases: db, dbx\nenabled: true\nname: db2\nensure: absent\n'))
    expect(rs).toEqual([Resource.make('db1', { ip: '10.0.0.5', aliases: ['db', 'dbx'], enabled: true }), Resource.make('db2', { ensure: 'absent' })])
  })

  it('strips every line, splits at the first colon only, and drops leading whitespace of the value', () => {
    const rs = ok(Simple.parseList(hostMeta, '  # simple  \n  name:   a:b:c  \n\tip:fe80::1\n\n'))
    expect(rs).toEqual([Resource.make('a:b:c', { ip: 'fe80::1' })])
  })

  it('an empty value is the empty string (and the empty list)', () => {
    expect(ok(Simple.parseList(hostMeta, '# simple\nname: a\nip:\naliases:\n'))).toEqual([Resource.make('a', { ip: '', aliases: [] })])
  })

  it('ignores attributes the metadata does not describe, with a note', () => {
    const r = Simple.parseList(hostMeta, '# simple\nname: a\ncolour: red\ncolour: blue\n')
    expect(E.isRight(r) && r.right._tag === 'Ok' && r.right.notes).toEqual(['ignored attribute "colour", which the metadata of host::test does not describe'])
  })

  it.each([
    ['', 'no output'],
    ['name: a\n', 'expected "# simple"'],
    ['#simple\nname: a\n', 'expected "# simple"'],
    ['# simple\nip 10.0.0.1\n', 'no \':\''],
    ['# simple\nip: 10.0.0.1\nname: a\n', 'before any "name:" line'],
    ['# simple\nname: a\nenabled: maybe\n', 'attribute "enabled": "maybe" is not a boolean'],
    ['# simple\nname: a\nensure: gone\n', 'not one of present, absent'],
    ['# simple\nname: a\nip: 1\nip: 2\n', 'reports "ip" twice'],
    ['# simple\nname: a\nname: a\n', 'reported twice'],
    ['# simple\nname:\n', 'empty resource name'],
  ])('refuses %j', (text, why) => {
    expect(violation(Simple.parseList(hostMeta, text))).toContain(why)
  })
})

describe('ral_error ... ral_eom', () => {
  it('is the error, its message running to ral_eom, whatever else was printed', () => {
    const r = Simple.parseList(hostMeta, '# simple\nname: a\nral_error: it broke\n  on two lines\nral_eom\nname: b\n')
    expect(r).toEqual(E.right({ _tag: 'Error', message: 'it broke\n  on two lines', kind: 'failed' }))
  })

  it('counts even before the header', () => {
    const r = Simple.parseFind(hostMeta, 'a', 'ral_error: no header\nral_eom\n')
    expect(E.isRight(r) && r.right._tag).toBe('Error')
  })

  it('without ral_eom is a protocol violation that keeps the message', () => {
    expect(violation(Simple.parseList(hostMeta, '# simple\nral_error: half a message\n'))).toContain('not closed by a ral_eom line (message: "half a message")')
  })
})

describe('Simple.parseFind', () => {
  it('reads the one resource', () => {
    expect(ok(Simple.parseFind(hostMeta, 'a', '# simple\nname: a\nip: 1.2.3.4\n'))).toEqual(Resource.present(Resource.make('a', { ip: '1.2.3.4' })))
  })

  it('ral_unknown: true is absent', () => {
    expect(ok(Simple.parseFind(hostMeta, 'a', '# simple\nname: a\nral_unknown: true\n'))).toEqual(Resource.absent('a'))
  })

  it.each([
    ['# simple\nname: b\nip: 1\n', 'reported a resource named "b"'],
    ['# simple\n', 'printed neither'],
    ['# simple\nname: a\nral_unknown: perhaps\n', 'ral_unknown must be true or false'],
  ])('refuses %j', (text, why) => {
    expect(violation(Simple.parseFind(hostMeta, 'a', text))).toContain(why)
  })
})

describe('Simple.parseUpdate', () => {
  it('reads each change with the ral_was after it; an empty ral_was means no old value', () => {
    const u = ok(Simple.parseUpdate(hostMeta, 'a', '# simple\nname: a\nip: 10.0.0.6\nral_was: 10.0.0.5\naliases: x,y\nral_was:\nenabled: false\n'))
    expect(u).toEqual({
      unknown: false,
      derive: false,
      changes: [Resource.change('ip', '10.0.0.5', '10.0.0.6'), Resource.change('aliases', undefined, ['x', 'y']), Resource.change('enabled', undefined, false)],
    })
  })

  it('reads ral_derive and ral_unknown', () => {
    expect(ok(Simple.parseUpdate(hostMeta, 'a', '# simple\nral_derive: true\n'))).toEqual({ unknown: false, derive: true, changes: [] })
    expect(ok(Simple.parseUpdate(hostMeta, 'a', '# simple\nname: a\nral_unknown: true\n'))).toMatchObject({ unknown: true })
  })

  it('drops a change (and its ral_was) to an attribute the metadata does not describe', () => {
    const r = Simple.parseUpdate(hostMeta, 'a', '# simple\ncolour: red\nral_was: blue\nip: 2\n')
    expect(E.isRight(r) && r.right._tag === 'Ok' && r.right.value.changes).toEqual([Resource.change('ip', undefined, '2')])
  })

  it.each([
    ['# simple\nral_was: x\n', 'does not follow an attribute'],
    ['# simple\nip: 1\nral_was: 0\nral_was: 2\n', 'a second ral_was'],
    ['# simple\nip: 1\nip: 2\n', 'a second change to "ip"'],
    ['# simple\nname: b\n', 'reported changes to "b"'],
    ['# simple\nral_derive: often\n', 'must be true or false'],
    ['# simple\nensure: gone\n', 'not one of'],
  ])('refuses %j', (text, why) => {
    expect(violation(Simple.parseUpdate(hostMeta, 'a', text))).toContain(why)
  })
})

describe('laws', () => {
  const token = fc.stringMatching(/^[A-Za-z0-9_.:-]([A-Za-z0-9_.:\- ]{0,8}[A-Za-z0-9_.:-])?$/)
  const resource = fc.record(
    {
      ip: token,
      aliases: fc.array(fc.stringMatching(/^[a-z0-9.-]{1,6}$/), { maxLength: 3 }),
      enabled: fc.boolean(),
      ensure: fc.constantFrom('present', 'absent'),
      target: token,
    },
    { requiredKeys: [] },
  )
  const resources = fc.uniqueArray(fc.tuple(token, resource), { selector: ([n]) => n, maxLength: 5 })

  const print = (rs: ReadonlyArray<readonly [string, Record<string, Value.Value>]>): string =>
    ['# simple', ...rs.flatMap(([n, attrs]) => [`name: ${n}`, ...Object.entries(attrs).map(([k, v]) => `${k}: ${E.getOrElse(() => '')(Value.writeText(v))}`)])].join('\n') + '\n'

  fcTest.prop([resources])('printing resources as # simple and parsing them gives them back', (rs) => {
    expect(ok(Simple.parseList(hostMeta, print(rs)))).toEqual(rs.map(([n, attrs]) => Resource.make(n, attrs)))
  })

  fcTest.prop([fc.string({ maxLength: 200 }), fc.string({ maxLength: 10 })])('never throws: any text is a reply or a protocol violation', (text, name) => {
    for (const r of [Simple.parseList(hostMeta, text), Simple.parseFind(hostMeta, name, text), Simple.parseUpdate(hostMeta, name, text)]) {
      expect(E.isLeft(r) ? typeof r.left : r.right._tag).toMatch(/string|Ok|Error/)
    }
  })
})

// The reader before it stripped the ends of error lines with trimEnd, kept as the model: `\s+$` as a
// regex is quadratic in a run of white space inside a line, which is why it was replaced; on every
// other input the two must agree.
const modelKeyOf = (l: string): string => (l.includes(':') ? l.slice(0, l.indexOf(':')) : l)
const modelValueOf = (l: string): string => (l.includes(':') ? l.slice(l.indexOf(':') + 1).replace(/^\s+/, '') : '')
const modelEntries = (text: string): E.Either<string, Reply.Reply<ReadonlyArray<Simple.Entry>>> => {
  const raw = text.split('\n')
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop()
  const lines = raw.map((l) => l.trim())
  const err = lines.findIndex((l) => modelKeyOf(l) === 'ral_error')
  if (err >= 0) {
    const end = lines.findIndex((l, i) => i > err && l === 'ral_eom')
    const message = [modelValueOf(lines[err]!), ...raw.slice(err + 1, end < 0 ? raw.length : end).map((l) => l.replace(/\s+$/, ''))].join('\n').trim()
    if (end < 0) return E.left(`ral_error on line ${err + 1} is not closed by a ral_eom line (message: ${JSON.stringify(message)})`)
    return E.right(Reply.error(message))
  }
  if (lines.length === 0) return E.left(`no output (expected "${Simple.header}" as the first line)`)
  if (lines[0] !== Simple.header) return E.left(`the first line is ${JSON.stringify(raw[0])}, expected "${Simple.header}"`)
  const out: Simple.Entry[] = []
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!
    if (l === '') continue
    if (!l.includes(':')) return E.left(`line ${i + 1}: ${JSON.stringify(l)} is not "key: value" (no ':')`)
    out.push({ key: modelKeyOf(l), value: modelValueOf(l), line: i + 1 })
  }
  return E.right(Reply.ok(out))
}

/** Output that mixes white space of every kind (often in runs), colons, newlines and the lines of an error. */
const mixedOutput = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\v', '\f', '\r', '\u0085', '\u00a0', '\u1680', '\u2028', '\u3000', '\ufeff', '\u180e', '\u200b'),
      fc.constantFrom(':', 'a', 'name: x', '# simple\n', 'ral_error: it broke', 'ral_error:', '\nral_eom\n', 'ral_eom'),
      fc.tuple(fc.constantFrom(' ', '\t', '\n', '\u3000'), fc.integer({ min: 2, max: 10 })).map(([c, n]) => c.repeat(n)),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''))

describe('error messages with long runs of white space (read in linear time, as the regex read them)', () => {
  it('trimEnd strips exactly what `\\s+$` stripped, for every UTF-16 code unit', () => {
    const wrong: number[] = []
    for (let u = 0; u <= 0xffff; u++) {
      const l = `a${String.fromCharCode(u)}`
      if (l.trimEnd() !== l.replace(/\s+$/, '')) wrong.push(u)
    }
    expect(wrong).toEqual([])
  })

  fcTest.prop([mixedOutput])('entries reads output as the regex-based reader did', (text) => {
    expect(Simple.entries(text)).toEqual(modelEntries(text))
  })

  it('keeps 200,000 spaces inside a line of the message and strips those after it', () => {
    const line = `a${' '.repeat(200_000)}b`
    expect(Simple.entries(`ral_error: it broke\n${line}${' \t'.repeat(100_000)}\nral_eom\n`)).toEqual(E.right(Reply.error(`it broke\n${line}`)))
  })
})
