// Rollback (pure): which before-image each path gets for `--to N`, the order of the resources,
// what is listed as not restorable, the refusals; and the record codec's round trip.
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Record from '../../src/generations/Record.js'
import * as Rollback from '../../src/generations/Rollback.js'
import * as History from '../../src/generations/History.js'

const sha = (c: string): string => c.repeat(64)

const record = (number: number, files: ReadonlyArray<Record.Entry>, irreversible: ReadonlyArray<string> = []): Record.Record => ({
  format: Record.formatVersion,
  number,
  time: `2026-11-25T12:00:0${number % 10}Z`,
  plan: `sha256:${sha('a')}`,
  manifest: { path: '/m.yaml', sha256: sha('b') },
  root: '/',
  resources: [...new Set(files.map((f) => f.id))],
  files: [...files],
  irreversible: [...irreversible],
  budget: Record.defaultBudget,
  kept: 0,
})

const fileImage = (c: string): Record.Image => ({ _tag: 'File', sha256: sha(c), size: 1, uid: 0, gid: 0, mode: 0o644 })
const entry = (path: string, image: Record.Image): Record.Entry => ({ path, id: `file#${path}`, image })

const paths = ['/a', '/b', '/d', '/d/x', '/d/y'] as const
const imageArb: fc.Arbitrary<Record.Image> = fc.oneof(
  fc.constant({ _tag: 'Absent' as const }),
  fc.constantFrom('1', '2', '3').map(fileImage),
  fc.constant({ _tag: 'Directory' as const, uid: 0, gid: 0, mode: 0o755 }),
  fc.constant({ _tag: 'Unkept' as const, reason: 'over the size budget' }),
)
/** Generations 1..k, each changing some of the paths (each at most once). */
const historyArb = fc
  .array(fc.subarray([...paths], { minLength: 1 }).chain((ps) => fc.tuple(...ps.map((p) => imageArb.map((image) => entry(p, image))))), { minLength: 1, maxLength: 6 })
  .map((gs) => gs.map((files, i) => record(i + 1, files, i % 2 === 0 ? [] : [`exec#c${i + 1}: run /bin/c`])))

describe('Rollback.choose', () => {
  it('gives each path the before-image of the first generation after N that changed it, and nothing else', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(), (records, pick) => {
        const to = pick % (records.length + 1)
        const c = Rollback.choose(records, to)
        expect(E.isRight(c)).toBe(true)
        if (E.isLeft(c)) return
        const got = new Map(c.right.restore.map((r) => [r.path, [r.generation, r.image]]))
        for (const p of paths) {
          const first = records.find((r) => r.number > to && r.files.some((f) => f.path === p))
          const image = first?.files.find((f) => f.path === p)?.image
          if (image === undefined || image._tag === 'Unkept') expect(got.has(p)).toBe(false)
          else expect(got.get(p)).toEqual([first!.number, image])
          if (image?._tag === 'Unkept') expect(c.right.cannot).toContain(`${p}: over the size budget (generation ${first!.number})`)
        }
        // every irreversible step after N is listed, none before
        const irreversible = records.flatMap((r) => r.irreversible.map((x) => [r.number, x] as const))
        for (const [n, x] of irreversible) expect(c.right.cannot.includes(`${x}: ran in generation ${n} and cannot be undone`)).toBe(n > to)
      }),
    )
  })

  it('is the same whatever order the records come in', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(), fc.nat(), (records, pick, seed) => {
        const to = pick % (records.length + 1)
        const shuffled = [...records].sort((a, b) => ((a.number * 7919 + seed) % 13) - ((b.number * 7919 + seed) % 13))
        expect(Rollback.choose(shuffled, to)).toEqual(Rollback.choose(records, to))
      }),
    )
  })

  it('to the latest generation restores nothing', () => {
    fc.assert(
      fc.property(historyArb, (records) => {
        const c = Rollback.choose(records, records.length)
        expect(E.isRight(c) && [c.right.restore, c.right.cannot]).toEqual([[], []])
      }),
    )
  })

  it('orders what is to be there parents first, then what is to go children first', () => {
    const c = Rollback.choose(
      [record(1, [entry('/d/x', { _tag: 'Absent' }), entry('/d', { _tag: 'Absent' }), entry('/b/f', fileImage('1')), entry('/b', { _tag: 'Directory', uid: 0, gid: 0, mode: 0o755 }), entry('/a', { _tag: 'Absent' })])],
      0,
    )
    expect(E.isRight(c) && c.right.restore.map((r) => r.path)).toEqual(['/b', '/b/f', '/d/x', '/a', '/d'])
  })

  it('never puts back bytes that a generation up to N wrote from a sensitive value: it lists them instead', () => {
    const records = [
      record(1, [{ ...entry('/secret', { _tag: 'Absent' }), sensitive: true }, entry('/plain', { _tag: 'Absent' })]),
      record(2, [entry('/secret', fileImage('1')), entry('/plain', fileImage('2'))]),
    ]
    const c = Rollback.choose(records, 1)
    expect(E.isRight(c) && c.right.restore.map((r) => r.path)).toEqual(['/plain'])
    expect(E.isRight(c) && c.right.cannot).toEqual(['/secret: its content holds a sensitive value, which a plan never carries in clear; apply the manifest of generation 1 again'])
    expect(E.isRight(c) && c.right.secretNow).toEqual([])
    // what generation 2 wrote at /plain is sensitive now: the plan of a rollback shows no diff of it
    const now = Rollback.choose([...records, record(3, [{ ...entry('/plain', fileImage('3')), sensitive: true }])], 1)
    expect(E.isRight(now) && now.right.secretNow).toEqual(['/plain'])
    // before generation 1 it held no secret plait knows of: --to 0 restores absence (it held nothing)
    const z = Rollback.choose(records, 0)
    expect(E.isRight(z) && z.right.restore.map((r) => r.path).sort()).toEqual(['/plain', '/secret'])
  })

  it('refuses no generations, a number out of range, and a gap left by pruning, in words', () => {
    expect(Rollback.choose([], 0)).toEqual(E.left('there are no generations yet: an apply that changes something records one'))
    expect(Rollback.choose([record(1, [])], 2)).toEqual(E.left('--to 2: choose a generation from 0 to 1'))
    expect(Rollback.choose([record(1, [])], -1)).toEqual(E.left('--to -1: choose a generation from 0 to 1'))
    expect(Rollback.choose([record(3, []), record(4, [])], 1)).toEqual(
      E.left('--to 1: generation 2 is no longer kept, so the files cannot be brought back to generation 1; the oldest generation it can go back to is 2'),
    )
    expect(E.isRight(Rollback.choose([record(3, []), record(4, [])], 2))).toBe(true)
  })
})

describe('Rollback.catalog', () => {
  it('makes a file resource per path: present with its before-image as source, a directory, or absent with force', () => {
    const c = Rollback.choose([record(1, [entry('/f', { _tag: 'File', sha256: sha('c'), size: 3, uid: 1000, gid: 100, mode: 0o600 }), entry('/d', { _tag: 'Directory', uid: 0, gid: 0, mode: 0o700 }), entry('/g', { _tag: 'Absent' })], ['exec#x: run x'])], 0)
    if (E.isLeft(c)) throw new Error(c.left)
    const cat = Rollback.catalog(c.right, '/var/lib/plait')
    expect(cat.manifest.file).toBe('plait rollback --to 0')
    expect(cat.resources).toEqual([
      { _tag: 'file', id: 'file#/d', path: '/d', at: { file: '/var/lib/plait/generations/1/generation.json', line: 1, col: 1 }, ensure: 'directory', content: { _tag: 'Unmanaged' }, owner: '0', group: '0', mode: 0o700, force: false },
      {
        _tag: 'file',
        id: 'file#/f',
        path: '/f',
        at: { file: '/var/lib/plait/generations/1/generation.json', line: 1, col: 1 },
        ensure: 'present',
        content: { _tag: 'Source', written: `generation 1: ${sha('c')}`, path: `/var/lib/plait/generations/1/${sha('c')}` },
        owner: '1000',
        group: '100',
        mode: 0o600,
        force: false,
      },
      { _tag: 'file', id: 'file#/g', path: '/g', at: { file: '/var/lib/plait/generations/1/generation.json', line: 1, col: 1 }, ensure: 'absent', content: { _tag: 'Unmanaged' }, force: true },
    ])
    expect(cat.preMessage).toBe('Rolling back to generation 0 cannot restore 1 thing:\n  exec#x: run x: ran in generation 1 and cannot be undone')
  })

  it('gives equal choices the same manifest digest, and different ones different digests', () => {
    const a = Rollback.choose([record(1, [entry('/f', fileImage('1'))])], 0)
    const b = Rollback.choose([record(1, [entry('/f', fileImage('2'))])], 0)
    if (E.isLeft(a) || E.isLeft(b)) throw new Error('refused')
    expect(Rollback.catalog(a.right, '/s').manifest.sha256).toBe(Rollback.catalog(a.right, '/s').manifest.sha256)
    expect(Rollback.catalog(a.right, '/s').manifest.sha256).not.toBe(Rollback.catalog(b.right, '/s').manifest.sha256)
  })
})

describe('Record', () => {
  it('round-trips through its text', () => {
    fc.assert(
      fc.property(historyArb, (records) => {
        for (const r of records) expect(Record.decode(Record.encode(r), r.number)).toEqual(E.right(r))
      }),
    )
  })

  it('refuses text that is not a record of this number, saying why', () => {
    const r = record(2, [entry('/f', fileImage('1'))])
    expect(Record.decode('{', 2)).toEqual(E.left('not JSON'))
    expect(Record.decode('{}', 2)).toEqual(E.left('not a generation record'))
    expect(Record.decode(JSON.stringify({ ...r, format: 'plait.generation/9' }), 2)).toEqual(E.left('unknown format "plait.generation/9"; this plait reads plait.generation/1'))
    expect(Record.decode(Record.encode(r), 3)).toEqual(E.left('it says it is generation 2'))
    expect(Record.decode(JSON.stringify({ ...r, files: [{ path: '../x', id: 'i', image: { _tag: 'Absent' } }] }), 2)).toEqual(E.left('malformed record at files.0.path'))
    expect(Record.decode(JSON.stringify({ ...r, files: [entry('/f', { _tag: 'File', sha256: 'nothex', size: 1, uid: 0, gid: 0, mode: 0 })] }), 2)._tag).toBe('Left')
  })

  it('names generation directories by number only', () => {
    expect(['1', '2', '10', '999'].every(Record.isNumberName)).toBe(true)
    expect(['0', '01', '.1.tmp', 'latest', '1a', ''].some(Record.isNumberName)).toBe(false)
  })
})

describe('Record.sensitive', () => {
  it('names the resources whose steps carry a redaction marker, and no others', () => {
    const steps = (data: string) => [{ _tag: 'file.write', content: { data } }]
    expect([...Record.sensitive([{ id: 'file#/a', steps: steps('pw=⟦sensitive:0123456789abcdef⟧') }, { id: 'file#/b', steps: steps('plain') }, { id: 'exec#x', steps: [] }])]).toEqual(['file#/a'])
  })
})

describe('History', () => {
  it('lists each generation newest first with its counts and what cannot be restored, escaping what it shows', () => {
    const text = History.render([record(1, [entry('/a', fileImage('1'))]), record(2, [entry('/b', { _tag: 'Unkept', reason: 'a\u001b[31m red' })], ['exec#x: run x'])], ['generation 3: damaged'])
    expect(text.indexOf('generation 2')).toBeLessThan(text.indexOf('generation 1'))
    expect(text).toContain('  changed   1 resource, 1 file imaged (0 B kept)\n  cannot be restored:\n    /b: a\\x1b[31m red\n    exec#x: run x (ran; cannot be undone)')
    expect(text).not.toContain('\u001b')
    expect(text.endsWith('warning: generation 3: damaged\n')).toBe(true)
  })

  it('says when there are none', () => {
    expect(History.render([], [])).toBe('No generations: an apply that changes something records one.\n')
  })
})
