// hidden: what compile and check print of sensitive values. A secret is hidden in data before it
// is cut short or escaped (`deep`), and in a printed text in every form it takes there, with what
// is left of one cut short before a `…` (`text`, `cutShort`).
import { fc } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Terminal from '../../src/core/Terminal.js'
import * as Hidden from '../../src/cli/hidden.js'

// secrets of characters the marker `[sensitive]` and the ellipsis hold none of, escapes and controls among them
const secretArb = fc.string({ unit: fc.constantFrom(...'xyzXYZ0189-_"\\\t\n\u202e '.split('')), minLength: 1, maxLength: 30 })
const textArb = fc.string({ unit: fc.constantFrom(...'abcdxyz01 "\n'.split('')), maxLength: 30 })

describe('Hidden.text', () => {
  it('hides a secret as written, escaped as JSON, for a terminal, and both', () => {
    const s = 'Qb5"\u202eBidi\\Secret'
    const hide = Hidden.text([s])
    for (const shown of [s, JSON.stringify(s).slice(1, -1), Terminal.field(s), Terminal.field(JSON.stringify(s).slice(1, -1)), Terminal.json(JSON.stringify(s))]) expect(hide(`a ${shown} b`)).not.toMatch(/Qb5|Bidi/)
    expect(hide(`a ${s} b`)).toBe('a [sensitive] b')
  })

  it('hides the start of a secret left before a `…`, and nothing else', () => {
    const hide = Hidden.text(['Ck3-health-check-secret'])
    expect(hide('got "pppCk3-health-che… (229 characters)')).toBe('got "ppp[sensitive]… (229 characters)')
    expect(hide('got "pppabc… and C… and Ck3 alone')).toBe('got "pppabc… and [sensitive]… and Ck3 alone')
    expect(Hidden.text([])('Ck3-he…')).toBe('Ck3-he…')
  })

  it('law: no secret, and no start of one before a `…`, is left in a text, whatever cut it', () => {
    fc.assert(
      fc.property(secretArb, textArb, textArb, fc.nat(), fc.boolean(), (secret, before, after, cut, json) => {
        const shown = json ? JSON.stringify(secret).slice(1, -1) : secret
        const k = 1 + (cut % shown.length)
        const out = Hidden.text([secret])(`${before}${shown}${after} ${before}${shown.slice(0, k)}…${after}`)
        const parts = out.split('…')
        return !out.includes(secret) && parts.slice(0, -1).every((p) => !p.endsWith(shown.slice(0, k)))
      }),
    )
  })
})

describe('Hidden.deep', () => {
  it('hides every string of arrays, plain objects and maps (keys too), keeps numbers and bytes, and copies nothing without secrets', () => {
    const bytes = new Uint8Array([1, 2])
    const v = { id: 'file#/srv/Sq1.txt', list: ['a Sq1', 3], links: new Map([['file#/srv/Sq1.txt', { n: 'Sq1' }]]), Sq1: true, bytes }
    const out = Hidden.deep(['Sq1'])(v)
    expect(out).toEqual({ id: 'file#/srv/[sensitive].txt', list: ['a [sensitive]', 3], links: new Map([['file#/srv/[sensitive].txt', { n: '[sensitive]' }]]), '[sensitive]': true, bytes })
    expect(out.bytes).toBe(bytes)
    expect(Hidden.deep([])(v)).toBe(v)
  })

  it('hides a secret before a renderer cuts it short: what is cut is the marker, never the secret', () => {
    const secret = 'Lg7-abcdefghijklmnopqrstuvwxyz-0123456789-LongSecret'
    const spec = Hidden.deep([secret])({ content: `key=${secret}\n` })
    const cut = (s: string): string => (s.length > 12 ? `${s.slice(0, 12)}…` : s)
    expect(cut(spec.content)).toBe('key=[sensiti…')
  })
})

describe('Hidden.secretsOf', () => {
  it("gives the texts of the sensitive references' values only, none empty", () => {
    const at = { file: 'm.yaml', line: 1, col: 1 }
    const secrets = Hidden.secretsOf([
      { plugin: 'vault', at, reference: {}, value: { a: 'Vs1-secret', n: 42, e: '' }, sensitive: true },
      { plugin: 'plain', at, reference: {}, value: 'public', sensitive: false },
    ])
    expect(secrets).toContain('Vs1-secret')
    expect(secrets).toContain('42')
    expect(secrets).not.toContain('public')
    expect(secrets).not.toContain('')
  })
})
