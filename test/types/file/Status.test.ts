import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Digest from '../../../src/core/Digest.js'
import * as Status from '../../../src/types/file/Status.js'

const id = fc.oneof(fc.nat({ max: 70000 }), fc.constantFrom(0, -0, 4294967294, 2 ** 53 - 1))

const file = fc.record({
  _tag: fc.constant('File' as const),
  uid: id,
  gid: id,
  mode: fc.nat({ max: 0o777 }),
  size: fc.nat(),
  sha256: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string()),
})

describe('Status.digest', () => {
  fcTest.prop([file, fc.option(fc.uint8Array({ maxLength: 8 }), { nil: undefined })])(
    "is Digest.ofValue of a file's fields without its content bytes",
    (s, content) => {
      const status: Status.FileStatus = content === undefined ? s : { ...s, content }
      expect(Status.digest(status)).toBe(Digest.ofValue(s))
    },
  )

  it('covers every kind of status, and ignores the diff bytes', () => {
    const statuses: Status.FileStatus[] = [
      { _tag: 'Absent' },
      { _tag: 'Directory', uid: 0, gid: 0, mode: 0o755, empty: true },
      { _tag: 'Symlink', uid: 0, gid: 0, target: '/x' },
      { _tag: 'Other', uid: 0, gid: 0, mode: 0o600 },
    ]
    for (const s of statuses) expect(Status.digest(s)).toBe(Digest.ofValue(s))
    const f = { _tag: 'File' as const, uid: 1, gid: 2, mode: 0o644, size: 3, sha256: 'ab' }
    expect(Status.digest({ ...f, content: new Uint8Array([1, 2, 3]) })).toBe(Status.digest(f))
    expect(Status.digest({ ...f, size: 4 })).not.toBe(Status.digest(f))
  })

  it('falls back to the general form for a status with fields of unexpected types', () => {
    const odd = { _tag: 'File', uid: 1.5, gid: 2, mode: 0o644, size: 3, sha256: 'ab' } as unknown as Status.FileStatus
    expect(Status.digest(odd)).toBe(Digest.ofValue(odd))
    const extra = { _tag: 'File', uid: 1, gid: 2, mode: 0o644, size: 3, sha256: 'ab', more: true } as unknown as Status.FileStatus
    expect(Status.digest(extra)).toBe(Digest.ofValue(extra))
  })
})

describe('Status.observed', () => {
  const status = fc.oneof(
    file,
    fc.constant({ _tag: 'Absent' as const }),
    fc.record({ _tag: fc.constant('Directory' as const), uid: id, gid: id, mode: fc.nat({ max: 0o7777 }), empty: fc.boolean() }),
    fc.record({ _tag: fc.constant('Symlink' as const), uid: id, gid: id, target: fc.string() }),
  )
  const accounts = { users: new Map([['root', 0]]), groups: new Map([['wheel', 0]]), userNames: new Map([[0, 'root']]), groupNames: new Map([[0, 'wheel']]) }

  fcTest.prop([status])('reads, copies and serializes as the plain record of summary and digest', (s: Status.FileStatus) => {
    const plain = { summary: Status.summary(s, accounts), digest: Status.digest(s) }
    const lazy = Status.observed(s, accounts)
    // a copy and JSON made before any field was read
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(plain))
    const copy = { ...Status.observed(s, accounts) }
    expect(Object.getOwnPropertyDescriptor(copy, 'digest')).toEqual({ value: plain.digest, writable: true, enumerable: true, configurable: true })
    expect(lazy).toStrictEqual(plain)
    expect(Object.keys(lazy)).toEqual(['summary', 'digest'])
    expect(Reflect.ownKeys(copy)).toEqual(['summary', 'digest'])
    // read again: the same strings
    expect(lazy.digest).toBe(plain.digest)
    expect(lazy.summary).toBe(plain.summary)
  })

  it("does not keep a changed file's old bytes, which neither field reads", () => {
    const s = { _tag: 'File' as const, uid: 0, gid: 0, mode: 0o644, size: 3, sha256: 'ab', content: new Uint8Array(3) }
    const lazy = Status.observed(s, accounts)
    const [held] = Object.getOwnPropertySymbols(lazy).map((k) => (lazy as unknown as Record<symbol, { status: Status.FileStatus }>)[k]!)
    expect(held!.status).toEqual({ _tag: 'File', uid: 0, gid: 0, mode: 0o644, size: 3, sha256: 'ab' })
    expect(lazy.digest).toBe(Status.digest(s))
    expect(lazy.summary).toBe(Status.summary(s, accounts))
  })

  it('works out each field once, when first read', () => {
    let reads = 0
    const s = { _tag: 'File' as const, uid: 0, gid: 0, mode: 0o644, size: 3, sha256: 'ab' }
    const counted = new Proxy(s, { get: (t, k, r) => (k === 'sha256' && reads++, Reflect.get(t, k, r)) })
    const lazy = Status.observed(counted, accounts)
    expect(reads).toBe(0)
    void lazy.digest
    const afterDigest = reads
    expect(afterDigest).toBeGreaterThan(0)
    void lazy.digest
    expect(reads).toBe(afterDigest)
  })
})
