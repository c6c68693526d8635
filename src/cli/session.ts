// session: `plait session new` and `plait session report`, and the session store that `plait ensure`
// records its outcomes in ($PLAIT_SESSION_STORE, a private directory), so that `--require` and
// `--subscribe` work across the commands of a shell script (docs/ensure.md).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Terminal from '../core/Terminal.js'
import * as SessionRecord from '../ensure/SessionRecord.js'
import * as Streams from './streams.js'

/** The environment variable naming the session directory. */
export const variable = 'PLAIT_SESSION_STORE'

/** The session directory of this process, if one is set. */
export const storeOf = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const v = env[variable]
  return v === undefined || v === '' ? undefined : v
}

/** Why a directory cannot be a session store (undefined: it can). */
const unfit = (dir: string): string | undefined => {
  if (!nodePath.isAbsolute(dir)) return `${variable}=${dir}: not an absolute path`
  let st: fs.Stats
  try {
    st = fs.lstatSync(dir)
  } catch {
    return `${variable}=${dir}: no such directory (make one with: eval "$(plait session new)")`
  }
  if (!st.isDirectory()) return `${variable}=${dir}: not a directory`
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${variable}=${dir}: owned by another user`
  if ((st.mode & 0o022) !== 0) return `${variable}=${dir}: writable by others (mode ${(st.mode & 0o777).toString(8)}); a session directory is private`
  return undefined
}

/** The records of a session, or why they cannot be read. */
export const read = (dir: string): E.Either<string, ReadonlyArray<SessionRecord.SessionRecord>> => {
  const bad = unfit(dir)
  if (bad !== undefined) return E.left(bad)
  const file = nodePath.join(dir, SessionRecord.fileName)
  let text: string
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    try {
      if (fs.fstatSync(fd).size > SessionRecord.maxBytes) return E.left(`${file}: larger than ${SessionRecord.maxBytes} bytes`)
      text = fs.readFileSync(fd, 'utf8')
    } finally {
      fs.closeSync(fd)
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return E.right([])
    return E.left(`${file}: ${(e as Error).message}`)
  }
  return E.mapLeft((why: string) => `${file} is damaged: ${why}`)(SessionRecord.decode(text))
}

/**
 * The records of a session when a command needs them (`--require`, `--subscribe`); otherwise none,
 * the store checked all the same: a command without links read a long session's whole log for
 * nothing (1.7 s at 150,000 records), and failed once it passed what may be read.
 */
export const readFor = (dir: string, needed: boolean): E.Either<string, ReadonlyArray<SessionRecord.SessionRecord>> => {
  if (needed) return read(dir)
  const bad = unfit(dir)
  return bad !== undefined ? E.left(bad) : E.right([])
}

/** Appends one record to a session (one write of one line, so concurrent commands do not interleave). */
export const record = (dir: string, r: SessionRecord.SessionRecord): E.Either<string, void> => {
  const bad = unfit(dir)
  if (bad !== undefined) return E.left(bad)
  try {
    const fd = fs.openSync(nodePath.join(dir, SessionRecord.fileName), fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, 0o600)
    try {
      fs.writeSync(fd, SessionRecord.encode(r))
    } finally {
      fs.closeSync(fd)
    }
    return E.right(undefined)
  } catch (e) {
    return E.left(`cannot record in the session ${dir}: ${(e as Error).message}`)
  }
}

const fail = (message: string): never => {
  Streams.err(`error: ${Terminal.field(message)}\n`)
  throw new CommanderError(1, 'plait.session', message)
}

/** The session summary as text. */
const render = (dir: string, s: SessionRecord.Summary): string => {
  const lines = s.resources.map((r) => `${r.outcome.padEnd(8)} ${Terminal.field(r.id)}${r.noop ? ' (noop)' : ''}  ${Terminal.field(r.time)}`)
  const c = s.counts
  return [`Session ${Terminal.field(dir)}: ${s.resources.length} resource${s.resources.length === 1 ? '' : 's'}, ${c.changed} changed, ${c.stable} stable, ${c.failed} failed, ${c.skipped} skipped`, ...lines, ''].join('\n')
}

/** Adds `plait session new` and `plait session report` to a program. */
export const register = (program: Command): void => {
  const session = program.command('session').description('sessions of `plait ensure` commands: `--require` and `--subscribe` across commands of a script')
  session
    .command('new')
    .description(`make a session directory and print the line that exports it: eval "$(plait session new)"`)
    .action(() => {
      const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'plait-session-'))
      fs.chmodSync(dir, 0o700)
      // The shell reads this line: the path is quoted for it.
      Streams.out(`export ${variable}='${dir.replace(/'/g, `'\\''`)}'\n`)
    })
  session
    .command('report')
    .description("print the session's summary: each resource's last outcome")
    .option('--remove', 'remove the session directory afterwards')
    .option('--json', 'print the summary as JSON')
    .action((o: { remove?: boolean; json?: boolean }) => {
      const dir = storeOf() ?? fail(`no session: ${variable} is not set (start one with: eval "$(plait session new)")`)
      const records = read(dir)
      if (E.isLeft(records)) return fail(records.left)
      const summary = SessionRecord.summarize(records.right)
      if (o.json === true) Streams.out(Streams.json({ session: dir, ...summary }))
      else Streams.out(render(dir, summary))
      if (o.remove === true) fs.rmSync(dir, { recursive: true, force: true })
      if (summary.counts.failed > 0) throw new CommanderError(1, 'plait.session', 'a resource failed')
    })
}
