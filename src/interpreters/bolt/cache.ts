// cache: the values of references that ask for it (`_cache: {ttl: SECONDS}`, as in Bolt), kept in
// one JSON file of plait's cache directory, keyed by the plugin and its parameters (a digest: the
// parameters themselves are not stored). An entry older than its ttl is a miss and is dropped on
// the next write. A ttl of 0, and a secret plugin's value, are never given to the cache (see
// resolvers.ts). The file is written whole, to a temporary file renamed over it, readable by its
// owner only; a damaged or unreadable file is an empty cache, never an error.
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

/** The cache kept in a file; `now` gives the time in milliseconds. */
export const open = (file: string, now: () => number = Date.now): Cache => {
  const read = async (): Promise<Record<string, Entry>> => {
    try {
      const raw: unknown = JSON.parse(HostFile.readText(file, HostFile.maxInput))
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {}
      return Object.fromEntries(Object.entries(raw).filter(([, e]) => typeof e === 'object' && e !== null && typeof (e as Entry).expires === 'number' && 'value' in e)) as Record<string, Entry>
    } catch {
      return {}
    }
  }
  return {
    get: async (k) => {
      const e = (await read())[k]
      return e !== undefined && e.expires > now() ? { value: e.value } : undefined
    },
    put: async (k, value, ttlSeconds) => {
      const t = now()
      const live = Object.fromEntries(Object.entries(await read()).filter(([, e]) => e.expires > t))
      live[k] = { value, expires: t + ttlSeconds * 1000 }
      const tmp = `${file}.${process.pid}.tmp`
      try {
        await fs.mkdir(nodePath.dirname(file), { recursive: true, mode: 0o700 })
        await fs.writeFile(tmp, JSON.stringify(live), { mode: 0o600 })
        await fs.rename(tmp, file)
        return E.right(undefined)
      } catch (e) {
        await fs.rm(tmp, { force: true })
        return E.left(`cannot write the plugin cache ${file}: ${(e as Error).message}`)
      }
    },
  }
}
