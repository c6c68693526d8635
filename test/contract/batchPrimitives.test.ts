// The primitives a batch of writes is made of (Machine.writeTemp, renameTemp, syncDirectory, and
// append without an fsync), on both interpreters: posix below a temp root, and memory. Laws:
// writeTemp then renameTemp leaves the machine exactly as writeFileAtomic does; appends with and
// without fsync leave the same bytes; syncDirectory changes nothing. And the faults each gives.
import { fc } from '@fast-check/vitest'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Attrs } from '../../src/interpreters/Machine.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as AccountsParser from '../../src/interpreters/posix/accounts.js'
import * as Materialize from '../../src/interpreters/posix/materialize.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import type * as Snapshot from '../../src/interpreters/Snapshot.js'
import { app, fails, fixture, ok, type Harness } from './machine.contract.js'

const posix = async (snapshot: Snapshot.Snapshot): Promise<Harness> => {
  const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-batch-'))
  const written = await Materialize.materialize(snapshot, root)()
  if (E.isLeft(written)) throw new Error(`materialize: ${written.left.description}`)
  const machine = Posix.make({ root, accounts: { passwd: AccountsParser.renderPasswd(snapshot.users), group: AccountsParser.renderGroup(snapshot.groups) } })
  return {
    machine,
    snapshot: async () => {
      const s = await Materialize.capture(root, snapshot)()
      if (E.isLeft(s)) throw new Error(`capture: ${s.left.description}`)
      return s.right
    },
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  }
}

const memory = async (snapshot: Snapshot.Snapshot): Promise<Harness> => {
  const machine = Memory.make(snapshot)
  return { machine, snapshot: async () => machine.snapshot(), cleanup: async () => undefined }
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

/** A write: a target (new, existing, in a subdirectory), its bytes and mode. */
const writeArb = fc.record({
  path: fc.constantFrom('/etc/motd', '/etc/new.conf', '/srv/data/a.txt', '/srv/data/sub/c.txt', '/etc/app.conf'),
  text: fc.string({ maxLength: 40 }),
  mode: fc.constantFrom(0o644, 0o600, 0o640, 0o755),
})

const withHarness = async <A>(make: (s: Snapshot.Snapshot) => Promise<Harness>, body: (h: Harness) => Promise<A>): Promise<A> => {
  const h = await make(fixture)
  try {
    return await body(h)
  } finally {
    await h.cleanup()
  }
}

for (const [name, make] of [
  ['memory', memory],
  ['posix', posix],
] as const) {
  describe(`${name}: the primitives of a batch`, () => {
    it('writeTemp of several files, then renameTemp of each in order, leaves the machine as writeFileAtomic of each does', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(writeArb, { minLength: 1, maxLength: 4 }), async (writes) => {
          const atomic = await withHarness(make, async (h) => {
            for (const [i, w] of writes.entries()) await ok(h.machine.writeFileAtomic(w.path, bytes(w.text), { ...app, mode: w.mode }, `.t${i}`))
            return h.snapshot()
          })
          const halves = await withHarness(make, async (h) => {
            // all the temp files first (as a batch stages them), then the renames in order
            for (const [i, w] of writes.entries()) await ok(h.machine.writeTemp(w.path, bytes(w.text), { ...app, mode: w.mode }, `.t${i}`))
            for (const [i, w] of writes.entries()) await ok(h.machine.renameTemp(w.path, `.t${i}`))
            for (const d of new Set(writes.map((w) => nodePath.posix.dirname(w.path)))) await ok(h.machine.syncDirectory(d))
            return h.snapshot()
          })
          expect(halves).toEqual(atomic)
        }),
        { numRuns: name === 'posix' ? 25 : 100 },
      )
    })

    it('a temp file written and not renamed is there beside the target, with its mode; the target is untouched', async () => {
      await withHarness(make, async (h) => {
        const before = await h.snapshot()
        await ok(h.machine.writeTemp('/etc/motd', bytes('new\n'), { ...app, mode: 0o600 }, '.motd.plait-1-1'))
        const after = await h.snapshot()
        expect(after.files['/etc/motd']).toEqual(before.files['/etc/motd'])
        expect(after.files['/etc/.motd.plait-1-1']).toMatchObject({ kind: 'file', mode: 0o600, uid: app.uid })
      })
    })

    it('appends with and without an fsync leave the same bytes as one append of them all', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), fc.boolean()), { minLength: 1, maxLength: 6 }), async (parts) => {
          const one = await withHarness(make, async (h) => {
            await ok(h.machine.append('/srv/log', bytes(parts.map(([t]) => t).join(''))))
            return h.snapshot()
          })
          const many = await withHarness(make, async (h) => {
            for (const [t, sync] of parts) await ok(sync ? h.machine.append('/srv/log', bytes(t)) : h.machine.append('/srv/log', bytes(t), { sync: false }))
            return h.snapshot()
          })
          expect(many).toEqual(one)
        }),
        { numRuns: name === 'posix' ? 20 : 100 },
      )
    })

    it('syncDirectory changes nothing; it refuses a missing path, a file and a symlink', async () => {
      await withHarness(make, async (h) => {
        const before = await h.snapshot()
        await ok(h.machine.syncDirectory('/etc'))
        await ok(h.machine.syncDirectory('/'))
        expect(await h.snapshot()).toEqual(before)
        expect((await fails(h.machine.syncDirectory('/nope')))._tag).toBe('NotFound')
        expect((await fails(h.machine.syncDirectory('/etc/motd')))._tag).toBe('NotADirectory')
        // a symlink to a directory is not followed
        expect((await fails(h.machine.syncDirectory('/srv/link')))._tag).toBe('NotADirectory')
      })
    })

    it('writeTemp fails like writeFileAtomic: a missing parent, a temp name taken, a bad temp name; renameTemp without its temp file fails and changes nothing', async () => {
      await withHarness(make, async (h) => {
        const a: Attrs = { ...app, mode: 0o644 }
        const missing = await fails(h.machine.writeTemp('/nope/x', bytes('x'), a, '.x.t'))
        expect([missing._tag, missing.op]).toEqual(['NotFound', 'writeFileAtomic'])
        expect(missing.description).toMatch(/parent directory \/nope does not exist/)
        await ok(h.machine.writeTemp('/etc/x', bytes('x'), a, '.x.t'))
        expect((await fails(h.machine.writeTemp('/etc/x', bytes('y'), a, '.x.t')))._tag).toBe('Exists')
        expect((await fails(h.machine.writeTemp('/etc/x', bytes('y'), a, '../x.t'))).op).toBe('writeFileAtomic')
        const before = await h.snapshot()
        expect((await fails(h.machine.renameTemp('/etc/y', '.y.t')))._tag).toBe('NotFound')
        expect(await h.snapshot()).toEqual(before)
        // over a directory: refused, and the temp file is gone
        await ok(h.machine.writeTemp('/etc/empty', bytes('x'), a, '.e.t'))
        expect((await fails(h.machine.renameTemp('/etc/empty', '.e.t')))._tag).toBe('IsADirectory')
        expect((await h.snapshot()).files['/etc/.e.t']).toBeUndefined()
      })
    })
  })
}
