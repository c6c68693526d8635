import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Bytes from '../../../src/core/Bytes.js'
import * as Digest from '../../../src/core/Digest.js'
import type { Accounts } from '../../../src/core/Probe.js'
import * as FilePlan from '../../../src/types/file/plan.js'
import type { FileSpec } from '../../../src/types/file/Spec.js'
import type { FileStatus } from '../../../src/types/file/Status.js'
import { verify } from '../../../src/types/file/verify.js'

export const accounts: Accounts = {
  users: new Map([['root', 0], ['app', 1000]]),
  groups: new Map([['root', 0], ['app', 1000]]),
  userNames: new Map([[0, 'root'], [1000, 'app']]),
  groupNames: new Map([[0, 'root'], [1000, 'app']]),
}

const bytes = (text: string): FilePlan.Bytes => Bytes.of(new TextEncoder().encode(text))

const spec = (over: Partial<FileSpec> = {}): FileSpec => ({
  _tag: 'file',
  id: 'file#/etc/x',
  path: '/etc/x',
  at: { file: 'm.yaml', line: 1, col: 1 },
  ensure: 'present',
  content: { _tag: 'Inline', text: 'new\n' },
  owner: 'root',
  group: 'root',
  mode: 0o644,
  force: false,
  ...over,
})

const file = (text: string, over: Partial<{ uid: number; gid: number; mode: number }> = {}): FileStatus => ({
  _tag: 'File',
  uid: 0,
  gid: 0,
  mode: 0o644,
  size: text.length,
  sha256: Digest.sha256(text),
  content: new TextEncoder().encode(text),
  ...over,
})

const plan = (s: FileSpec, status: FileStatus, b: FilePlan.Bytes | undefined = s.content._tag === 'Inline' ? bytes(s.content.text) : undefined) => {
  const r = FilePlan.plan(s, b, status, accounts)
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right
}

const errorOf = (s: FileSpec, status: FileStatus, b?: FilePlan.Bytes): string => {
  const r = FilePlan.plan(s, b, status, accounts)
  if (E.isRight(r)) throw new Error('expected an error')
  return r.left.message
}

describe('file plan: the decision table', () => {
  it('absent + absent: nothing', () => {
    expect(plan(spec({ ensure: 'absent', content: { _tag: 'Unmanaged' } }), { _tag: 'Absent' }).steps).toEqual([])
  })
  it('absent + file: remove, with the noop message', () => {
    const p = plan(spec({ ensure: 'absent', content: { _tag: 'Unmanaged' } }), file('x'))
    expect(p.action).toBe('delete')
    expect(p.steps).toMatchObject([{ _tag: 'file.remove', kind: 'file', recursive: false, noop: 'Would have removed the file' }])
  })
  it('absent + non-empty directory: an error without force, a recursive remove with it', () => {
    const dir: FileStatus = { _tag: 'Directory', uid: 0, gid: 0, mode: 0o755, empty: false }
    expect(errorOf(spec({ ensure: 'absent', content: { _tag: 'Unmanaged' } }), dir)).toMatch(/non-empty directory/)
    expect(plan(spec({ ensure: 'absent', content: { _tag: 'Unmanaged' }, force: true }), dir).steps).toMatchObject([{ _tag: 'file.remove', recursive: true }])
  })
  it('directory + absent: create it', () => {
    const p = plan(spec({ ensure: 'directory', content: { _tag: 'Unmanaged' }, mode: 0o755 }), { _tag: 'Absent' })
    expect(p.action).toBe('create')
    expect(p.steps).toMatchObject([{ _tag: 'file.mkdir', mode: '0755', noop: 'Would have created directory' }])
  })
  it('directory + directory with wrong attributes: fix them', () => {
    const p = plan(spec({ ensure: 'directory', content: { _tag: 'Unmanaged' }, mode: 0o755, owner: 'app' }), { _tag: 'Directory', uid: 0, gid: 0, mode: 0o700, empty: true })
    expect(p.steps).toMatchObject([{ _tag: 'file.attrs', reason: 'owner root → app, mode 0700 → 0755' }])
  })
  it.each([
    ['file', file('x'), false],
    ['symlink', { _tag: 'Symlink', uid: 0, gid: 0, target: '/etc/passwd' } as FileStatus, false],
    ['other', { _tag: 'Other', uid: 0, gid: 0, mode: 0o644 } as FileStatus, true],
  ])('directory + %s: CCM\'s table replaces it: remove it (backed up), then create the directory', (kind, status, irreversible) => {
    const p = plan(spec({ ensure: 'directory', content: { _tag: 'Unmanaged' }, mode: 0o755 }), status)
    expect(p.action).toBe('update')
    expect(p.steps).toMatchObject([
      { _tag: 'file.remove', path: '/etc/x', kind, recursive: false, noop: `Would have replaced the ${kind === 'other' ? 'special file' : kind} /etc/x with a directory` },
      { _tag: 'file.mkdir', path: '/etc/x', mode: '0755', noop: 'Would have created directory' },
    ])
    expect(p.steps[0]!.reason).toMatch(/is in the way of the directory; it is removed first/)
    expect(p.steps[0]!.reason.includes('cannot be undone')).toBe(irreversible)
  })
  it('present + empty directory: remove it, then write the file', () => {
    const p = plan(spec(), { _tag: 'Directory', uid: 0, gid: 0, mode: 0o755, empty: true })
    expect(p.action).toBe('update')
    expect(p.steps).toMatchObject([
      { _tag: 'file.remove', kind: 'directory', recursive: false, reason: 'a directory is in the way of the file; it is removed first', noop: 'Would have replaced the directory /etc/x with a file' },
      { _tag: 'file.write', content: { data: 'new\n' }, reason: 'a directory was in the way' },
    ])
    expect((p.steps[1] as { diff: string }).diff).toContain('+new')
  })
  it('present + non-empty directory: an error without force, replaced with its contents with force', () => {
    const dir: FileStatus = { _tag: 'Directory', uid: 0, gid: 0, mode: 0o755, empty: false }
    expect(errorOf(spec(), dir, bytes('new\n'))).toBe('/etc/x is a non-empty directory; a file replaces it only with force: true')
    const p = plan(spec({ force: true }), dir)
    expect(p.steps).toMatchObject([{ _tag: 'file.remove', kind: 'directory', recursive: true }, { _tag: 'file.write' }])
    expect(p.steps[0]!.reason).toBe('a directory with contents (force) is in the way of the file; it is removed first')
    expect(p.steps[0]!.noop).toBe('Would have replaced the directory /etc/x with a file')
    expect(p.desired.force).toBe(true)
  })
  it('present + special file: removed first (which cannot be undone), then the file written', () => {
    const p = plan(spec({ content: { _tag: 'Unmanaged' } }), { _tag: 'Other', uid: 0, gid: 0, mode: 0o644 })
    expect(p.steps).toMatchObject([{ _tag: 'file.remove', kind: 'other' }, { _tag: 'file.write', content: { size: 0 } }])
    expect(p.steps[0]!.reason).toMatch(/cannot be undone/)
  })
  it('present + absent: write, with a diff from /dev/null', () => {
    const p = plan(spec(), { _tag: 'Absent' })
    expect(p.action).toBe('create')
    expect(p.steps[0]).toMatchObject({ _tag: 'file.write', noop: 'Would have created the file', content: { encoding: 'utf8', data: 'new\n' } })
    expect((p.steps[0] as { diff: string }).diff).toContain('+new')
  })
  it('present + same content and attributes: nothing', () => {
    expect(plan(spec(), file('new\n')).steps).toEqual([])
  })
  it('present + other content: write, with a unified diff', () => {
    const p = plan(spec(), file('old\n'))
    expect(p.action).toBe('update')
    const w = p.steps[0] as { _tag: string; diff: string; reason: string }
    expect(w._tag).toBe('file.write')
    expect(w.reason).toMatch(/^content differs/)
    expect(w.diff).toContain('-old')
    expect(w.diff).toContain('+new')
  })
  it('present + wrong attributes only: chmod/chown, no rewrite', () => {
    const p = plan(spec(), file('new\n', { mode: 0o600, gid: 1000 }))
    expect(p.steps).toMatchObject([{ _tag: 'file.attrs', reason: 'group app → root, mode 0600 → 0644' }])
  })
  it('present without content: an existing file keeps its bytes; a missing one is created empty', () => {
    const s = spec({ content: { _tag: 'Unmanaged' } })
    expect(plan(s, file('anything')).steps).toEqual([])
    const p = plan(s, { _tag: 'Absent' })
    expect(p.steps).toMatchObject([{ _tag: 'file.write', content: { size: 0 } }])
  })
  it('present + symlink: the link is replaced, never followed', () => {
    const p = plan(spec(), { _tag: 'Symlink', uid: 0, gid: 0, target: '/etc/passwd' })
    expect(p.steps).toMatchObject([{ _tag: 'file.write' }])
    expect(p.steps[0]!.reason).toMatch(/symlink to \/etc\/passwd is in the way/)
  })
  it('binary content is carried as base64', () => {
    const data = new Uint8Array([0, 1, 2, 255])
    const p = plan(spec(), { _tag: 'Absent' }, Bytes.of(data))
    expect(p.steps[0]).toMatchObject({ content: { encoding: 'base64', data: 'AAEC/w==' } })
  })
  it('an unknown user is a plan error naming the resource', () => {
    const r = FilePlan.plan(spec({ owner: 'nobody-here' }), bytes('new\n'), { _tag: 'Absent' }, accounts)
    expect(r).toMatchObject({ _tag: 'Left', left: { resource: 'file#/etc/x', message: 'could not look up user "nobody-here"' } })
  })
  it('numeric ids are accepted and named when known', () => {
    const p = plan(spec({ owner: '1000', group: '4242' }), { _tag: 'Absent' })
    expect(p.desired.owner).toEqual({ name: 'app', id: 1000 })
    expect(p.desired.group).toEqual({ name: '4242', id: 4242 })
  })
})

const statusArb: fc.Arbitrary<FileStatus> = fc.oneof(
  fc.constant<FileStatus>({ _tag: 'Absent' }),
  fc.record({
    text: fc.constantFrom('a', 'b', ''),
    uid: fc.constantFrom(0, 1000),
    gid: fc.constantFrom(0, 1000),
    mode: fc.constantFrom(0o644, 0o600, 0o755),
  }).map(({ text, ...a }) => file(text, a)),
  fc.record({ uid: fc.constantFrom(0, 1000), gid: fc.constantFrom(0, 1000), mode: fc.constantFrom(0o755, 0o700), empty: fc.boolean() }).map(
    (d): FileStatus => ({ _tag: 'Directory', ...d }),
  ),
  fc.constant<FileStatus>({ _tag: 'Symlink', uid: 0, gid: 0, target: '/x' }),
)

const specArb: fc.Arbitrary<FileSpec> = fc
  .record({
    ensure: fc.constantFrom('present', 'absent', 'directory') as fc.Arbitrary<FileSpec['ensure']>,
    text: fc.option(fc.constantFrom('a', 'b', ''), { nil: undefined }),
    owner: fc.constantFrom('root', 'app'),
    group: fc.constantFrom('root', 'app'),
    mode: fc.constantFrom(0o644, 0o600, 0o755, 0o700),
    force: fc.boolean(),
  })
  .map(({ ensure, text, force, ...rest }) =>
    spec({ ...rest, ensure, force: ensure === 'absent' && force, content: ensure === 'present' && text !== undefined ? { _tag: 'Inline', text } : { _tag: 'Unmanaged' } }),
  )

describe('file plan: laws', () => {
  fcTest.prop([specArb, statusArb])('verify finds nothing wrong exactly when the plan has no steps', (s, status) => {
    const b = s.content._tag === 'Inline' ? bytes(s.content.text) : undefined
    const r = FilePlan.plan(s, b, status, accounts)
    if (E.isLeft(r)) return // refusals are covered by the examples above
    expect(verify(r.right.desired, status).length === 0).toBe(r.right.steps.length === 0)
  })

  fcTest.prop([specArb, statusArb])('a removal before a file or directory is made says it replaces what was there with it; only ensure: absent says "removed"', (s, status) => {
    const b = s.content._tag === 'Inline' ? bytes(s.content.text) : undefined
    const r = FilePlan.plan(s, b, status, accounts)
    if (E.isLeft(r)) return
    const removal = r.right.steps.find((x) => x._tag === 'file.remove')
    if (removal === undefined || status._tag === 'Absent') return
    if (s.ensure === 'absent') return void expect(removal.noop).toBe('Would have removed the file')
    const was = status._tag === 'Directory' ? 'directory' : status._tag === 'File' ? 'file' : status._tag === 'Symlink' ? 'symlink' : 'special file'
    expect(removal.noop).toBe(`Would have replaced the ${was} ${s.path} with a ${s.ensure === 'directory' ? 'directory' : 'file'}`)
    expect(r.right.steps.indexOf(removal)).toBe(0)
    expect(r.right.steps[1]?._tag).toBe(s.ensure === 'directory' ? 'file.mkdir' : 'file.write')
  })

  fcTest.prop([specArb, statusArb])('planning is deterministic', (s, status) => {
    const b = s.content._tag === 'Inline' ? bytes(s.content.text) : undefined
    expect(FilePlan.plan(s, b, status, accounts)).toEqual(FilePlan.plan(s, b, status, accounts))
  })
})
