// workdir: the working directory a batch of probes borrows to look a directory's entries up by name
// (workdir.ts). The process's working directory must be where it was after every batch, whatever
// happened in it; a thread that cannot lend it gets the same answers; a way back that fails leaves
// no relative path of the process resolving below a root. Trees are real (temp roots); the system
// calls are seen with strace.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import * as E from 'fp-ts/lib/Either.js'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as Posix from '../../../src/interpreters/posix/posix.js'
import * as Workdir from '../../../src/interpreters/posix/workdir.js'
import { ensureBuilt, repo } from '../../e2e/setup.js'

const tops: string[] = []
const started = process.cwd()
afterEach(() => {
  process.chdir(started)
  for (const t of tops.splice(0)) fs.rmSync(t, { recursive: true, force: true })
})
const tempDir = (): string => {
  const t = fs.realpathSync(fs.mkdtempSync(nodePath.join(os.tmpdir(), 'plait-workdir-')))
  tops.push(t)
  return t
}

/** A root with /many (enough files to be listed and looked up by name), /few, a FIFO and a symlink out. */
const tree = (): { root: string; paths: string[] } => {
  const top = tempDir()
  const root = `${top}/root`
  fs.mkdirSync(`${root}/many`, { recursive: true })
  fs.mkdirSync(`${root}/few`)
  for (let i = 0; i < 20; i++) fs.writeFileSync(`${root}/many/f${i}`, `file ${i}`)
  fs.writeFileSync(`${root}/few/a`, 'a')
  fs.writeFileSync(`${top}/secret`, 'outside')
  fs.symlinkSync('../../secret', `${root}/many/out`)
  fs.symlinkSync('..', `${root}/many/up`)
  spawnSync('mkfifo', [`${root}/many/pipe`])
  const paths = ['/many', '/few/a', '/few/none', '/many/out', '/many/up', '/many/up/few/a', '/many/pipe', '/many/none', ...Array.from({ length: 20 }, (_, i) => `/many/f${i}`)]
  return { root, paths }
}

const tags = (rs: ReadonlyArray<E.Either<{ _tag: string }, { _tag: string }>>): string[] => rs.map((r) => (E.isRight(r) ? r.right._tag : `fault ${r.left._tag}`))

describe('a batch of probes and the working directory', () => {
  it('gives the working directory back where it was, to a relative path too, however the batch went', async () => {
    const { root, paths } = tree()
    // the working directory inside the root itself, where a relative name means a managed file
    process.chdir(`${root}/few`)
    const answers = await Posix.make({ root }).probeAll(paths.map((path) => ({ path })))()
    expect(tags(answers)).toStrictEqual(['Directory', 'File', 'Absent', 'Symlink', 'Symlink', 'File', 'Other', 'Absent', ...Array.from({ length: 20 }, () => 'File')])
    expect(process.cwd()).toBe(`${root}/few`)
    expect(fs.readFileSync('a', 'utf8')).toBe('a')
    // a batch whose every path fails (a parent that is a file) gives it back too
    const failed = await Posix.make({ root }).probeAll(Array.from({ length: 6 }, (_, i) => ({ path: `/few/a/x${i}` })))()
    expect(tags(failed)).toStrictEqual(Array.from({ length: 6 }, () => 'Absent'))
    expect(process.cwd()).toBe(`${root}/few`)
  })

  it('gives back the very directory it borrowed, renamed meanwhile or not', async () => {
    const { root, paths } = tree()
    const top = tempDir()
    fs.mkdirSync(`${top}/here`)
    process.chdir(`${top}/here`)
    fs.renameSync(`${top}/here`, `${top}/moved`)
    await Posix.make({ root }).probeAll(paths.map((path) => ({ path })))()
    expect(process.cwd()).toBe(`${top}/moved`)
  })

  describe('in a thread that cannot lend it (a worker)', () => {
    beforeAll(() => ensureBuilt())

    it('answers as the main thread does, through the handles', async () => {
      const { root, paths } = tree()
      const main = tags(await Posix.make({ root }).probeAll(paths.map((path) => ({ path })))())
      const script = `import { parentPort, workerData } from 'node:worker_threads'
const P = await import(workerData.module)
const r = await P.make({ root: workerData.root }).probeAll(workerData.paths.map((path) => ({ path })))()
parentPort.postMessage(r.map((x) => (x._tag === 'Right' ? x.right._tag : 'fault ' + x.left._tag)))`
      const file = nodePath.join(tempDir(), 'worker.mjs')
      fs.writeFileSync(file, script)
      const inWorker = await new Promise<unknown>((resolve, reject) => {
        const w = new Worker(file, { workerData: { module: pathToFileURL(nodePath.join(repo, 'dist/interpreters/posix/posix.js')).href, root, paths } })
        w.once('message', resolve)
        w.once('error', reject)
      })
      expect(inWorker).toStrictEqual(main)
    })
  })

  it('moves into each directory by its handle and opens its files by name alone, then back (strace)', () => {
    ensureBuilt()
    const { root } = tree()
    const script = nodePath.join(tempDir(), 'batch.mjs')
    const paths = Array.from({ length: 20 }, (_, i) => ({ path: `/many/f${i}` }))
    fs.writeFileSync(
      script,
      `import * as P from ${JSON.stringify(nodePath.join(repo, 'dist/interpreters/posix/posix.js'))}
const r = await P.make({ root: ${JSON.stringify(root)} }).probeAll(${JSON.stringify(paths)})()
if (r.some((x) => x._tag !== 'Right' || x.right._tag !== 'File')) process.exit(3)
`,
    )
    const r = spawnSync('strace', ['-f', '-e', 'trace=chdir,fchdir,openat', process.execPath, script], { encoding: 'utf8', cwd: os.tmpdir() })
    expect(r.status, r.stderr).toBe(0)
    const lines = r.stderr.split('\n')
    const chdirs = lines.filter((l) => /\bchdir\(/.test(l)).map((l) => /chdir\("([^"]*)"\)/.exec(l)![1]!)
    // the way back tried once, then into /many's handle and back
    expect(chdirs).toHaveLength(3)
    for (const c of chdirs) expect(c).toMatch(/^\/proc\/(self|\d+)\/fd\/\d+$/)
    expect(chdirs[2]).toBe(chdirs[0])
    const opens = lines.filter((l) => /openat\(.*"[^"]*f\d+"/.test(l))
    expect(opens).toHaveLength(20)
    for (const o of opens) expect(o).toMatch(/openat\(AT_FDCWD, "\.\/f\d+", O_RDONLY\|O_NONBLOCK\|O_NOFOLLOW/)
  })
})

describe('Workdir.lend', () => {
  /** A working directory that records where it is sent, refusing what `refuse` says. */
  const recording = (refuse: (path: string, n: number) => boolean, cwd: () => string = () => '/home/user') => {
    const calls: string[] = []
    const dir: Workdir.Chdir = {
      chdir: (path) => {
        calls.push(path)
        if (refuse(path, calls.length)) throw Object.assign(new Error('refused'), { code: 'EACCES' })
      },
      cwd,
    }
    return { calls, dir }
  }
  const at = (fd: number): string => `/proc/self/fd/${fd}`

  it('lends nothing where the working directory cannot be named or entered again, and never tries again', () => {
    const unnamed = recording(() => false, () => {
      throw Object.assign(new Error('gone'), { code: 'ENOENT' })
    })
    const a = Workdir.lend(at, unnamed.dir)
    expect(a.enter(5)).toBe(false)
    expect(unnamed.calls).toStrictEqual([])
    // the way back (the first chdir) refused: the directory is never left
    const stuck = recording((_, n) => n === 1)
    const b = Workdir.lend(at, stuck.dir)
    expect(b.enter(5)).toBe(false)
    expect(b.enter(5)).toBe(false)
    expect(stuck.calls).toHaveLength(1)
    b.close()
  })

  it('goes back by the handle, else by the path, else to / with a failure that names the directory', () => {
    const byPath = recording((path, n) => n === 3 && path.startsWith('/proc/'))
    const a = Workdir.lend(at, byPath.dir)
    expect(a.enter(5)).toBe(true)
    a.leave()
    expect(byPath.calls.slice(1)).toStrictEqual([at(5), byPath.calls[0], '/home/user'])
    // and lends nothing more
    expect(a.enter(5)).toBe(false)
    a.close()
    const lost = recording((path, n) => n >= 3 && path !== '/')
    const b = Workdir.lend(at, lost.dir)
    expect(b.enter(5)).toBe(true)
    expect(() => b.leave()).toThrow(expect.objectContaining({ code: 'EACCES', description: expect.stringContaining('/home/user could not be entered again') }))
    expect(lost.calls.at(-1)).toBe('/')
    b.close()
  })
})
