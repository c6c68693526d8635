// Rollback: what `plait rollback --to N` restores, chosen from the generations kept (pure).
//
// "--to N" means: make the machine's files as they were right after generation N was applied. A
// path that no generation after N changed is as it was then, as far as plait knows; a path that
// one did is restored to the before-image of the FIRST generation after N that changed it (its
// state right before that generation ran, which is its state right after N unless something
// outside plait changed it in between). `--to 0` restores the state before generation 1.
import * as E from 'fp-ts/lib/Either.js'
import type { Catalog } from '../compiler/Catalog.js'
import * as Digest from '../core/Digest.js'
import type { FileSpec } from '../types/file/Spec.js'
import * as Record from './Record.js'

// model

/** A path to put back: the image it gets, and the generation whose record holds it. */
export interface Restore {
  readonly path: string
  /** The resource that changed it in that generation. */
  readonly id: string
  readonly generation: number
  readonly image: Exclude<Record.Image, { _tag: 'Unkept' }>
}

/** What a rollback to a generation restores, and what it cannot (one line for people each). */
export interface Choice {
  readonly to: number
  /** The newest generation: the rollback undoes generations to + 1 .. latest. */
  readonly latest: number
  readonly restore: ReadonlyArray<Restore>
  readonly cannot: ReadonlyArray<string>
  /** Paths whose content now holds a sensitive value (the newest generation wrote one there): their plan shows no diff. */
  readonly secretNow: ReadonlyArray<string>
}

// combinators

/**
 * Chooses the before-images that bring the files back to right after generation `to`, from every
 * generation kept (any order). Refused: a `to` that is not a generation number from 0 to the
 * latest, or a gap among the generations after `to` (pruned: their images are gone). A file's
 * bytes are never chosen (a plan would carry them in clear) when a generation up to `to` wrote a
 * sensitive value there, nor when none changed it and the generation whose before-image it is
 * wrote one over it (what was there before plait may hold one too): `cannot` lists them.
 */
export const choose = (records: ReadonlyArray<Record.Record>, to: number): E.Either<string, Choice> => {
  const sorted = [...records].sort((a, b) => a.number - b.number)
  const latest = sorted.at(-1)?.number ?? 0
  if (latest === 0) return E.left('there are no generations yet: an apply that changes something records one')
  if (!Number.isSafeInteger(to) || to < 0 || to > latest) return E.left(`--to ${to}: choose a generation from 0 to ${latest}`)
  const later = sorted.filter((r) => r.number > to)
  const gap = later.findIndex((r, i) => r.number !== to + 1 + i)
  if (gap !== -1) {
    // the oldest generation reachable: just before the unbroken run of generations that ends at the latest
    let oldest = latest
    for (let i = sorted.length - 1; i > 0 && sorted[i - 1]!.number === sorted[i]!.number - 1; i--) oldest = sorted[i - 1]!.number
    return E.left(`--to ${to}: generation ${to + 1 + gap} is no longer kept, so the files cannot be brought back to generation ${to}; the oldest generation it can go back to is ${oldest - 1}`)
  }
  // what the newest generation up to `to` that changed a path wrote there: sensitive or not (none: plait had not changed it)
  const wrote = new Map<string, boolean>()
  for (const r of sorted) if (r.number <= to) for (const f of r.files) wrote.set(f.path, f.sensitive === true)
  const chosen = new Map<string, Restore>()
  const seen = new Set<string>()
  const cannot: string[] = []
  for (const r of later) {
    for (const f of r.files) {
      if (seen.has(f.path)) continue
      seen.add(f.path)
      if (f.image._tag === 'Unkept') cannot.push(`${f.path}: ${f.image.reason} (generation ${r.number})`)
      else if (f.image._tag === 'File' && wrote.get(f.path) === true) cannot.push(`${f.path}: its content holds a sensitive value, which a plan never carries in clear; apply the manifest of generation ${to} again`)
      else if (f.image._tag === 'File' && wrote.get(f.path) === undefined && f.sensitive === true) cannot.push(`${f.path}: its content from before plait changed it may hold a sensitive value (generation ${r.number} wrote one over it), which a plan never carries in clear; put it back by hand`)
      else chosen.set(f.path, { path: f.path, id: f.id, generation: r.number, image: f.image })
    }
    for (const x of r.irreversible) cannot.push(`${x}: ran in generation ${r.number} and cannot be undone`)
  }
  const now = new Map<string, boolean>()
  for (const r of sorted) for (const f of r.files) now.set(f.path, f.sensitive === true)
  const secretNow = [...chosen.keys()].filter((p) => now.get(p) === true).sort(byPath)
  return E.right({ to, latest, restore: order([...chosen.values()]), cannot, secretNow })
}

/** The ids of a rollback's resources whose path now holds a sensitive value: their plan's digests of what is there are keyed (planfile/Keyed.ts). */
export const carriers = (choice: Choice): ReadonlySet<string> => new Set(choice.secretNow.map(idOf))

/** The id of the file resource that restores a path. */
export const idOf = (path: string): string => `file#${path}`

const depth = (p: string): number => p.split('/').length

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The order a rollback's resources run in: what is to be there first, parents before children;
 * then what is to be gone, children before parents.
 */
export const order = (rs: ReadonlyArray<Restore>): ReadonlyArray<Restore> => {
  const present = rs.filter((r) => r.image._tag !== 'Absent').sort((a, b) => depth(a.path) - depth(b.path) || byPath(a.path, b.path))
  const absent = rs.filter((r) => r.image._tag === 'Absent').sort((a, b) => depth(b.path) - depth(a.path) || byPath(a.path, b.path))
  return [...present, ...absent]
}

/** The machine path of a generation's directory, given the state directory. */
export const directoryOf = (stateDir: string, generation: number): string => `${stateDir}/generations/${generation}`

/** The machine path of a kept before-image's bytes. */
export const blobOf = (stateDir: string, generation: number, sha256: string): string => `${directoryOf(stateDir, generation)}/${sha256}`

/** The machine path of a generation's record. */
export const recordOf = (stateDir: string, generation: number): string => `${directoryOf(stateDir, generation)}/generation.json`

/** The name a rollback plan gives its "manifest" (plans show it as what they were made from). */
export const label = (to: number): string => `plait rollback --to ${to}`

/**
 * The desired state of a rollback as a catalog of file resources, for the file type's own plan
 * function: a kept file is `ensure: present` with its before-image as its `source` (read from the
 * state directory, by digest), owner, group and mode by number; a directory is `ensure: directory`;
 * an absent path is `ensure: absent` with `force` (nothing was below it at generation `to`).
 */
export const catalog = (choice: Choice, stateDir: string): Catalog => {
  const resources = choice.restore.map((r): FileSpec => {
    const at = { file: recordOf(stateDir, r.generation), line: 1, col: 1 }
    const base = { _tag: 'file' as const, id: idOf(r.path), path: r.path, at, force: false }
    switch (r.image._tag) {
      case 'Absent':
        return { ...base, ensure: 'absent', content: { _tag: 'Unmanaged' }, force: true }
      case 'Directory':
        return { ...base, ensure: 'directory', content: { _tag: 'Unmanaged' }, owner: String(r.image.uid), group: String(r.image.gid), mode: r.image.mode }
      case 'File':
        return {
          ...base,
          ensure: 'present',
          content: { _tag: 'Source', written: `generation ${r.generation}: ${r.image.sha256}`, path: blobOf(stateDir, r.generation, r.image.sha256) },
          owner: String(r.image.uid),
          group: String(r.image.gid),
          mode: r.image.mode,
        }
    }
  })
  return {
    manifest: { file: label(choice.to), sha256: Digest.sha256(Digest.canonical({ to: choice.to, latest: choice.latest, restore: choice.restore })) },
    reads: [],
    files: [],
    links: new Map(),
    warnings: [],
    failOnError: false,
    ...(choice.cannot.length > 0 ? { preMessage: cannotMessage(choice) } : {}),
    resources,
  }
}

/** What a rollback cannot restore, as the message its plan shows before it is applied. */
export const cannotMessage = (choice: Choice): string =>
  [`Rolling back to generation ${choice.to} cannot restore ${choice.cannot.length} thing${choice.cannot.length === 1 ? '' : 's'}:`, ...choice.cannot.map((c) => `  ${c}`)].join('\n')
