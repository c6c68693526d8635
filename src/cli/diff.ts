// diff: `plait diff --from REV --to REV --facts DIR [MANIFEST]`, octocatalog-diff's job: the
// manifest compiled at two git revisions for every host whose facts file is in DIR (offline:
// nothing is observed), the catalogs compared resource by resource, hosts with the same change
// grouped. This module holds the effects: reading the revisions' files from git, the facts files,
// and the worker threads that compile hosts in parallel; the rest is src/review (pure).
import { spawn } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as WorkerThreads from 'node:worker_threads'
import { Command, CommanderError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as FactsFile from '../facts/FactsFile.js'
import * as Value from '../manifest/expr/Value.js'
import type * as Grouping from '../review/Grouping.js'
import type * as HostCompile from '../review/HostCompile.js'
import * as CheckCommand from './check.js'
import * as Colour from './Colour.js'
import * as Markdown from './Markdown.js'
import * as Options from './options.js'
import { readHost } from './pipeline.js'
import * as Render from './render.js'
import * as Streams from './streams.js'

interface Flags {
  readonly from: string
  readonly to: string
  readonly facts: string
  readonly fact?: ReadonlyArray<string>
  readonly hiera?: string
  readonly now?: string
  readonly format?: 'text' | 'json' | 'markdown'
  readonly json?: boolean
  readonly maxBytes?: string
  readonly jobs?: string
}

/** The most bytes of one file of a revision that are read, and of all of them together. */
const fileLimit = 16 * 1024 * 1024
const totalLimit = 256 * 1024 * 1024

/** A problem with the command's inputs: printed, exit 1. */
class Problem extends Error {}

const fail = (message: string, hint?: string): never => {
  throw new Problem(Render.diagnostics([Diagnostic.make('Validation', message, hint !== undefined ? { hint } : {})]))
}

// ---------------------------------------------------------------- git

/** Runs git in a directory and gives its standard output as bytes, or fails with its message. */
const git = (cwd: string, args: ReadonlyArray<string>, input?: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const child = spawn('git', [...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } })
    const out: Buffer[] = []
    let size = 0
    let err = ''
    child.stdout.on('data', (d: Buffer) => {
      size += d.length
      if (size > totalLimit + fileLimit) child.kill()
      else out.push(d)
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d.slice(0, 4096)))
    child.on('error', (e) => reject(new Problem(`error: cannot run git: ${e.message}\n`)))
    child.on('close', (code) => (code === 0 && size <= totalLimit + fileLimit ? resolve(Buffer.concat(out)) : reject(new Problem(`error: git ${args.slice(0, 2).join(' ')} failed: ${err.trim().split('\n')[0] ?? `exit ${code}`}\n`))))
    child.stdin.on('error', () => undefined)
    child.stdin.end(input ?? '')
  })

const text = (b: Buffer): string => b.toString('utf8').trim()

/** The commit a revision names (a branch, a tag, a hash, `HEAD~1`). */
const commitOf = async (top: string, rev: string): Promise<string> => {
  if (rev === '' || rev.startsWith('-') || /[\0\n]/.test(rev)) fail(`revision ${JSON.stringify(rev)}: not a revision name`)
  try {
    return text(await git(top, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]))
  } catch {
    return fail(`revision ${rev}: no such commit in the repository at ${top}`, 'name a branch, a tag or a commit (git rev-parse must know it)')
  }
}

/** Where a path is in its repository: the repository's top and the path relative to it. */
const repoPathOf = async (path: string): Promise<{ readonly top: string; readonly path: string }> => {
  const dir = nodePath.dirname(nodePath.resolve(path))
  const inside = await git(dir, ['rev-parse', '--show-toplevel', '--show-prefix']).catch(() => fail(`${path}: not in a git repository (plait diff compiles revisions of a repository)`))
  const [top, prefix] = inside.toString('utf8').split('\n')
  return { top: top!, path: `${prefix ?? ''}${nodePath.basename(path)}` }
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The files below a directory of a commit (mode, size, path), then their contents through one `git cat-file --batch`. */
const readTree = async (top: string, commit: string, dir: string): Promise<ReadonlyMap<string, HostCompile.File>> => {
  const listing = await git(top, ['ls-tree', '-r', '-z', '-l', '--full-tree', commit, ...(dir === '' ? [] : ['--', dir])])
  const files = new Map<string, HostCompile.File>()
  const wanted: Array<{ readonly path: string; readonly sha: string; readonly size: number }> = []
  let total = 0
  for (const entry of listing.toString('utf8').split('\0')) {
    const m = /^([0-7]+) (\w+) ([0-9a-f]+) +(-|[0-9]+)\t(.*)$/s.exec(entry)
    if (m === null) continue
    const [, mode, type, sha, size, full] = m
    const rel = dir === '' ? full! : full!.slice(dir.length)
    if (type !== 'blob') continue
    if (mode === '120000') files.set(rel, { problem: 'is a symbolic link in the revision (not followed)' })
    else if (Number(size) > fileLimit) files.set(rel, { problem: `is larger than the limit of ${fileLimit} bytes` })
    else {
      total += Number(size)
      if (total > totalLimit) fail(`the files below ${dir === '' ? 'the top' : dir} at ${commit.slice(0, 12)} are larger than ${totalLimit} bytes together`)
      wanted.push({ path: rel, sha: sha!, size: Number(size) })
    }
  }
  if (wanted.length === 0) return files
  const out = await git(top, ['cat-file', '--batch'], Buffer.from(wanted.map((w) => `${w.sha}\n`).join('')))
  let at = 0
  for (const w of wanted) {
    const nl = out.indexOf(0x0a, at)
    const header = out.subarray(at, nl).toString('utf8').split(' ')
    const size = Number(header[2])
    if (header[0] !== w.sha || !Number.isSafeInteger(size)) throw new Problem(`error: git cat-file gave an unexpected answer for ${w.path}\n`)
    const bytes = out.subarray(nl + 1, nl + 1 + size)
    at = nl + 1 + size + 1
    try {
      files.set(w.path, { text: utf8.decode(bytes) })
    } catch {
      files.set(w.path, { problem: 'is not UTF-8 text' })
    }
  }
  return files
}

/** One revision's sources: the manifest's directory at that commit. */
const sourcesAt = async (top: string, commit: string, manifest: { readonly shown: string; readonly repo: string }, hiera: { readonly shown: string; readonly repo: string } | undefined): Promise<HostCompile.Sources> => {
  const dir = manifest.repo.includes('/') ? manifest.repo.slice(0, manifest.repo.lastIndexOf('/') + 1) : ''
  const files = await readTree(top, commit, dir)
  const own = files.get(manifest.repo.slice(dir.length))
  const missing = own === undefined ? `${manifest.shown} does not exist at ${commit.slice(0, 12)}` : 'problem' in own ? `${manifest.shown} ${own.problem} at ${commit.slice(0, 12)}` : undefined
  let hieraText: { readonly file: string; readonly text: string } | undefined
  if (hiera !== undefined) {
    const h = hiera.repo.startsWith(dir) ? files.get(hiera.repo.slice(dir.length)) : await git(top, ['cat-file', 'blob', `${commit}:${hiera.repo}`]).then((b) => ({ text: b.toString('utf8') }), () => undefined)
    if (h === undefined || !('text' in h)) fail(`--hiera ${hiera.shown}: ${h === undefined ? 'does not exist' : h.problem} at ${commit.slice(0, 12)}`)
    hieraText = { file: hiera.shown, text: (h as { readonly text: string }).text }
  }
  return { manifest: manifest.shown, text: own !== undefined && 'text' in own ? own.text : '', files, ...(missing !== undefined ? { missing } : {}), ...(hieraText !== undefined ? { hiera: hieraText } : {}) }
}

// ---------------------------------------------------------------- hosts

interface Host {
  readonly name: string
  readonly file: string
  readonly text: string
}

/** The hosts of a facts directory: each `NAME.json`, `NAME.yaml` or `NAME.yml` in it, by name. */
const hostsOf = async (dir: string): Promise<ReadonlyArray<Host>> => {
  const names = await readdir(dir).catch(() => fail(`--facts ${dir}: not a readable directory`, 'a directory of facts files, one per host, as `plait facts --json` writes them (web01.json)'))
  const hosts = new Map<string, Host>()
  for (const name of names.sort()) {
    if (FactsFile.formatOf(name) === undefined || name.startsWith('.')) continue
    const file = nodePath.join(dir, name)
    if (!(await stat(file).then((s) => s.isFile(), () => false))) continue
    const host = name.replace(/\.(json|ya?ml)$/i, '')
    if (hosts.has(host)) fail(`--facts ${dir}: two facts files for host ${host} (${hosts.get(host)!.file} and ${file})`)
    const bytes = await readHost(file)
    if (E.isLeft(bytes)) fail(`cannot read facts file ${file}: ${bytes.left.description}`)
    let t = ''
    try {
      t = utf8.decode(E.isRight(bytes) ? bytes.right : new Uint8Array())
    } catch {
      fail(`facts file ${file}: not UTF-8 text`)
    }
    hosts.set(host, { name: host, file, text: t })
  }
  if (hosts.size === 0) fail(`--facts ${dir}: no facts files (NAME.json, NAME.yaml or NAME.yml)`)
  return [...hosts.values()]
}

// ---------------------------------------------------------------- parallel compile

/** What every worker gets once: both revisions, read and parsed once here, and the settings of every host's compile. */
interface Job {
  readonly from: HostCompile.Prepared
  readonly to: HostCompile.Prepared
  readonly setting: HostCompile.Setting & { readonly assignments: ReadonlyArray<string>; readonly labels: { readonly from: string; readonly to: string } }
}

type ToWorker = { readonly host: Host } | { readonly done: true }
type FromWorker = { readonly ready: true } | { readonly outcome: Grouping.Outcome } | { readonly error: string }

/** A compiler of hosts for a job (its revisions already parsed: a worker gets the parsed trees as data). */
const compilerOf = async (job: Job): Promise<(h: Host) => Grouping.Outcome> => {
  const HC = await import('../review/HostCompile.js')
  return (h) => HC.outcome(h, job.from, job.to, job.setting)
}

/** Compiles every host, on up to `jobs` worker threads (none for one host or one job), each outcome given to `take` as it comes (none kept here). */
const compileAll = async (job: Job, hosts: ReadonlyArray<Host>, jobs: number, take: (o: Grouping.Outcome) => void): Promise<void> => {
  const n = Math.min(jobs, hosts.length)
  const script = process.argv[1]
  if (n <= 1 || script === undefined) {
    const compile = await compilerOf(job)
    for (const h of hosts) take(compile(h))
    return
  }
  let taken = 0
  let next = 0
  const workers: WorkerThreads.Worker[] = []
  try {
    await new Promise<void>((resolve, reject) => {
      for (let i = 0; i < n; i++) {
        const w = new WorkerThreads.Worker(script, { argv: [workerCommand], workerData: job, stdout: false, stderr: false })
        workers.push(w)
        let done = false
        const feed = (): void => {
          const msg: ToWorker = next < hosts.length ? { host: hosts[next++]! } : { done: true }
          done = 'done' in msg
          w.postMessage(msg)
        }
        w.on('message', (m: FromWorker) => {
          if ('error' in m) return reject(new Error(m.error))
          if ('outcome' in m) {
            take(m.outcome)
            if (++taken === hosts.length) resolve()
          }
          feed()
        })
        w.on('error', reject)
        w.on('exit', (code) => {
          // A worker ends when told it is done; before that, whatever its exit code, its hosts are lost.
          if (!done || code !== 0) reject(new Error(`a diff worker exited with ${code} before its work was done`))
        })
      }
    })
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

/** The hidden command a worker thread runs: compile the hosts the parent sends until it says done. */
const workerCommand = 'diff-worker'

const runWorker = async (): Promise<void> => {
  const port = WorkerThreads.parentPort
  if (port === null || WorkerThreads.isMainThread) {
    Streams.err('error: plait diff-worker runs only on the worker threads of plait diff\n')
    throw new CommanderError(1, 'plait.diff', 'not a worker thread')
  }
  const compile = await compilerOf(WorkerThreads.workerData as Job)
  await new Promise<void>((resolve) => {
    port!.on('message', (m: ToWorker) => {
      if ('done' in m) {
        port!.close()
        resolve()
      } else {
        let answer: FromWorker
        try {
          answer = { outcome: compile(m.host) }
        } catch (e) {
          answer = { error: `compiling host ${m.host.name}: ${(e as Error).message}` }
        }
        port!.postMessage(answer)
      }
    })
    port!.postMessage({ ready: true } satisfies FromWorker)
  })
}

// ---------------------------------------------------------------- the command

const maxBytesOf = (v: string | undefined, format: string): number => {
  if (v === undefined) return Markdown.defaultMaxBytes
  if (format !== 'markdown') fail('--max-bytes applies to --format markdown only')
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < Markdown.minimumBytes || n > 2 ** 30) {
    fail(`--max-bytes ${v}: expected a whole number of bytes from ${Markdown.minimumBytes} to ${2 ** 30}`, `${Markdown.defaultMaxBytes} fits a pull-request comment, 1048576 a job summary`)
  }
  return n
}

const jobsOf = (v: string | undefined): number => {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length
  if (v === undefined) return cores
  const n = /^[0-9]{1,4}$/.test(v) ? Number(v) : NaN
  if (!(n >= 1 && n <= cores)) fail(`--jobs ${v}: expected a whole number from 1 to ${cores} (the cores available)`)
  return n
}

const run = async (manifestArg: string | undefined, o: Flags): Promise<number> => {
  if (o.json === true && o.format !== undefined && o.format !== 'json') fail(`--json and --format ${o.format} ask for two formats; give one`)
  const format = o.json === true ? 'json' : (o.format ?? 'text')
  const maxBytes = maxBytesOf(o.maxBytes, format)
  const jobs = jobsOf(o.jobs)
  const manifest = manifestArg ?? 'manifest.yaml'
  const now = o.now ?? Value.isoTime(Value.time(Date.now())!)
  if (Value.time(now) === undefined) fail(`--now ${now}: not an RFC 3339 time`, 'for example --now 2026-11-23T10:00:00Z')
  const where = await repoPathOf(manifest)
  const hiera = o.hiera === undefined ? undefined : await repoPathOf(o.hiera)
  if (hiera !== undefined && hiera.top !== where.top) fail(`--hiera ${o.hiera}: not in the manifest's repository`)
  const [from, to] = [await commitOf(where.top, o.from), await commitOf(where.top, o.to)]
  const hosts = await hostsOf(o.facts)
  const at = async (commit: string) => sourcesAt(where.top, commit, { shown: manifest, repo: where.path }, hiera === undefined ? undefined : { shown: o.hiera!, repo: hiera.path })
  const HC = await import('../review/HostCompile.js')
  const job: Job = {
    from: HC.prepare(await at(from!)),
    to: HC.prepare(await at(to!)),
    setting: { baseDir: nodePath.dirname(nodePath.resolve(manifest)), now, assignments: o.fact ?? [], labels: { from: o.from, to: o.to } },
  }
  const Grouping = await import('../review/Grouping.js')
  // grouped as they come: a host's difference is dropped unless it is the first of its group
  const grouper = Grouping.grouper()
  await compileAll(job, hosts, jobs, grouper.add)
  const Report = await import('../review/Report.js')
  const report = { manifest, from: { rev: o.from, commit: from! }, to: { rev: o.to, commit: to! }, grouped: grouper.grouped() }
  if (format === 'json') Streams.out(Streams.json(Report.json(report)))
  else if (format === 'markdown') Streams.out((await import('../review/Markdown.js')).render(report, maxBytes))
  else Streams.out((await import('../review/Text.js')).render(report), Colour.comparison)
  return Report.exitCode(report)
}

/** Adds `plait diff` (and the hidden command of its worker threads) to a program. */
export const register = (program: Command): void => {
  program
    .command('diff')
    .description('compile the manifest at two git revisions for every host of a facts directory (offline) and show what changes, hosts with the same change grouped; exit 0 no change, 2 changes, 1 error')
    .argument('[manifest]', 'the manifest, in a git repository (default: manifest.yaml)')
    .requiredOption('--from <rev>', 'the revision before (a branch, tag or commit)')
    .option('--to <rev>', 'the revision after', 'HEAD')
    .requiredOption('--facts <dir>', 'a directory of facts files, one per host (NAME.json or NAME.yaml, as `plait facts --json` prints them)')
    .addOption(Options.fact('set a fact for every host, repeatable; a dotted key builds maps'))
    .addOption(Options.hiera('a data document in the repository, read at each revision'))
    .addOption(Options.now("the time now() gives at both revisions (RFC 3339; default: the clock's, once)"))
    .addOption(new Option('--format <format>', 'text, json or markdown (a pull-request comment)').choices(['text', 'json', 'markdown']))
    .option('--json', 'print the report as JSON (the same as --format json)')
    .option('--max-bytes <n>', `with --format markdown: the most bytes to print (default ${Markdown.defaultMaxBytes}, a pull-request comment)`)
    .option('--jobs <n>', 'compile on at most N threads (default: every core available)')
    .action(async (manifest: string | undefined, o: Flags) => {
      let code: number
      try {
        code = await run(manifest, o)
      } catch (e) {
        if (!(e instanceof Problem)) throw e
        Streams.err(e.message)
        code = 1
      }
      // main passes `plait check`'s exit code through as it is: 0, 1 or 2 here.
      if (code !== 0) throw new CommanderError(code, CheckCommand.exitCode, `exit ${code}`)
    })
  program.command(workerCommand, { hidden: true }).action(runWorker)
}
