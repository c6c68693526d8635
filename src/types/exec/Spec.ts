// Spec: the exec resource's properties, decoded and validated from a manifest entry (CCM's exec
// type with its posix and shell providers, and its validation table).
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import * as PosixPath from '../../core/PosixPath.js'
import { render as renderAt, type Position } from '../../core/Position.js'
import * as ResourceId from '../../core/ResourceId.js'
import * as Fields from '../Fields.js'
import { renderValue, type RawResource, type Scope } from '../../manifest/Manifest.js'
import * as Node from '../../manifest/Node.js'
import type * as Deferred from '../../core/Deferred.js'
import * as Deferral from '../Deferral.js'
import * as ShellWords from './ShellWords.js'
import * as Append from '../../core/Append.js'

// model

/** posix: the command is split into words and run directly; shell: `/bin/sh -c COMMAND`. */
export type Provider = 'posix' | 'shell'

export interface ExecSpec {
  readonly _tag: 'exec'
  readonly id: string
  readonly name: string
  readonly at: Position
  readonly provider: Provider
  /** The command (the name when `command` is not given). */
  readonly command: string
  /** A machine path; the command runs there. */
  readonly cwd?: string
  /** `KEY=value` entries added to the command's environment. */
  readonly environment: ReadonlyArray<string>
  /** The PATH the command (and its guards) run with: absolute directories, ':'-separated. */
  readonly path?: string
  /** Exit codes that mean success. */
  readonly returns: ReadonlyArray<number>
  readonly timeoutMs: number
  /** A machine path: when it exists, the command does not run. */
  readonly creates?: string
  /** A guard: the command runs only when it exits 0. */
  readonly onlyif?: string
  /** A guard: the command runs only when it exits non-zero. */
  readonly unless?: string
  readonly refreshOnly: boolean
  /** Report the command's output lines. */
  readonly logoutput: boolean
  /** Properties that read a file an earlier resource manages: worked out at apply (their values above are placeholders). */
  readonly deferred?: Deferred.DeferredExec
}

/** Properties the exec type accepts (`refresh_only` and `refreshonly` are the same). */
export const keys = ['command', 'ensure', 'cwd', 'environment', 'path', 'returns', 'timeout', 'creates', 'onlyif', 'unless', 'refreshonly', 'refresh_only', 'logoutput', 'provider'] as const

/** The timeout of a command that sets none (Puppet's exec default; CCM sets none). */
export const defaultTimeoutMs = 300_000

// decoding

const day = 86_400_000
const units: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: day, D: day, w: 7 * day, W: 7 * day, M: 30 * day, y: 365 * day, Y: 365 * day }

/**
 * A duration as CCM's parser (fisk.ParseDuration) reads it, in milliseconds: Go's units (`30s`,
 * `5m`, `1h30m`, `1.5s`, `250ms`) and days (`d`, `D`), weeks (`w`, `W`, 7 days), months (`M`, 30
 * days) and years (`y`, `Y`, 365 days), as in `1d`, `1w2d`, `1.5w`; fractions are kept (`1ns` is
 * 0.000001). Undefined when it is not one, not positive, or longer than Go allows (about 292 years).
 */
export const parseDuration = (text: string): number | undefined => {
  const segment = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h|d|D|w|W|M|y|Y)/y
  let at = 0
  let total = 0
  if (text === '') return undefined
  while (at < text.length) {
    segment.lastIndex = at
    const m = segment.exec(text)
    if (m === null) return undefined
    total += Number(m[1]) * units[m[2]!]!
    at = segment.lastIndex
  }
  return total > 0 && total <= maxDurationMs ? total : undefined
}

/** The longest duration Go's time.ParseDuration accepts (2^63-1 ns), in milliseconds. */
export const maxDurationMs = 9_223_372_036_854 + 0.775807

/**
 * Why a command line cannot be used by the provider, if it cannot. Both providers check its quoting
 * as CCM does (go-shellquote: balanced quotes, no trailing backslash), the shell provider too,
 * although it hands the line to /bin/sh whole; an empty line is the provider's CCM message.
 */
export const commandProblem = (provider: Provider, line: string): string | undefined => {
  const empty = provider === 'shell' ? 'no command to execute' : 'no command specified'
  if (line.trim() === '') return empty
  if (line.includes('\0')) return 'the command contains a NUL byte'
  const words = ShellWords.split(line)
  return E.isLeft(words) ? words.left : words.right.length === 0 ? empty : undefined
}

/** Why a guard (`onlyif`, `unless`) cannot be used by the provider, if it cannot: CCM's guard messages. */
export const guardProblem = (provider: Provider, line: string): string | undefined => {
  const why = commandProblem(provider, line)
  return why === 'no command specified' || why === 'no command to execute' ? 'empty guard command' : why
}

/** Decodes and validates an exec resource. */
export const decode = (raw: RawResource, scope: Scope, baseDir = '/', deferral?: Deferral.Deferral): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ExecSpec> => {
  const id = ResourceId.make('exec', raw.name)
  const { problems, fail, str, bool } = Fields.make(id, scope)
  const strings = (e: Node.Entry): ReadonlyArray<{ value: string; at: Position }> | undefined => {
    if (e.value._tag !== 'Seq') {
      fail('Decode', `${e.key} must be a list of strings, found ${Node.describe(e.value)}`, e.value.at)
      return undefined
    }
    const out: { value: string; at: Position }[] = []
    for (const item of e.value.items) {
      const v = str({ ...e, value: item })
      if (v !== undefined) out.push({ value: v, at: item.at })
    }
    return out
  }
  const absolute = (e: Node.Entry, what: string): string | undefined => {
    const v = str(e)
    if (v === undefined) return undefined
    if (!PosixPath.isCleanAbsolute(v) || v.includes('\0')) {
      fail('Validation', `${what} must be an absolute, clean path${v.includes('\0') ? ' without NUL bytes' : ''}: "${v}"`, e.value.at)
      return undefined
    }
    return v
  }
  // A property whose template reads a file an earlier resource manages waits for apply.
  const probes = new Map<string, Deferral.Probed>()
  const templates: Record<string, string | string[]> = {}
  const waits = (e: Node.Entry): boolean => {
    const p = Deferral.probe(e.value, scope, baseDir, deferral)
    if (p === undefined) return false
    probes.set(e.key, p)
    templates[e.key] = p.template
    return true
  }
  let provider: Provider = 'posix'
  let providerAt = raw.nameAt
  let command: { value: string; at: Position } | undefined
  let cwd: string | undefined
  let environment: ReadonlyArray<string> = []
  let path: string | undefined
  let returns: ReadonlyArray<number> = [0]
  let timeoutMs = defaultTimeoutMs
  let creates: string | undefined
  const guards: { onlyif?: { value: string; at: Position }; unless?: { value: string; at: Position } } = {}
  let refreshOnly = false
  let refreshKey: string | undefined
  let logoutput = false
  for (const e of raw.props) {
    switch (e.key) {
      case 'provider': {
        const v = str(e)
        if (v === 'posix' || v === 'shell') {
          provider = v
          providerAt = e.value.at
        } else if (v !== undefined) fail('Validation', `unknown exec provider "${v}"`, e.value.at, 'exec providers: posix (the default), shell')
        break
      }
      case 'ensure': {
        // CCM's schema takes present (the default) and absent, and its exec type never reads the
        // value (an exec's state is always "present"): either way the command is planned alike.
        const v = str(e)
        if (v !== undefined && v !== 'present' && v !== 'absent') fail('Validation', `ensure must be one of present, absent; got "${v}"`, e.value.at, 'an exec ignores ensure, as CCM does: leave it out')
        break
      }
      case 'command': {
        if (waits(e)) {
          command = { value: '/bin/true', at: e.value.at }
          break
        }
        const v = str(e)
        if (v !== undefined) command = { value: v, at: e.value.at }
        break
      }
      case 'cwd':
        if (!waits(e)) cwd = absolute(e, 'cwd')
        break
      case 'creates':
        if (!waits(e)) creates = absolute(e, 'creates')
        else creates = '/'
        break
      case 'onlyif':
      case 'unless': {
        if (waits(e)) {
          guards[e.key] = { value: '/bin/true', at: e.value.at }
          break
        }
        const v = str(e)
        if (v !== undefined) guards[e.key] = { value: v, at: e.value.at }
        break
      }
      case 'environment': {
        if (e.value._tag === 'Seq') {
          const probed = e.value.items.map((item) => Deferral.probe(item, scope, baseDir, deferral))
          if (probed.some((p) => p !== undefined)) {
            probed.forEach((p, i) => p !== undefined && probes.set(`environment[${i}]`, p))
            templates['environment'] = e.value.items.map((item) => (item._tag === 'Scalar' ? item.text : ''))
            break
          }
        }
        const items = strings(e)
        if (items === undefined) break
        for (const item of items) {
          const eq = item.value.indexOf('=')
          if (eq <= 0 || eq === item.value.length - 1) fail('Validation', `environment entry "${item.value}" must be KEY=VALUE with a non-empty key and value`, item.at)
          else if (item.value.includes('\0')) fail('Validation', `environment entry "${item.value.slice(0, eq)}" contains a NUL byte`, item.at)
        }
        environment = items.map((i) => i.value)
        break
      }
      case 'path': {
        const v = str(e)
        if (v === undefined) break
        const bad = v.split(':').filter((d) => !d.startsWith('/'))
        if (v.includes('\0')) fail('Validation', 'path contains a NUL byte', e.value.at)
        else if (v === '' || bad.length > 0) fail('Validation', `path must be absolute directories separated by ':'${bad.length > 0 ? `; "${bad[0]}" is not absolute` : ''}`, e.value.at)
        else path = v
        break
      }
      case 'returns': {
        const local: Diagnostic.Diagnostic[] = []
        const v = renderValue(e.value, scope, local)
        Append.append(problems, local.map(Diagnostic.withResource(id)))
        const list = typeof v === 'number' ? [v] : v
        if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 255)) {
          if (local.length === 0) fail('Validation', `returns must be a list of exit codes (integers 0 to 255), found ${Node.describe(e.value)}`, e.value.at)
        } else returns = list as number[]
        break
      }
      case 'timeout': {
        const v = str(e)
        if (v === undefined) break
        const ms = parseDuration(v)
        if (ms === undefined) fail('Validation', `timeout "${v}" is not a positive duration`, e.value.at, 'for example 30s, 5m or 1h30m')
        else timeoutMs = ms
        break
      }
      case 'refreshonly':
      case 'refresh_only': {
        const v = bool(e)
        if (refreshKey !== undefined) fail('Validation', `refresh_only is given twice (as ${refreshKey} and ${e.key})`, e.keyAt)
        refreshKey = e.key
        if (v !== undefined) refreshOnly = v
        break
      }
      case 'logoutput': {
        const v = bool(e)
        if (v !== undefined) logoutput = v
        break
      }
      default:
        fail('UnknownKey', `unknown property "${e.key}" for an exec resource`, e.keyAt, `allowed: ${keys.join(', ')}`)
    }
  }
  const line = command?.value ?? raw.name
  const problem = commandProblem(provider, line)
  if (problem !== undefined) fail('Validation', `${command === undefined ? 'the name, used as the command,' : 'command'} cannot be run: ${problem}`, command?.at ?? raw.nameAt)
  for (const k of ['onlyif', 'unless'] as const) {
    const g = guards[k]
    const why = g === undefined ? undefined : guardProblem(provider, g.value)
    if (g !== undefined && why !== undefined) fail('Validation', `${k} guard cannot be run: ${why}`, g.at)
  }
  if (problems.length > 0) return E.left(problems)
  void providerAt
  const deferred: Deferred.DeferredExec | undefined =
    probes.size === 0 || deferral === undefined
      ? undefined
      : {
          at: renderAt([...probes.values()][0]!.at),
          after: [...new Set([...probes.values()].flatMap((p) => [...p.managed.values()].map((m) => m.id)))],
          managed: Object.fromEntries([...probes.values()].flatMap((p) => [...p.managed].map(([rel, m]) => [rel, m.path]))),
          snapshot: deferral.snapshot(Deferral.mergeReads([...probes.values()].map((p) => p.reads))),
          templates,
        }
  return E.right({
    _tag: 'exec',
    id,
    name: raw.name,
    at: raw.nameAt,
    provider,
    command: line,
    environment,
    returns,
    timeoutMs,
    refreshOnly,
    logoutput,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(creates !== undefined ? { creates } : {}),
    ...(guards.onlyif !== undefined ? { onlyif: guards.onlyif.value } : {}),
    ...(guards.unless !== undefined ? { unless: guards.unless.value } : {}),
    ...(deferred !== undefined ? { deferred } : {}),
  })
}
