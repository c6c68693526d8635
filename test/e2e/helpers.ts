// helpers: run the built plait binary against temporary roots, and look at what it left there.
import { spawn, type ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import * as fsp from 'node:fs/promises'
import * as os from 'node:os'
import * as path from 'node:path'
import { binary, repo } from './setup.js'

export { binary, repo }
export { ensureBuilt } from './setup.js'

export interface Run {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly cwd?: string
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Run under this umask (through /bin/sh), to prove modes do not depend on it. */
  readonly umask?: number
  /** Run with at most this many open files (`ulimit -n`, through /bin/sh). */
  readonly openFiles?: number
}

/** The environment plait runs in under test: the runner's, without the knobs under test (unless `env` sets them), plus `env`. */
export const runEnv = (env?: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> => {
  const out: Record<string, string | undefined> = { ...process.env, ...env }
  for (const k of ['PLAIT_CRASH_AT_STEP', 'PLAIT_STATE_DIR', 'PLAIT_DEBUG', 'FORCE_COLOR', 'NO_COLOR']) if (!(env !== undefined && k in env)) delete out[k]
  return out
}

/** Collects a started process's exit and whatever it writes to the pipes it was given (a stream it was not given reads as ''). */
export const collected = (child: ChildProcess): Promise<Run> =>
  new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })

/** Runs `node dist/bin/plait.js ...args` (the bundled command, as it ships) and collects its exit and output. */
export const plait = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Run> => {
  const argv = [process.execPath, binary, ...args]
  const limits = [...(options.umask === undefined ? [] : [`umask ${options.umask.toString(8).padStart(3, '0')}`]), ...(options.openFiles === undefined ? [] : [`ulimit -n ${options.openFiles}`])]
  const [cmd, ...rest] = limits.length === 0 ? argv : ['/bin/sh', '-c', `${limits.join(' && ')} && exec "$@"`, 'sh', ...argv]
  return collected(spawn(cmd!, rest, { cwd: options.cwd ?? repo, env: runEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] }))
}

/** Renders a run for assertion messages. */
export const show = (r: Run): string => `exit ${r.code} signal ${r.signal}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`

/** A stack frame line of a JavaScript stack trace. */
export const stackFrame = /^\s{4}at /m

const made: string[] = []

/** A fresh temporary directory (removed by `cleanup`). */
export const tempDir = (prefix = 'plait-e2e-'): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(d)
  return d
}

/** Removes every temporary directory made so far. */
export const cleanup = async (): Promise<void> => {
  const all = made.splice(0)
  await Promise.all(all.map((d) => fsp.rm(d, { recursive: true, force: true })))
}

/** A machine root and, beside it (not inside), a host directory for manifests and plans. */
export interface Sandbox {
  readonly root: string
  readonly host: string
  /** The host path of a machine path. */
  readonly at: (machinePath: string) => string
  /** Writes a manifest into the host directory and returns its path. */
  readonly manifest: (text: string, name?: string) => string
}

export const sandbox = (): Sandbox => {
  const base = tempDir()
  const root = path.join(base, 'root')
  const host = path.join(base, 'host')
  fs.mkdirSync(root)
  fs.mkdirSync(host)
  return {
    root,
    host,
    at: (p) => path.join(root, p),
    manifest: (text, name = 'manifest.yaml') => {
      const f = path.join(host, name)
      fs.writeFileSync(f, text)
      return f
    },
  }
}

/** What the file tree below a directory looks like: one entry per path, by relative path. */
export type Tree = Record<string, { kind: string; mode: string; uid: number; gid: number; data?: string; target?: string }>

const octal = (m: number): string => '0' + (m & 0o7777).toString(8).padStart(3, '0')

/** Snapshots a tree (lstat, never following links); `exclude` skips relative paths at or below them. */
export const snapshot = (dir: string, exclude: ReadonlyArray<string> = []): Tree => {
  const out: Tree = {}
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`
      if (exclude.some((x) => r === x || r.startsWith(x + '/'))) continue
      const full = path.join(dir, r)
      const st = fs.lstatSync(full)
      const base = { mode: octal(st.mode), uid: st.uid, gid: st.gid }
      if (st.isDirectory()) {
        out[r + '/'] = { kind: 'dir', ...base }
        walk(r)
      } else if (st.isFile()) out[r] = { kind: 'file', ...base, data: fs.readFileSync(full).toString('base64') }
      else if (st.isSymbolicLink()) out[r] = { kind: 'link', ...base, target: fs.readlinkSync(full) }
      else out[r] = { kind: 'other', ...base }
    }
  }
  walk('')
  return out
}

/** The state directory below a root, relative to it (the default /var/lib/plait). */
export const stateRel = 'var/lib/plait'

/** A file's permission bits as four octal digits ("0644"). */
export const modeOf = (p: string): string => octal(fs.lstatSync(p).mode)

/** A file's content as text, or undefined when it does not exist. */
export const read = (p: string): string | undefined => {
  try {
    return fs.readFileSync(p, 'utf8')
  } catch {
    return undefined
  }
}

export const exists = (p: string): boolean => {
  try {
    fs.lstatSync(p)
    return true
  } catch {
    return false
  }
}

/** Writes a file with an exact mode (chmod after the write, so umask does not apply); creates parents. */
export const put = (p: string, data: string, mode = 0o644, owner?: { uid: number; gid: number }): void => {
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, data)
  fs.chmodSync(p, mode)
  if (owner !== undefined) fs.chownSync(p, owner.uid, owner.gid)
}

/** All paths below a directory whose base name matches a pattern (e.g. stray temp files). */
export const findNames = (dir: string, pattern: RegExp): string[] => {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name)
      if (pattern.test(e.name)) out.push(full)
      if (e.isDirectory()) walk(full)
    }
  }
  walk(dir)
  return out
}

/** Field 22 (start time) of /proc/PID/stat. */
export const processStart = (pid: number): string => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]!
}

/** The first user and group of the host database other than root, for owner tests (uid, gid, names). */
export const otherAccount = (): { user: string; uid: number; group: string; gid: number } | undefined => {
  const pick = (file: string): { name: string; id: number } | undefined => {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const [name, , id] = line.split(':')
      if (name !== undefined && id !== undefined && /^[0-9]+$/.test(id) && Number(id) !== 0 && /^[a-z_][a-z0-9_-]*$/.test(name)) return { name, id: Number(id) }
    }
    return undefined
  }
  const u = pick('/etc/passwd')
  const g = pick('/etc/group')
  return u === undefined || g === undefined ? undefined : { user: u.name, uid: u.id, group: g.name, gid: g.id }
}

/** Changes bytes inside one step's inline content of a plan file, leaving every other byte as it was (valid JSON). */
export const tamper = (planText: string, from: string, to: string): string => {
  const plan = JSON.parse(planText) as { resources: Array<{ steps: Array<{ content?: { data: string } }> }> }
  for (const r of plan.resources) {
    for (const s of r.steps) {
      if (s.content !== undefined && s.content.data.includes(from)) {
        const before = JSON.stringify(s.content.data)
        const after = JSON.stringify(s.content.data.replace(from, to))
        const at = planText.indexOf(`"data": ${before}`)
        if (at < 0) throw new Error('tamper: content not found in the plan text')
        const out = planText.slice(0, at) + `"data": ${after}` + planText.slice(at + `"data": ${before}`.length)
        JSON.parse(out)
        return out
      }
    }
  }
  throw new Error(`tamper: no step content contains ${JSON.stringify(from)}`)
}
