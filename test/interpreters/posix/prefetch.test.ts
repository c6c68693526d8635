// prefetch: the worker thread that probes a plan's files while it compiles. Its probes must be the
// machine's own (the same confinement: nothing outside the root is reached), a failed probe must
// be left for the machine to make again, and `probes.ahead` must answer with a probe made ahead
// only what a probe made then would answer. The worker runs from tsc's output (dist/, built here).
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Probe, ProbeOptions } from '../../../src/core/Probe.js'
import * as Memory from '../../../src/interpreters/memory/memory.js'
import * as Prefetch from '../../../src/interpreters/posix/prefetch.js'
import * as Wire from '../../../src/interpreters/posix/prefetchWire.js'
import * as Posix from '../../../src/interpreters/posix/posix.js'
import * as Pipeline from '../../../src/cli/pipeline.js'
import * as PlanFile from '../../../src/planfile/PlanFile.js'
import * as Probes from '../../../src/interpreters/probes.js'
import { ensureBuilt, repo } from '../../e2e/setup.js'

const script = new URL(`file://${nodePath.join(repo, 'dist', 'interpreters', 'posix', 'prefetchWorker.js')}`)
beforeAll(() => ensureBuilt())

const roots: string[] = []
afterEach(async () => {
  for (const r of roots.splice(0)) await fs.rm(r, { recursive: true, force: true })
})

/** A root with files, a directory, symlinks inside and out, and a file outside it that must stay unread. */
const fixture = async (): Promise<{ root: string; paths: string[] }> => {
  const top = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-prefetch-'))
  roots.push(top)
  const root = nodePath.join(top, 'root')
  await fs.mkdir(`${root}/srv/d`, { recursive: true })
  await fs.writeFile(`${top}/secret`, 'outside the root')
  await fs.writeFile(`${root}/srv/d/a.conf`, 'a = 1\n')
  await fs.writeFile(`${root}/srv/d/empty`, '')
  await fs.mkdir(`${root}/srv/emptydir`)
  await fs.symlink('d', `${root}/srv/alias`)
  await fs.symlink(`${top}/secret`, `${root}/srv/out`)
  await fs.symlink('../..', `${root}/srv/up`)
  const paths = ['/srv/d/a.conf', '/srv/d/empty', '/srv/d', '/srv/emptydir', '/srv/alias', '/srv/alias/a.conf', '/srv/out', '/srv/up/secret', '/srv/nope', '/srv/nope/x', '/srv/d/a.conf/x', '/', 'srv/relative', '/srv/../secret']
  return { root, paths }
}

describe('Prefetch.wanted', () => {
  it.each([
    [Prefetch.minimumBytes, 'always', true],
    [Prefetch.minimumBytes - 1, 'always', false],
    [Prefetch.minimumBytes * 100, 'never', false],
  ])('%d bytes with PLAIT_PREFETCH=%s: %s', (bytes, setting, want) => {
    expect(Prefetch.wanted(bytes, setting)).toBe(want)
  })

  it.each([
    [1, 0, false],
    [2, 0, true],
    [2, 1, false],
    [2, 5, false],
    [4, 2, true],
    [4, 3, false],
  ])('with %d cores and %d tasks of other processes running or ready, a core is spare: %s', (cores, others, want) => {
    expect(Prefetch.spare(cores, others)).toBe(want)
  })

  it('otherwise starts a worker for a large manifest only when a core is likely free', () => {
    expect(Prefetch.wanted(Prefetch.minimumBytes, undefined)).toBe(Prefetch.spareCore())
    expect(Prefetch.wanted(Prefetch.minimumBytes - 1, undefined)).toBe(false)
  })
})

describe('Prefetch.start', () => {
  it('probes nothing for fewer paths than pay for a worker', () => {
    expect(Prefetch.start('/', ['/etc/hostname'], script)).toBeUndefined()
  })

  it("finds, for every path the machine can probe, the machine's own probe, and leaves out the rest (escapes, bad paths)", async () => {
    const { root, paths } = await fixture()
    const many = Array.from({ length: Prefetch.minimumPaths }, (_, i) => paths[i % paths.length]!)
    const prefetch = Prefetch.start(root, many, script)
    expect(prefetch).toBeDefined()
    await prefetch!.done()
    const found = await prefetch!.found()
    const machine = Posix.make({ root })
    for (const path of paths) {
      const own = await machine.probe(path)()
      if (E.isRight(own)) expect(found.get(path), path).toStrictEqual(own.right)
      else expect(found.has(path), path).toBe(false)
    }
    expect([...found.keys()].sort()).toStrictEqual(['/', '/srv/alias', '/srv/alias/a.conf', '/srv/d', '/srv/d/a.conf', '/srv/d/a.conf/x', '/srv/d/empty', '/srv/emptydir', '/srv/nope', '/srv/nope/x', '/srv/out'])
    // the symlink out of the root is seen as a link, never followed: nothing read its target
    expect(found.get('/srv/out')).toMatchObject({ _tag: 'Symlink' })
    expect(JSON.stringify([...found.values()])).not.toContain('outside the root')
    expect(Object.isFrozen(found.get('/srv/d/a.conf'))).toBe(true)
  })

  it('gives, when asked, the chunks the worker has posted, without waiting for the rest, and stops the worker', async () => {
    const { root, paths } = await fixture()
    const many = Array.from({ length: 4 * Wire.chunk + 7 }, (_, i) => (i % 5 === 0 ? `/srv/many/f${i}` : paths[i % paths.length]!))
    await fs.mkdir(`${root}/srv/many`)
    for (let i = 0; i < many.length; i += 5) await fs.writeFile(`${root}/srv/many/f${i}`, `${i}`)
    const prefetch = Prefetch.start(root, many, script)!
    // let the worker post a chunk or more (it may also be done, or not have started: either is right)
    await new Promise((resolve) => setTimeout(resolve, 150))
    const found = await prefetch.found()
    const size = found.size
    await prefetch.done()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(found.size).toBe(size)
    const machine = Posix.make({ root })
    for (const [path, probe] of found) {
      const own = await machine.probe(path)()
      expect(own, path).toStrictEqual(E.right(probe))
    }
  })

  it('starts a warm worker that probes nothing and stops when given too few paths, or cancelled', async () => {
    const { root } = await fixture()
    const few = Prefetch.warm(root, script)
    expect(few).toBeDefined()
    expect(few!.probe(['/srv/d/a.conf'])).toBeUndefined()
    const cancelled = Prefetch.warm(root, script)!
    cancelled.cancel()
    const late = cancelled.probe(Array.from({ length: Prefetch.minimumPaths }, () => '/srv/d/a.conf'))
    expect(late === undefined || (await late.found()).size === 0).toBe(true)
  })

  it('finds nothing, and does not throw, when the worker cannot start', async () => {
    const prefetch = Prefetch.start('/', Array.from({ length: Prefetch.minimumPaths }, () => '/'), new URL('file:///nonexistent/prefetchWorker.js'))
    expect(prefetch === undefined || (await prefetch.found()).size === 0).toBe(true)
  })
})

describe('a plan whose every file was probed ahead', () => {
  it('is the plan made without the prefetch, byte for byte, whatever state the files are in', async () => {
    const { root } = await fixture()
    await fs.mkdir(`${root}/srv/many`)
    const me = { uid: process.getuid!(), gid: process.getgid!() }
    const lines = ['ccm:', '  resources:', '    - file:', `        - defaults: {owner: "${me.uid}", group: "${me.gid}", mode: "0644"}`, '        - /srv/many: {ensure: directory, mode: "0755"}']
    for (let i = 0; i < Prefetch.minimumPaths + 50; i++) {
      const p = `/srv/many/f${i}`
      const want = `file ${i}\n`
      const host = root + p
      // unchanged, changed, wrong mode, absent, a directory or a symlink in the way, below a symlink out of the root
      if (i % 7 === 0 || i % 7 === 1) await fs.writeFile(host, want, { mode: 0o644 })
      else if (i % 7 === 2) await fs.writeFile(host, `old ${i}\n`, { mode: 0o644 })
      else if (i % 7 === 3) await fs.writeFile(host, want, { mode: 0o600 }).then(() => fs.chmod(host, 0o600))
      else if (i % 7 === 5) await fs.mkdir(host)
      else if (i % 7 === 6) await fs.symlink('f0', host)
      lines.push(`        - ${i % 50 === 49 ? `/srv/out/f${i}` : p}: {content: ${JSON.stringify(want)}}`)
    }
    const manifest = `${root}/../manifest.yaml`
    await fs.writeFile(manifest, lines.join('\n') + '\n')
    const plain = { ...Posix.make({ root }), prefetch: undefined }
    // a prefetch that waits for the worker to probe every path, so that the first round is answered from it wholly
    let served = 0
    const ahead = {
      ...plain,
      prefetch: () => {
        const warm = Prefetch.warm(root, script)
        return (
          warm && {
            cancel: warm.cancel,
            probe: (paths: ReadonlyArray<string>) => {
              const p = warm.probe(paths)
              return (
                p && {
                  cancel: p.cancel,
                  found: async () => {
                    await p.done()
                    const found = await p.found()
                    served = found.size
                    return found
                  },
                }
              )
            },
          }
        )
      },
    }
    const version = '0.0.0-test'
    const want = await Pipeline.planManifest(manifest, plain, version)
    const got = await Pipeline.planManifest(manifest, ahead, version)
    expect(E.isRight(want)).toBe(true)
    expect(served).toBeGreaterThan(Prefetch.minimumPaths - 100)
    expect(E.isRight(got) && PlanFile.serialize(got.right)).toBe(E.isRight(want) && PlanFile.serialize(want.right))
  }, 60_000)
})

// ---------------------------------------------------------------- the wire

const id = fc.integer({ min: 0, max: 2 ** 32 - 2 })
const entryOf = (kind: 'file' | 'directory' | 'symlink' | 'other') => fc.record({ kind: fc.constant(kind), uid: id, gid: id, mode: fc.integer({ min: 0, max: 0o777 }), size: fc.maxSafeNat() }).map((e) => ({ ...e })) // plain objects, as probes are
const probe: fc.Arbitrary<Probe> = fc.oneof(
  fc.constant<Probe>({ _tag: 'Absent' }),
  fc.record({ entry: entryOf('file'), sha256: fc.stringMatching(/^[0-9a-f]{64}$/) }).map((f): Probe => ({ _tag: 'File', probe: { entry: f.entry, sha256: f.sha256 } })),
  fc.record({ entry: entryOf('directory'), empty: fc.boolean() }).map((d): Probe => ({ _tag: 'Directory', entry: d.entry, empty: d.empty })),
  fc.record({ entry: entryOf('symlink'), target: fc.string() }).map((l): Probe => ({ _tag: 'Symlink', entry: l.entry, target: l.target })),
  entryOf('other').map((entry): Probe => ({ _tag: 'Other', entry })),
)

describe('prefetchWire', () => {
  fcTest.prop([fc.array(fc.option(probe, { nil: undefined }), { maxLength: 30 }), fc.integer({ min: 1, max: 31 })])('unpacks what it packed, chunk by chunk, by path, leaving out the failed probes', (probes, chunk) => {
    const paths = probes.map((_, i) => `/p${i}`)
    const got = new Map<string, Probe>()
    for (let first = 0; first < probes.length; first += chunk) Wire.unpackInto(got, paths, Wire.pack(first, probes.slice(first, first + chunk)))
    expect(Wire.unpack(paths, Wire.pack(0, probes))).toStrictEqual(got)
    expect([...got.keys()]).toStrictEqual(paths.filter((_, i) => probes[i] !== undefined))
    probes.forEach((p, i) => {
      if (p !== undefined) expect(got.get(paths[i]!)).toStrictEqual(p)
    })
    for (const p of got.values()) expect(Object.isFrozen(p)).toBe(true)
  })
})

// ---------------------------------------------------------------- probes.ahead

const enc = new TextEncoder()
const options = fc.oneof(
  fc.constant<ProbeOptions | undefined>(undefined),
  fc.record({ contentUnless: fc.constantFrom('x', 'hash-of-a'), contentLimit: fc.constantFrom(0, 10, 1 << 20) }, { requiredKeys: [] }),
)

describe('Probes.ahead', () => {
  fcTest.prop([fc.array(fc.record({ path: fc.constantFrom('/a', '/b', '/d', '/d/f', '/nope', 'bad'), options }), { maxLength: 8 }), fc.subarray(['/a', '/b', '/d', '/d/f', '/nope'])])(
    "answers every batch as the machine does, whichever paths were probed ahead",
    async (requests, prefetched) => {
      const machine = Memory.make()
      await machine.mkdirp('/d', { uid: 0, gid: 0, mode: 0o755 })()
      await machine.writeFileAtomic('/a', enc.encode('a'), { uid: 0, gid: 0, mode: 0o644 }, '.t')()
      await machine.writeFileAtomic('/d/f', enc.encode('f'), { uid: 1, gid: 1, mode: 0o600 }, '.t')()
      await machine.mkdirp('/b', { uid: 0, gid: 0, mode: 0o700 })()
      const made = new Map<string, Probe>()
      for (const p of prefetched) {
        const r = await machine.probe(p)()
        if (E.isRight(r)) made.set(p, r.right)
      }
      const served = Probes.ahead(machine, async () => made)
      const want = await Promise.all(requests.map((r) => machine.probe(r.path, r.options)()))
      expect(await served.probeAll(requests)()).toStrictEqual(want)
      expect(await served.probeAll(requests)()).toStrictEqual(want)
    },
  )

  it('answers only the first batch from the probes made ahead: later ones look again', async () => {
    const machine = Memory.make()
    await machine.writeFileAtomic('/a', enc.encode('new'), { uid: 0, gid: 0, mode: 0o644 }, '.t')()
    const stale: Probe = { _tag: 'Absent' }
    const served = Probes.ahead(machine, async () => new Map([['/a', stale]]))
    expect(await served.probeAll([{ path: '/a' }])()).toStrictEqual([E.right(stale)])
    const again = await served.probeAll([{ path: '/a' }])()
    expect(E.isRight(again[0]!) && again[0].right._tag).toBe('File')
  })
})

describe('Probes.reusable', () => {
  const file: Probe = { _tag: 'File', probe: { entry: { kind: 'file', uid: 0, gid: 0, mode: 0o644, size: 1 }, sha256: 'h' } }
  it.each([
    ['a file, no content asked', file, undefined, true],
    ['a file whose hash is the one content is asked unless', file, { contentUnless: 'h' }, true],
    ['a file whose content a probe would return', file, { contentUnless: 'other' }, false],
    ['a directory, whatever is asked', { _tag: 'Directory', entry: { kind: 'directory', uid: 0, gid: 0, mode: 0o755, size: 0 }, empty: true } as Probe, { contentUnless: 'x' }, true],
    ['nothing there', { _tag: 'Absent' } as Probe, { contentUnless: 'x' }, true],
  ])('%s: %s', (_, p, o, want) => {
    expect(Probes.reusable(p, o)).toBe(want)
  })
})
