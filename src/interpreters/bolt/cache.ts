// cache: the values of references that ask for it (`_cache: {ttl: SECONDS}`, as in Bolt), kept in
// one file of plait's cache directory, keyed by the plugin and its parameters (a digest: the
// parameters themselves are not stored). An entry older than its ttl is a miss. A ttl of 0, and a
// secret plugin's value, are never given to the cache (see resolvers.ts). The file is read once
// per run; each value kept is one line appended to it (JSON: key, value, expiry), the last line of
// a key winning, so that keeping R values costs R short writes, where rewriting the whole file for
// each cost R² (2,000 references took 66 s). A file holding more dead lines than live ones (expired
// or overwritten entries), or in the earlier form of one JSON object, is rewritten whole, to a
// temporary file renamed over it, at the run's first write. It is readable by its owner only; a
// damaged or unreadable file, or line, is an empty cache, never an error.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as HostFile from '../posix/hostFile.js'
import * as E from 'fp-ts/lib/Either.js'
import * as Digest from '../../core/Digest.js'

// model

interface Entry {
  readonly value: unknown
  /** When it expires, in milliseconds since the epoch. */
  readonly expires: number
}

export interface Cache {
  /** The cached value of a key, or undefined (none, or expired). */
  readonly get: (key: string) => Promise<{ readonly value: unknown } | undefined>
  /** Keeps a value for ttl seconds. */
  readonly put: (key: string, value: unknown, ttlSeconds: number) => Promise<E.Either<string, void>>
}

/** The file of a user's cache: $XDG_CACHE_HOME/plait/bolt-plugin-cache.json (default ~/.cache). */
export const defaultFile = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  nodePath.join(env['XDG_CACHE_HOME'] ?? nodePath.join(env['HOME'] ?? os.homedir(), '.cache'), 'plait', 'bolt-plugin-cache.json')

/** The longest ttl accepted (a year, in seconds). */
export const maxTtl = 365 * 24 * 3600

// constructors

/** The key of a reference: its plugin and its parameters (the caller gives every key but `_cache`: `_` metaparameters too, as they may change what it gives). */
export const key = (plugin: string, params: Readonly<Record<string, unknown>>): string => Digest.ofValue({ plugin, params })

/** The ttl a reference's `_cache` asks for, or why it is not one: `{ttl: N}` with N whole seconds from 0 to a year. */
export const ttlOf = (cache: unknown): E.Either<string, number> => {
  const ttl = typeof cache === 'object' && cache !== null && !Array.isArray(cache) ? (cache as Record<string, unknown>)['ttl'] : undefined
  const extra = typeof cache === 'object' && cache !== null && !Array.isArray(cache) ? Object.keys(cache).filter((k) => k !== 'ttl') : []
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > maxTtl || extra.length > 0) {
    return E.left(`_cache must be {ttl: SECONDS}, a whole number from 0 to ${maxTtl}, not ${JSON.stringify(cache)?.slice(0, 100) ?? 'undefined'}`)
  }
  return E.right(ttl)
}

/** A line of the file: a key, its value and when it expires. */
const lineOf = (key: string, e: Entry): string => `${JSON.stringify({ key, value: e.value, expires: e.expires })}\n`

const isEntry = (e: unknown): e is Entry => typeof e === 'object' && e !== null && typeof (e as Entry).expires === 'number' && 'value' in e

/**
 * The entries of a cache file's text, each key's last, and how many lines it has: lines of
 * `{key, value, expires}`, a line that is not one skipped; or the earlier form, one JSON object of
 * entries by key (`lines` is then undefined: it is to be rewritten).
 */
export const parse = (text: string): { readonly entries: Map<string, Entry>; readonly lines: number | undefined } => {
  const entries = new Map<string, Entry>()
  const trimmed = text.trimStart()
  if (trimmed.startsWith('{') && !trimmed.startsWith('{"key":')) {
    try {
      const raw: unknown = JSON.parse(text)
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) for (const [k, e] of Object.entries(raw)) if (isEntry(e)) entries.set(k, { value: e.value, expires: e.expires })
      return { entries, lines: undefined }
    } catch {
      // not the earlier form: read as lines
    }
  }
  let lines = 0
  for (const line of text.split('\n')) {
    if (line === '') continue
    lines++
    try {
      const r = JSON.parse(line) as { readonly key?: unknown }
      if (typeof r === 'object' && r !== null && typeof r.key === 'string' && isEntry(r)) entries.set(r.key, { value: r.value, expires: r.expires })
    } catch {
      // a damaged line (a write cut short) is skipped
    }
  }
  return { entries, lines }
}

/** The cache kept in a file; `now` gives the time in milliseconds. */
export const open = (file: string, now: () => number = Date.now): Cache => {
  // read once, when first asked: the entries, and whether the file is to be rewritten whole at the first write
  let state: Promise<{ readonly entries: Map<string, Entry>; rewrite: boolean; cut: boolean }> | undefined
  const read = () =>
    (state ??= (async () => {
      try {
        const text = HostFile.readText(file, HostFile.maxInput)
        const { entries, lines } = parse(text)
        const t = now()
        const live = [...entries.values()].filter((e) => e.expires > t).length
        // a last line cut short (a write that did not finish) is ended before the next is appended
        return { entries, rewrite: lines === undefined || lines > 2 * live + 64, cut: text !== '' && !text.endsWith('\n') }
      } catch {
        // missing, unreadable, too large or not a file: an empty cache, which the first write replaces
        return { entries: new Map<string, Entry>(), rewrite: true, cut: false }
      }
    })())
  return {
    get: async (k) => {
      const e = (await read()).entries.get(k)
      return e !== undefined && e.expires > now() ? { value: e.value } : undefined
    },
    put: async (k, value, ttlSeconds) => {
      const s = await read()
      const t = now()
      const entry = { value, expires: t + ttlSeconds * 1000 }
      s.entries.set(k, entry)
      const tmp = `${file}.${process.pid}.tmp`
      try {
        await fs.mkdir(nodePath.dirname(file), { recursive: true, mode: 0o700 })
        if (!s.rewrite) {
          await fs.appendFile(file, `${s.cut ? '\n' : ''}${lineOf(k, entry)}`, { mode: 0o600 })
          s.cut = false
        } else {
          // dead lines, the earlier form, or a file that could not be read: the live entries, whole
          let text = ''
          for (const [key, e] of s.entries) if (e.expires > t) text += lineOf(key, e)
          await fs.writeFile(tmp, text, { mode: 0o600 })
          await fs.rename(tmp, file)
          s.rewrite = false
        }
        return E.right(undefined)
      } catch (e) {
        await fs.rm(tmp, { force: true })
        return E.left(`cannot write the plugin cache ${file}: ${(e as Error).message}`)
      }
    },
  }
}
