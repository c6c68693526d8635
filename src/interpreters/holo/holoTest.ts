// holoTest: runs test cases in holo-test(7)'s layout, as Holo's util/holo-test does, with plait as
// the host. For each case directory: target/ is made afresh from `source-tree` (a dump; a
// `source/` directory is copied instead when there is no dump), with run/, tmp/, the resource
// directory of every plugin holorc names, var/lib/holo/files/{base,provisioned} and
// usr/share/holo/generators; HOLO_ROOT_DIR=./target/ and TMPDIR=./target/tmp are set and
// `env.sh` is sourced (by bash, which only it needs); then `holo scan`, `holo diff`, `holo apply`
// and, when apply's output mentions --force, `holo apply --force` run in the case directory, each
// with stdout and stderr in one file, followed by `exit status N`, colours removed and cache
// directory names (target/tmp/holo.N) made stable. target/ is dumped into `tree`. Each of tree,
// scan-output, diff-output, apply-output and apply-force-output that was made must equal its
// expected-* file; a difference is shown as a unified diff.
import { spawn } from 'node:child_process'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Errno from '../Errno.js'
import type { Sink } from './command.js'
import * as Tree from './protocol/Tree.js'
import * as Files from './tree.js'

// model

export interface Context {
  /** The holo command: program and its first arguments (`node plait.js holo`). */
  readonly holo: ReadonlyArray<string>
  /** The environment the cases start from. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Relative case directories are taken from here. */
  readonly cwd: string
  /** How long one holo run may take (default 10 minutes). */
  readonly timeoutMs?: number
}

/** ANSI colour sequences, which holo-test removes from outputs. */
// eslint-disable-next-line no-control-regex -- matching the escape character is the point
const colours = /\x1b\[[0-9;]*m/gu

/** The outputs compared, in holo-test's order. */
export const outputs = ['tree', 'scan-output', 'diff-output', 'apply-output', 'apply-force-output'] as const

// constructors

/** Runs the cases, reporting each on the sink; true when any failed. */
export const run = async (dirs: ReadonlyArray<string>, ctx: Context, sink: Sink): Promise<boolean> => {
  const failed: string[] = []
  for (const dir of dirs) {
    sink.write(1, `>> Running test case ${dir}...\n`)
    const problems = await runCase(nodePath.resolve(ctx.cwd, dir), ctx, sink)
    if (problems) failed.push(dir)
  }
  sink.write(1, failed.length === 0 ? `>> All ${dirs.length} test case${dirs.length === 1 ? '' : 's'} passed.\n` : `!! ${failed.length} of ${dirs.length} test cases failed: ${failed.join(', ')}\n`)
  return failed.length > 0
}

/** Runs one case; true when it failed. */
const runCase = async (dir: string, ctx: Context, sink: Sink): Promise<boolean> => {
  const fail = (why: string): true => {
    sink.write(2, `!! Cannot run test case ${dir}: ${why}\n`)
    return true
  }
  const isDir = await fs.stat(dir).then((s) => s.isDirectory(), () => false)
  if (!isDir) return fail('testcase not found')
  const target = nodePath.join(dir, 'target')
  await fs.rm(target, { recursive: true, force: true })
  for (const f of outputs) await fs.rm(nodePath.join(dir, f), { force: true })
  const made = await makeTarget(dir, target)
  if (made !== undefined) return fail(made)

  const env = await caseEnv(dir, ctx)
  if (E.isLeft(env)) return fail(env.left)
  const texts = new Map<string, string>()
  for (const [name, args] of [
    ['scan-output', ['scan']],
    ['diff-output', ['diff']],
    ['apply-output', ['apply']],
    ['apply-force-output', ['apply', '--force']],
  ] as const) {
    if (name === 'apply-force-output' && !(texts.get('apply-output') ?? '').includes('--force')) continue
    const ran = await holo(dir, ctx, env.right, args)
    if (E.isLeft(ran)) return fail(ran.left)
    await fs.writeFile(nodePath.join(dir, `colored-${name}`), ran.right)
    const plain = ran.right.replace(colours, '').replace(/target\/tmp\/holo\.[0-9]+/gu, 'target/tmp/holo')
    texts.set(name, plain)
    await fs.writeFile(nodePath.join(dir, name), plain)
  }
  const tree = Tree.print(await Files.read(target))
  texts.set('tree', tree)
  await fs.writeFile(nodePath.join(dir, 'tree'), tree)

  let failed = false
  for (const name of outputs) {
    const actual = texts.get(name)
    if (actual === undefined) continue
    const expected = await fs.readFile(nodePath.join(dir, `expected-${name}`), 'utf8').catch(() => undefined)
    if (expected === actual) continue
    failed = true
    sink.write(1, `!! The ${name} deviates from our expectation. Diff follows:\n`)
    const diff = await unified(dir, `expected-${name}`, name)
    sink.write(1, diff.replace(/^(?=.)/gmu, '    ').replace(/\n?$/u, '\n'))
  }
  return failed
}

/** Makes target/ from source-tree (or source/), with the directories holo-test adds. */
const makeTarget = async (dir: string, target: string): Promise<string | undefined> => {
  const dump = await fs.readFile(nodePath.join(dir, 'source-tree'), 'utf8').catch((e: unknown) => (Errno.codeOf(e) === 'ENOENT' ? undefined : Promise.reject(e)))
  if (dump !== undefined) {
    const entries = Tree.parse(dump)
    if (E.isLeft(entries)) return `source-tree: ${entries.left}`
    const made = await Files.materialize(target, entries.right)
    if (made !== undefined) return `source-tree: ${made}`
  } else if (await fs.stat(nodePath.join(dir, 'source')).then((s) => s.isDirectory(), () => false)) {
    await fs.cp(nodePath.join(dir, 'source'), target, { recursive: true, verbatimSymlinks: true })
  } else {
    return 'it has neither source-tree nor source/'
  }
  const dirs = ['run', 'tmp', 'var/lib/holo/files/base', 'var/lib/holo/files/provisioned', 'usr/share/holo/generators']
  for (const rc of [nodePath.join(target, 'etc/holorc'), ...(await snippets(nodePath.join(target, 'etc/holorc.d')))]) {
    const text = await fs.readFile(rc, 'utf8').catch(() => '')
    // holo-test greps `plugin [^=]\+` anywhere in a line, comments too
    for (const m of text.matchAll(/plugin [^=\n]+/gu)) {
      const id = m[0].slice('plugin '.length).trim()
      if (id !== '') dirs.push(`usr/share/holo/${id}`)
    }
  }
  for (const d of dirs) {
    const path = nodePath.resolve(target, d)
    if (!path.startsWith(target + nodePath.sep)) return `holorc names a plugin ${JSON.stringify(d)} outside the tree`
    await fs.mkdir(path, { recursive: true })
  }
  return undefined
}

const snippets = async (dir: string): Promise<string[]> => (await fs.readdir(dir).catch(() => [] as string[])).sort().map((n) => nodePath.join(dir, n))

/** The environment of the case's holo runs: the given one, HOLO_ROOT_DIR and TMPDIR, then what env.sh exports. */
const caseEnv = async (dir: string, ctx: Context): Promise<E.Either<string, Record<string, string>>> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined) env[k] = v
  env['HOLO_ROOT_DIR'] = './target/'
  env['TMPDIR'] = './target/tmp'
  const has = await fs.stat(nodePath.join(dir, 'env.sh')).then((s) => s.isFile(), () => false)
  if (!has) return E.right(env)
  const out = await collect('bash', ['-c', '. ./env.sh >&2; env -0'], dir, env, ctx.timeoutMs)
  if (E.isLeft(out)) return E.left(`env.sh: ${out.left}`)
  const sourced: Record<string, string> = {}
  for (const pair of out.right.stdout.split('\0')) {
    const eq = pair.indexOf('=')
    if (eq > 0) sourced[pair.slice(0, eq)] = pair.slice(eq + 1)
  }
  return E.right(sourced)
}

/** Runs `holo ARGS` in the case directory, stdout and stderr into one file; its text with `exit status N` after it. */
const holo = async (dir: string, ctx: Context, env: Record<string, string>, args: ReadonlyArray<string>): Promise<E.Either<string, string>> => {
  const outPath = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-holo-test-'))
  const path = nodePath.join(outPath, 'output')
  const handle = await fs.open(path, 'w')
  try {
    const [program, ...first] = ctx.holo
    const code = await new Promise<E.Either<string, number>>((resolve) => {
      const child = spawn(program!, [...first, ...args], { cwd: dir, env, stdio: ['ignore', handle.fd, handle.fd], detached: true })
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          // gone already
        }
        resolve(E.left(`holo ${args.join(' ')} ran longer than ${(ctx.timeoutMs ?? 600000) / 1000} s and was killed`))
      }, ctx.timeoutMs ?? 600000)
      child.once('error', (e) => {
        clearTimeout(timer)
        resolve(E.left(`cannot run ${program}: ${e.message}`))
      })
      child.once('exit', (c, s) => {
        clearTimeout(timer)
        resolve(E.right(c ?? (s !== null ? 128 : 255)))
      })
    })
    if (E.isLeft(code)) return code
    return E.right(`${await fs.readFile(path, 'utf8')}exit status ${code.right}\n`)
  } finally {
    await handle.close()
    await fs.rm(outPath, { recursive: true, force: true })
  }
}

/** `diff -u EXPECTED ACTUAL` in the case directory (a missing expected file is shown by diff itself). */
const unified = async (dir: string, expected: string, actual: string): Promise<string> => {
  const r = await collect('diff', ['-u', expected, actual], dir, { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C' })
  return E.isLeft(r) ? r.left : r.right.stdout + r.right.stderr
}

/** Runs a program to its end; what it printed. */
const collect = (program: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string>, timeoutMs = 600000): Promise<E.Either<string, { stdout: string; stderr: string; code: number | null }>> =>
  new Promise((resolve) => {
    const child = spawn(program, [...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // gone already
      }
    }, timeoutMs)
    child.once('error', (e) => {
      clearTimeout(timer)
      resolve(E.left(`cannot run ${program}: ${e.message}`))
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve(E.right({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code }))
    })
  })
