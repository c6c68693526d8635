// Record: one generation as it is kept in the state directory: what an apply that changed
// something changed, and how the files it changed were right before it (their before-images).
//
// Invariants: `number` counts from 1 and only grows; `files` names each path once, in the order
// the apply first touched it; a `File` image's bytes are kept beside the record, in a file named
// by their sha256 (`size` bytes); `kept` is the sum of the sizes of the distinct images kept, at
// most `budget`; `time` is RFC 3339 UTC and read by the executor (never by pure code).
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import * as Digest from '../core/Digest.js'
import * as PosixPath from '../core/PosixPath.js'
import * as Redact from '../planfile/Redact.js'

// model

/** The format a record file says it is in; a record of another is refused. */
export const formatVersion = 'plait.generation/1'

const Sha256 = new t.Type<string, string, unknown>(
  'Sha256',
  (u): u is string => typeof u === 'string' && /^[0-9a-f]{64}$/.test(u),
  (u, c) => (typeof u === 'string' && /^[0-9a-f]{64}$/.test(u) ? t.success(u) : t.failure(u, c, 'a sha256 is 64 lowercase hex digits')),
  t.identity,
)

const Id = new t.Type<number, number, unknown>(
  'Id',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c, 'a non-negative whole number')),
  t.identity,
)

const MachinePath = new t.Type<string, string, unknown>(
  'MachinePath',
  (u): u is string => typeof u === 'string' && PosixPath.isCleanAbsolute(u) && u !== '/' && !u.includes('\0'),
  (u, c) => (typeof u === 'string' && PosixPath.isCleanAbsolute(u) && u !== '/' && !u.includes('\0') ? t.success(u) : t.failure(u, c, 'a clean absolute path')),
  t.identity,
)

/** How a path was right before the generation changed it. */
export const Image = t.union([
  /** Nothing was there: restoring it removes what is there now. */
  t.type({ _tag: t.literal('Absent') }),
  /** A regular file, its bytes kept by digest. */
  t.type({ _tag: t.literal('File'), sha256: Sha256, size: Id, uid: Id, gid: Id, mode: Id }),
  /** A directory (its attributes; what was in it is imaged path by path, when the apply changed it). */
  t.type({ _tag: t.literal('Directory'), uid: Id, gid: Id, mode: Id }),
  /** Not kept: over the size budget, a symlink, a special file, a removed tree's contents. `reason` says which. */
  t.type({ _tag: t.literal('Unkept'), reason: t.string }),
])
export type Image = t.TypeOf<typeof Image>

/**
 * A path the generation changed, the resource that changed it, and its before-image. `sensitive`:
 * what the generation wrote there holds a sensitive value (its plan carried a redaction marker),
 * so a rollback to this generation never puts those bytes in a plan.
 */
export const Entry = t.intersection([t.type({ path: MachinePath, id: t.string, image: Image }), t.partial({ sensitive: t.boolean })])
export type Entry = t.TypeOf<typeof Entry>

/** A generation: one apply that changed something (the codec is both the value and its file's shape). */
export const Record = t.type({
  format: t.literal(formatVersion),
  number: Id,
  /** When the apply committed (RFC 3339, UTC). */
  time: t.string,
  /** The hash of the plan applied (`sha256:…`). */
  plan: t.string,
  /** The manifest the plan was made from, as the plan's inputs name it. */
  manifest: t.type({ path: t.string, sha256: t.string }),
  /** The root the plan was made for. */
  root: t.string,
  /** The resources the apply changed (and did not roll back), in plan order. */
  resources: t.array(t.string),
  files: t.array(Entry),
  /** Steps that ran and cannot be undone (commands, packages, services, provider updates). */
  irreversible: t.array(t.string),
  /** The bytes of before-images this generation may keep, and the bytes it kept. */
  budget: Id,
  kept: Id,
})
export type Record = t.TypeOf<typeof Record>

// constructors

/** The bytes a generation may keep by default: 64 MiB. */
export const defaultBudget = 64 * 1024 * 1024

// guards

/** True for a generation directory's name: a number from 1, without leading zeros. */
export const isNumberName = (name: string): boolean => /^[1-9][0-9]{0,14}$/.test(name)

// combinators

/** The before-images this generation could not keep, as lines for people ("path: reason"). */
export const unkept = (r: Record): ReadonlyArray<string> => r.files.flatMap((f) => (f.image._tag === 'Unkept' ? [`${f.path}: ${f.image.reason}`] : []))

/**
 * The ids of a plan's resources whose steps carry a sensitive value: a redaction marker (see
 * planfile/Redact), or, in the plan apply runs with its secrets in clear, a string that `redact`
 * changes.
 */
export const sensitive = (resources: ReadonlyArray<{ readonly id: string; readonly steps: ReadonlyArray<unknown> }>, redact: (text: string) => string = (t) => t): ReadonlySet<string> =>
  new Set(resources.flatMap((r) => (holdsSecret(r.steps, redact) ? [r.id] : [])))

/** True when a string anywhere in `v` holds a marker, or is changed by `redact`. */
const holdsSecret = (v: unknown, redact: (text: string) => string): boolean => {
  if (typeof v === 'string') return v.includes(Redact.open) || redact(v) !== v
  if (Array.isArray(v)) return v.some((x) => holdsSecret(x, redact))
  if (typeof v === 'object' && v !== null) return Object.values(v).some((x) => holdsSecret(x, redact))
  return false
}

/** The digests of the bytes a generation keeps beside its record, each once. */
export const blobs = (r: Record): ReadonlyArray<string> => [...new Set(r.files.flatMap((f) => (f.image._tag === 'File' ? [f.image.sha256] : [])))]

// interop

/** Encodes a record as the text of its file (canonical JSON, one trailing newline). */
export const encode = (r: Record): string => JSON.stringify(Digest.sortKeys(r), null, 2) + '\n'

/** Decodes a record file's text, or says why it is not one (`number` is the generation its directory names). */
export const decode = (text: string, number: number): E.Either<string, Record> => {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return E.left('not JSON')
  }
  const format = typeof raw === 'object' && raw !== null ? (raw as { format?: unknown }).format : undefined
  if (format !== formatVersion) return E.left(typeof format === 'string' ? `unknown format ${JSON.stringify(format).slice(0, 60)}; this plait reads ${formatVersion}` : 'not a generation record')
  const d = Record.decode(raw)
  if (E.isLeft(d)) {
    const first = d.left[0]
    // an intersection's members add no step to the path
    const path = first === undefined ? '' : first.context.filter((c, i) => i > 0 && (first.context[i - 1]!.type as { _tag?: string })._tag !== 'IntersectionType' && c.key !== '').map((c) => c.key).join('.')
    return E.left(`malformed record${path === '' ? '' : ` at ${path}`}`)
  }
  if (d.right.number !== number) return E.left(`it says it is generation ${d.right.number}`)
  return E.right(d.right)
}
