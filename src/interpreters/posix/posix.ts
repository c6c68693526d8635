// posix: the real machine, through node:fs/promises, optionally confined below a root directory.
//
// The primitives live in probe.ts, write.ts and tree.ts and throw; this module wires them into a
// Machine and is the one place where what they throw becomes a Fault value (module "posix", op the
// primitive, subject the machine path).
import { readFileSync } from 'node:fs'
import * as fs from 'node:fs/promises'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Fault } from '../../core/Fault.js'
import * as Errno from '../Errno.js'
import type { Accounts, Machine } from '../Machine.js'
import * as AccountsParser from './accounts.js'
import * as Confine from './confine.js'
import * as Observe from './probe.js'
import * as Proc from './proc.js'
import * as AttrsOps from './attrs.js'
import * as Tree from './tree.js'
import * as Write from './write.js'

// model

export interface Options {
  /** The host directory every machine path is confined below; "/" (the default) for none. */
  readonly root?: string
  /** passwd and group text to use instead of the host's /etc/passwd and /etc/group (tests). */
  readonly accounts?: { readonly passwd: string; readonly group: string }
}

// constructors

/** Runs a throwing primitive and returns what it throws as a Fault. */
const run =
  <A>(op: string, subject: string, body: () => Promise<A>): TE.TaskEither<Fault, A> =>
  async () => {
    try {
      return E.right(await body())
    } catch (e) {
      return E.left(Errno.toFault('posix', op, String(subject), e))
    }
  }

/** Reads the host's user and group database (never the root's: ids are the host kernel's). */
const readAccounts = async (options: Options): Promise<Accounts> => {
  if (options.accounts !== undefined) return AccountsParser.parse(options.accounts.passwd, options.accounts.group)
  // read synchronously: two small files, which through the thread pool cost a round trip each on every plan
  const [passwd, group] = [readFileSync('/etc/passwd', 'utf8'), readFileSync('/etc/group', 'utf8')]
  return AccountsParser.parse(passwd, group)
}

/** Reads field 22 of /proc/PID/stat; null when there is no such process. */
const readProcessStart = async (pid: number): Promise<string | null> => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null
  let text: string
  try {
    text = await fs.readFile(`/proc/${pid}/stat`, 'utf8')
  } catch (e) {
    const code = Errno.codeOf(e)
    if (code === 'ENOENT' || code === 'ESRCH') return null
    throw e
  }
  const start = Proc.startTime(text)
  if (E.isLeft(start)) throw Errno.failure('EPROTO', `unreadable /proc/${pid}/stat: ${start.left.description}`)
  return start.right
}

/** The real machine, confined below `options.root` when given. */
export const make = (options: Options = {}): Machine => {
  const confine = Confine.make(options.root)
  let accounts: Promise<E.Either<Fault, Accounts>> | undefined
  return Object.freeze({
    name: 'posix',
    root: confine.root,
    probe: (path, probeOptions) => run('probe', path, () => Observe.probe(confine, path, probeOptions)),
    probeAll: (requests) => async () => Observe.probeAll(confine, requests).map((r, i) => (r.ok ? E.right(r.probe) : E.left(Errno.toFault('posix', 'probe', requests[i]!.path, r.error)))),
    accounts: () => () => {
      accounts ??= run('accounts', '/etc/passwd', () => readAccounts(options))().then((r) => {
        if (E.isLeft(r)) accounts = undefined
        return r
      })
      return accounts
    },
    readFile: (path) => run('readFile', path, () => Observe.readFile(confine, path)),
    readdir: (path) => run('readdir', path, () => Observe.readdir(confine, path)),
    writeFileAtomic: (path, data, attrs, tempName) =>
      run('writeFileAtomic', path, () => Write.writeFileAtomic(confine, path, data, attrs, tempName)),
    writeTemp: (path, data, attrs, tempName) => run('writeFileAtomic', path, () => Write.writeTemp(confine, path, data, attrs, tempName)),
    renameTemp: (path, tempName) => run('writeFileAtomic', path, () => Write.renameTemp(confine, path, tempName)),
    syncDirectory: (path) => run('syncDirectory', path, () => Write.syncDirectory(confine, path)),
    mkdirp: (path, attrs) => run('mkdirp', path, () => AttrsOps.mkdirp(confine, path, attrs)),
    setAttrs: (path, attrs) => run('setAttrs', path, () => AttrsOps.setAttrs(confine, path, attrs)),
    remove: (path, removeOptions) => run('remove', path, () => Tree.remove(confine, path, removeOptions.recursive)),
    rename: (from, to) => run('rename', from, () => Tree.rename(confine, from, to)),
    copy: (from, to) => run('copy', from, () => Tree.copy(confine, from, to)),
    createExclusive: (path, data) => run('createExclusive', path, () => Write.createExclusive(confine, path, data)),
    append: (path, data, appendOptions) => run('append', path, () => Write.append(confine, path, data, Write.durable, appendOptions?.sync !== false)),
    hold: () => confine.hold(),
    pid: () => process.pid,
    processStart: (pid) => run('processStart', `/proc/${pid}/stat`, () => readProcessStart(pid)),
  } satisfies Machine)
}
