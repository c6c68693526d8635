// Rollback and sensitive values (pure): a file's bytes that may hold a secret are never chosen,
// whether a generation up to N wrote one there or plait had not changed the file before a
// generation wrote one over it; the resources of paths that hold a secret now are the carriers whose
// digests a rollback plan keys.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Record from '../../src/generations/Record.js'
import * as Rollback from '../../src/generations/Rollback.js'

const sha = (c: string): string => c.repeat(64)

const record = (number: number, files: ReadonlyArray<Record.Entry>): Record.Record => ({
  format: Record.formatVersion,
  number,
  time: '2026-11-25T12:00:00Z',
  plan: `sha256:${sha('a')}`,
  manifest: { path: '/m.yaml', sha256: sha('b') },
  root: '/',
  resources: [...new Set(files.map((f) => f.id))],
  files: [...files],
  irreversible: [],
  budget: Record.defaultBudget,
  kept: 0,
})

const fileImage = (c: string): Record.Image => ({ _tag: 'File', sha256: sha(c), size: 1, uid: 0, gid: 0, mode: 0o600 })
const entry = (path: string, image: Record.Image, sensitive = false): Record.Entry => ({ path, id: `file#${path}`, image, ...(sensitive ? { sensitive: true } : {}) })

describe('Rollback.choose and what may hold a secret', () => {
  it('lists, never restores, bytes from before plait that a generation wrote a secret over (--to 0, and --to N before the first change)', () => {
    const records = [record(1, [entry('/other', { _tag: 'Absent' })]), record(2, [entry('/etc/app.conf', fileImage('1'), true), entry('/etc/plain.conf', fileImage('2'))])]
    for (const to of [0, 1]) {
      const c = Rollback.choose(records, to)
      expect(E.isRight(c) && c.right.restore.map((r) => r.path)).toEqual(to === 0 ? ['/etc/plain.conf', '/other'] : ['/etc/plain.conf'])
      expect(E.isRight(c) && c.right.cannot).toEqual(['/etc/app.conf: its content from before plait changed it may hold a sensitive value (generation 2 wrote one over it), which a plan never carries in clear; put it back by hand'])
    }
  })

  it('restores bytes plait wrote without a secret before one was written over them, and names their resource a carrier', () => {
    const records = [record(1, [entry('/etc/app.conf', { _tag: 'Absent' })]), record(2, [entry('/etc/app.conf', fileImage('1'), true)])]
    const c = Rollback.choose(records, 1)
    expect(E.isRight(c) && c.right.restore.map((r) => r.path)).toEqual(['/etc/app.conf'])
    expect(E.isRight(c) && c.right.cannot).toEqual([])
    expect(E.isRight(c) && [...Rollback.carriers(c.right)]).toEqual(['file#/etc/app.conf'])
    // the catalog's resource is the carrier's id
    expect(E.isRight(c) && Rollback.catalog(c.right, '/var/lib/plait').resources.map((r) => r.id)).toEqual(['file#/etc/app.conf'])
  })

  it('restores absence (no bytes) whatever was written over it', () => {
    const c = Rollback.choose([record(1, [entry('/new', { _tag: 'Absent' }, true)])], 0)
    expect(E.isRight(c) && c.right.restore.map((r) => r.path)).toEqual(['/new'])
    expect(E.isRight(c) && [...Rollback.carriers(c.right)]).toEqual(['file#/new'])
  })

  it('law: no File image chosen is one whose content right after N may hold a secret, and every carrier is a chosen path that holds one now', () => {
    const paths = ['/a', '/b', '/c'] as const
    const imageArb = fc.oneof(fc.constant<Record.Image>({ _tag: 'Absent' }), fc.constantFrom('1', '2').map(fileImage))
    const gen = fc.array(fc.subarray([...paths], { minLength: 1 }).chain((ps) => fc.tuple(...ps.map((p) => fc.tuple(imageArb, fc.boolean()).map(([image, s]) => entry(p, image, s))))), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(gen, fc.nat(5), (gs, n) => {
        const records = gs.map((files, i) => record(i + 1, files))
        const to = n % (records.length + 1)
        const c = Rollback.choose(records, to)
        if (E.isLeft(c)) return false
        for (const r of c.right.restore) {
          if (r.image._tag !== 'File') continue
          const upTo = records.filter((g) => g.number <= to).flatMap((g) => g.files.filter((f) => f.path === r.path))
          const wroteSecret = upTo.length > 0 ? upTo.at(-1)!.sensitive === true : records.find((g) => g.number === r.generation)!.files.find((f) => f.path === r.path)!.sensitive === true
          if (wroteSecret) return false
        }
        const newest = (p: string): boolean => records.flatMap((g) => g.files.filter((f) => f.path === p)).at(-1)?.sensitive === true
        return [...Rollback.carriers(c.right)].every((id) => c.right.restore.some((r) => Rollback.idOf(r.path) === id && newest(r.path)))
      }),
    )
  })
})
