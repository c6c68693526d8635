// Keyed: a resource that carries a sensitive value keeps no digest in a plan that a guess of the
// value could be checked against: its observed digest, its desired digests and the digests its
// summary and reasons quote are keyed, its diffs lose their old side; apply compares the keyed
// digests keyed and gets the clear desired digests back from its clear steps, refusing a plan
// whose keyed digest none of its steps has.
import { createHash } from 'node:crypto'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as Keyed from '../../src/planfile/Keyed.js'
import * as Redact from '../../src/planfile/Redact.js'
import type { FileResourcePlan } from '../../src/types/file/ResourcePlan.js'

const key = new Uint8Array(32).fill(3)
const otherKey = new Uint8Array(32).fill(4)
const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')
const root = { name: 'root', id: 0 }
const hex = fc.stringMatching(/^[0-9a-f]{64}$/)

/** A file resource whose content is `text`, replacing a file whose content was `old`. */
const conf = (id: string, text: string, old: string): FileResourcePlan => ({
  kind: 'file',
  id,
  type: 'file',
  name: id.slice(5),
  at: 'm.yaml:4:11',
  action: 'update',
  desired: { ensure: 'present', force: false, mode: '0600', owner: root, group: root, content: { origin: 'content', sha256: sha(text), size: text.length } },
  observed: { summary: `file 0600 root:root ${old.length} bytes sha256:${sha(old).slice(0, 12)}`, digest: `sha256:${sha(old)}` },
  steps: [
    {
      _tag: 'file.write',
      path: id.slice(5),
      reason: `content differs (sha256 ${sha(old).slice(0, 12)} → ${sha(text).slice(0, 12)})`,
      noop: 'Would have changed the file',
      content: { encoding: 'utf8', data: text, sha256: sha(text), size: text.length },
      diff: `--- ${id.slice(5)}\n+++ ${id.slice(5)}\n@@ -1,2 +1,2 @@\n ${old.split('\n')[0]}\n-${old}\n+${text}\n`,
      owner: root,
      group: root,
      mode: '0600',
    },
  ],
})

const body = (...resources: Plan.ResourcePlan[]): Plan.Body => ({
  format: 'plait.plan/2',
  plait: '0.1.0',
  root: '/',
  inputs: { manifest: { path: 'm.yaml', sha256: 'ab'.repeat(32) }, sources: [], reads: [] },
  failOnError: false,
  resources,
  summary: { create: 0, update: resources.length, delete: 0, unchanged: 0 },
})

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\n'))

describe('keying a carrier', () => {
  test.prop([text.map((s) => `Zq9-${s}`), text])('leaves no clear digest of its old or new content, in full or quoted, and no old line (redacted as seal does)', (secret, former) => {
    const keyed = JSON.stringify(Redact.body(Keyed.body(body(conf('file#/etc/a', `pw=${secret}`, `pw=${former}!`)), new Set(['file#/etc/a']), key), { values: [secret], key }))
    for (const t of [`pw=${secret}`, `pw=${former}!`]) expect(keyed).not.toContain(sha(t).slice(0, 12))
    expect(keyed).not.toContain(`-pw=${former}!`)
  })

  it('leaves the other resources, and a body with no carriers, as they are', () => {
    const b = body(conf('file#/etc/a', 'x', 'y'), conf('file#/etc/b', 'p', 'q'))
    expect(Keyed.body(b, new Set(), key)).toBe(b)
    expect(Keyed.body(b, new Set(['file#/etc/a']), key).resources[1]).toBe(b.resources[1])
  })

  test.prop([hex, hex])('a keyed digest is the same as its clear digest, keyed, and as no other', (clear, other) => {
    const same = Keyed.same(key)
    expect(same(Keyed.digest(key, clear), clear)).toBe(true)
    expect(same(Keyed.digest(otherKey, clear), clear)).toBe(false)
    expect(same(Keyed.digest(key, clear), other)).toBe(clear === other)
    expect(same(clear, clear)).toBe(true)
    expect(same(clear, other)).toBe(clear === other)
  })

  test.prop([fc.array(hex, { minLength: 1, maxLength: 4 }), fc.string({ maxLength: 20 }).filter((s) => !/[0-9a-fA-F]/.test(s))])('keyHex hides every quoted digest, keys the same digest alike, and leaves a keyed text as it is', (digests, sep) => {
    const quoted = digests.map((d, i) => (i % 2 === 0 ? 'sha256:' : '') + d.slice(0, 12 + (i % 53))).join(sep === '' ? ' ' : sep)
    const out = Keyed.keyHex(quoted, key)
    for (const d of digests) expect(out).not.toContain(d.slice(0, 12))
    expect(out).not.toContain('sha256')
    expect(Keyed.keyHex(quoted, key)).toBe(out)
    expect(Keyed.keyHex(out, key)).toBe(out)
  })

  it('keyHex shows a keyed digest as hmac: and leaves markers and keyed digests alone', () => {
    const d = sha('x')
    expect(Keyed.keyHex(`was file 0600 root:root 2 bytes sha256:${d.slice(0, 12)}`, key)).toBe(`was file 0600 root:root 2 bytes hmac:${Keyed.digest(key, d.slice(0, 12)).slice(12, 24)}`)
    const kept = `⟦sensitive:0123456789abcdef⟧ ${Keyed.digest(key, d)}`
    expect(Keyed.keyHex(kept, key)).toBe(kept)
  })

  // lines that look like a diff's own headers once a `-`, `+` or space is put before them
  const diffText = fc.oneof(text, fc.tuple(fc.constantFrom('-- ', '++ ', '@@ ', '--- ', '\\ '), text).map(([a, b]) => a + b))

  test.prop([fc.array(fc.tuple(fc.constantFrom('-', '+', ' '), diffText), { maxLength: 12 })])('withoutOld keeps every added line in order and no removed or context line', (lines) => {
    const diff = ['Index: /f', '====', '--- /f', '+++ /f', '@@ -1,9 +1,9 @@', ...lines.map(([k, t]) => k + t), ''].join('\n')
    const out = Keyed.withoutOld(diff).split('\n')
    expect(out.slice(0, 3)).toEqual([`--- /f ${Keyed.hiddenOld}`, '+++ /f', '@@ -1,9 +1,9 @@'])
    const body = out.slice(3)
    expect(body.filter((l) => l.startsWith('+'))).toEqual(lines.filter(([k]) => k === '+').map(([, t]) => '+' + t))
    expect(body.some((l) => l.startsWith('-') || l.startsWith(' '))).toBe(false)
  })

  it('withoutOld drops a removed line that reads like a header ("-- " at its start): a diff of plait\'s own', async () => {
    const { createTwoFilesPatch } = await import('diff')
    const out = Keyed.withoutOld(createTwoFilesPatch('/f', '/f', 'a\n-- password=hunter2\nb\n', 'a\nb\n++ added\n', '', '', { context: 3 }))
    expect(out).not.toContain('hunter2')
    expect(out).toContain('+++ added')
  })
})

describe('restoring for apply', () => {
  test.prop([text, text])('gives back the clear desired digests of a keyed carrier with steps', (secret, former) => {
    const r = conf('file#/etc/a', `pw=${secret}`, former)
    const keyed = { ...Keyed.body(body(r), new Set([r.id]), key), hash: 'sha256:00' }
    const restored = Keyed.restore(keyed, key)
    expect(E.isRight(restored) && (restored.right.resources[0] as FileResourcePlan).desired).toEqual(r.desired)
  })

  it('refuses a keyed desired digest that none of its steps has (an edited plan, or another key)', () => {
    const r = conf('file#/etc/a', 'pw=1', 'pw=0')
    const keyed = { ...Keyed.body(body(r), new Set([r.id]), otherKey), hash: 'sha256:00' }
    const restored = Keyed.restore(keyed, key)
    expect(E.isLeft(restored) && restored.left[0]).toMatch(/^file#\/etc\/a: its keyed digest hmac-sha256:[0-9a-f]{12}… is of none of its steps' contents$/)
  })

  it('keeps the keyed digests of a carrier without steps (it is never verified)', () => {
    const r = { ...conf('file#/etc/a', 'pw=1', 'pw=1'), action: 'none', steps: [] } as FileResourcePlan
    const keyed = { ...Keyed.body(body(r), new Set([r.id]), key), hash: 'sha256:00' }
    expect(Keyed.restore(keyed, key)).toEqual(E.right(keyed))
  })
})

describe('what apply shows of a carrier', () => {
  it('keys the digests quoted about a carrier, and nothing about other resources', () => {
    const d = sha('pw=1')
    const report = { resources: [{ id: 'file#/etc/a', outcome: 'failed', messages: [`did not reach the desired state: content sha256 is ${d.slice(0, 12)}`] }, { id: 'file#/etc/b', outcome: 'changed', messages: [`sha256 ${d.slice(0, 12)}`] }] }
    const shown = Keyed.shown(report, new Set(['file#/etc/a']), key)
    expect(shown.resources[0]!.messages[0]).toBe(`did not reach the desired state: content sha256 is ${Keyed.keyHex(d.slice(0, 12), key)}`)
    expect(shown.resources[0]!.messages[0]).toMatch(/content sha256 is hmac:[0-9a-f]{12}$/)
    expect(shown.resources[0]!.id).toBe('file#/etc/a')
    expect(shown.resources[1]).toEqual(report.resources[1])
    expect(Keyed.shown(report, new Set(), key)).toBe(report)
  })

  it('finds the carriers of a plan by their keyed observed digest', () => {
    const b = body(conf('file#/etc/a', 'x', 'y'), conf('file#/etc/b', 'p', 'q'))
    expect([...Keyed.carriersOf(Keyed.body(b, new Set(['file#/etc/b']), key))]).toEqual(['file#/etc/b'])
  })
})
