// Shape: what the compiler can produce, checked on a decoded plan. The codec checks types; these
// checks refuse a plan whose values no compile could give (a rehashed forgery, a hand edit):
// duplicate resource ids, paths that are not clean and absolute, modes beyond 07777, ids outside
// what the kernel accepts, NUL bytes in commands. Each problem names its JSON path.
import * as PosixPath from '../core/PosixPath.js'
import type * as Plan from '../core/Plan.js'

/** The largest user or group id (2^32-2; 2^32-1 is the kernel's "no id"). */
const maxId = 2 ** 32 - 2

const cleanPath = (p: string): boolean => PosixPath.isCleanAbsolute(p) && !p.includes('\0')

/** The problems of a decoded plan, each `json.path: what is wrong`; empty when the compiler could have made it. */
export const problems = (plan: Plan.Body): ReadonlyArray<string> => {
  const out: string[] = []
  const seen = new Map<string, number>()
  plan.resources.forEach((r, i) => {
    const at = `resources[${i}]`
    const first = seen.get(r.id)
    if (first !== undefined) out.push(`${at}.id: duplicate id "${r.id}" (also resources[${first}])`)
    else seen.set(r.id, i)
    r.steps.forEach((s, j) => {
      const here = `${at}.steps[${j}]`
      const step = s as unknown as { [k: string]: unknown }
      if (typeof step['path'] === 'string' && s._tag.startsWith('file.') && !cleanPath(step['path'])) out.push(`${here}.path: "${step['path']}" is not a clean absolute path`)
      if (typeof step['mode'] === 'string' && !/^[0-7]{4}$/.test(step['mode'])) out.push(`${here}.mode: "${step['mode']}" is not a mode from 0000 to 7777`)
      for (const k of ['owner', 'group'] as const) {
        const p = step[k] as { id?: unknown } | undefined
        if (p !== undefined && !(typeof p.id === 'number' && Number.isInteger(p.id) && p.id >= 0 && p.id <= maxId)) out.push(`${here}.${k}.id: ${String(p.id)} is not an id from 0 to ${maxId}`)
      }
      const commands = [step['command'], ...Object.values((step['guards'] as Record<string, unknown> | undefined) ?? {})]
      for (const c of commands) {
        if (c === null || typeof c !== 'object') continue
        const cmd = c as { argv?: unknown; environment?: unknown; cwd?: unknown; timeoutMs?: unknown }
        const words = [...(Array.isArray(cmd.argv) ? cmd.argv : []), ...(Array.isArray(cmd.environment) ? cmd.environment : [])]
        if (words.some((w) => typeof w === 'string' && w.includes('\0'))) out.push(`${here}: a command holds a NUL byte`)
        if (typeof cmd.cwd === 'string' && !cleanPath(cmd.cwd)) out.push(`${here}: the working directory "${cmd.cwd}" is not a clean absolute path`)
        if (typeof cmd.timeoutMs === 'number' && !(cmd.timeoutMs > 0)) out.push(`${here}: the timeout ${cmd.timeoutMs} ms is not positive`)
      }
    })
  })
  return out
}
