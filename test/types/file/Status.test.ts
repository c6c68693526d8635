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
