// fast-check arbitraries of machine snapshots, shared by the interpreter tests.
import * as E from 'fp-ts/lib/Either.js'
import { fc } from '@fast-check/vitest'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** A directory entry name: any valid Unicode text without "/" or NUL, not "." or "..", at most 60 code units. */
export const name = (simple: boolean): fc.Arbitrary<string> =>
  simple
    ? fc.constantFrom('a', 'b', 'c', 'etc', 'x.conf', 'd e', 'ü')
    : fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
        .filter((s) => !s.includes('/') && !s.includes('\0') && s !== '.' && s !== '..' && Buffer.byteLength(s) <= 255)

/** Owner ids: a few real ones as root, else this process's own. */
export const owner: fc.Arbitrary<{ uid: number; gid: number }> = isRoot
  ? fc.record({ uid: fc.constantFrom(0, 1, 1000, 65534), gid: fc.constantFrom(0, 1, 1000, 65534) })
  : fc.constant({ uid: process.getuid!(), gid: process.getgid!() })

const mode = fc.integer({ min: 0, max: 0o777 })

/** Any node a snapshot may hold (no special files, which materialize cannot write). */
export const node: fc.Arbitrary<Snapshot.Node> = fc.oneof(
  fc.record({ o: owner, m: mode, content: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 })) }).map(({ o, m, content }) => Snapshot.file(content, { ...o, mode: m })),
  fc.record({ o: owner, m: mode }).map(({ o, m }) => Snapshot.directory({ ...o, mode: isRoot ? m : m | 0o700 })),
  fc.record({ o: owner, target: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((t) => !t.includes('\0')) }).map(({ o, target }) => Snapshot.symlink(target, o)),
)

const accountName = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).filter((s) => s !== '__proto__')
const accounts = fc.dictionary(accountName, fc.integer({ min: 0, max: 0xffffffff }), { maxKeys: 4 })

/** A whole snapshot: up to `size` nodes at depth up to 3 (paths below a non-directory are dropped). */
export const snapshot = (options: { simpleNames?: boolean; size?: number; accounts?: boolean } = {}): fc.Arbitrary<Snapshot.Snapshot> =>
  fc
    .record({
      entries: fc.array(fc.tuple(fc.array(name(options.simpleNames ?? false), { minLength: 1, maxLength: 3 }), node), { maxLength: options.size ?? 12 }),
      users: options.accounts === false ? fc.constant(undefined) : fc.option(accounts, { nil: undefined }),
      groups: options.accounts === false ? fc.constant(undefined) : fc.option(accounts, { nil: undefined }),
    })
    .map(({ entries, users, groups }) => {
      const files: Record<string, Snapshot.Node> = {}
      for (const [segments, n] of entries) {
        const path = '/' + segments.join('/')
        const blocked = segments.some((_, i) => {
          const above = files['/' + segments.slice(0, i).join('/')]
          return i > 0 && above !== undefined && above.kind !== 'directory'
        })
        const below = Object.keys(files).some((p) => p.startsWith(path + '/'))
        if (blocked || (below && n.kind !== 'directory') || files[path] !== undefined) continue
        files[path] = n
      }
      const made = Snapshot.make(files, { ...(users === undefined ? {} : { users }), ...(groups === undefined ? {} : { groups }) })
      if (E.isLeft(made)) throw new Error(made.left)
      return made.right
    })
