// Info: a plugin's answer to `info` (holo-plugin-interface(7), "The info operation"): key=value
// lines (a line without "=" is ignored, the last of a repeated key counts), of which
// MIN_API_VERSION and MAX_API_VERSION are required positive integers whose interval must hold the
// host's API version.
import * as E from 'fp-ts/lib/Either.js'

// model

export interface Info {
  /** Every key=value pair, in the order printed. */
  readonly pairs: ReadonlyArray<readonly [string, string]>
  readonly min: number
  readonly max: number
}

/** The most `info` may print (bytes). */
export const maxOutput = 64 * 1024

// interop

/** Reads `info` output of plugin `id` against the host's API version; the error names the plugin. */
export const parse = (id: string, stdout: string, apiVersion: number): E.Either<string, Info> => {
  if (stdout.length > maxOutput) return E.left(`plugin holo-${id}: info printed more than ${maxOutput} bytes`)
  const pairs: (readonly [string, string])[] = []
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf('=')
    if (eq === -1) continue
    pairs.push(Object.freeze([line.slice(0, eq), line.slice(eq + 1)] as const))
  }
  const get = (key: string): string | undefined => pairs.filter(([k]) => k === key).pop()?.[1]
  const version = (key: string): E.Either<string, number> => {
    const v = get(key)
    if (v === undefined) return E.left(`plugin holo-${id}: info did not report ${key}`)
    if (!/^[0-9]{1,9}$/.test(v) || Number(v) < 1) return E.left(`plugin holo-${id}: info reported ${key}=${JSON.stringify(v)}, which is not a positive integer`)
    return E.right(Number(v))
  }
  const min = version('MIN_API_VERSION')
  if (E.isLeft(min)) return min
  const max = version('MAX_API_VERSION')
  if (E.isLeft(max)) return max
  if (min.right > max.right) return E.left(`plugin holo-${id}: info reported MIN_API_VERSION=${min.right} above MAX_API_VERSION=${max.right}`)
  if (min.right > apiVersion || max.right < apiVersion)
    return E.left(`plugin holo-${id} is incompatible with this host (plugin min: ${min.right}, plugin max: ${max.right}, plait: ${apiVersion})`)
  return E.right(Object.freeze({ pairs: Object.freeze(pairs), min: min.right, max: max.right }))
}
