// PlanDiff: what changed between an approved plan and a new plan of the same manifest, resource by
// resource, in their planned steps, so a re-plan after review shows only its difference (pure).
import * as E from 'fp-ts/lib/Either.js'
import * as Digest from '../core/Digest.js'
import * as Plan from '../core/Plan.js'
import { field as f } from '../core/Terminal.js'
import * as Append from '../core/Append.js'

// model

/**
 * One resource whose planned steps differ: `Added` (only the new plan has it), `Removed` (only
 * the approved one has it) or `Changed` (both, with different steps or action). `lines` are its
 * steps' differences, escaped: `+ tag: reason` (new), `- tag: reason` (gone), `~ tag: ...`.
 */
export interface Entry {
  readonly _tag: 'Added' | 'Removed' | 'Changed'
  readonly id: string
  /** Where the plan that has it (the new one, unless removed) says it is declared. */
  readonly at: string
  readonly lines: ReadonlyArray<string>
}

/** The comparison of two plans of one manifest and root. */
export interface Comparison {
  readonly manifest: string
  readonly root: string
  readonly approved: string
  readonly current: string
  /** Notes on the inputs: the manifest's digest changed, and so on (escaped). */
  readonly notes: ReadonlyArray<string>
  readonly entries: ReadonlyArray<Entry>
  /** Resources in both plans with the same steps. */
  readonly same: number
}

type Hashed = Plan.Body & { readonly hash: string }

// constructors

/**
 * Compares two plans: refused (a message) when they are not of the same manifest path and root.
 * Entries follow the new plan's order, then the removed ones in the approved plan's order.
 */
export const compare = (approved: Hashed, current: Hashed): E.Either<string, Comparison> => {
  if (approved.inputs.manifest.path !== current.inputs.manifest.path) {
    return E.left(`the plans are of different manifests (${f(approved.inputs.manifest.path)} and ${f(current.inputs.manifest.path)}); --against compares two plans of the same manifest`)
  }
  if (approved.root !== current.root) return E.left(`the plans are for different roots (${f(approved.root)} and ${f(current.root)}); --against compares two plans of the same root`)
  const before = new Map(approved.resources.map((r) => [r.id, r]))
  const after = new Set(current.resources.map((r) => r.id))
  const entries: Entry[] = []
  let same = 0
  for (const r of current.resources) {
    const old = before.get(r.id)
    if (old === undefined) entries.push({ _tag: 'Added', id: r.id, at: r.at, lines: r.steps.map((s) => `+ ${stepLine(s)}`) })
    else {
      const lines = stepChanges(old, r)
      if (lines.length === 0) same += 1
      else entries.push({ _tag: 'Changed', id: r.id, at: r.at, lines })
    }
  }
  for (const r of approved.resources) if (!after.has(r.id)) entries.push({ _tag: 'Removed', id: r.id, at: r.at, lines: r.steps.map((s) => `- ${stepLine(s)}`) })
  const notes = approved.inputs.manifest.sha256 === current.inputs.manifest.sha256 ? [] : [`the manifest changed since the approved plan (${short(approved.inputs.manifest.sha256)} → ${short(current.inputs.manifest.sha256)})`]
  return E.right({ manifest: current.inputs.manifest.path, root: current.root, approved: approved.hash, current: current.hash, notes, entries, same })
}

// guards

/** True when the two plans plan the same steps for the same resources. */
export const isSame = (c: Comparison): boolean => c.entries.length === 0

// combinators

/** The symbol of an entry: `+` added, `-` removed, `~` changed. */
export const symbol = (e: Entry): string => (e._tag === 'Added' ? '+' : e._tag === 'Removed' ? '-' : '~')

/** The summary line of a comparison. */
export const summaryLine = (c: Comparison): string => {
  const n = (tag: Entry['_tag']): number => c.entries.filter((e) => e._tag === tag).length
  return `Changes: ${n('Added')} added, ${n('Removed')} removed, ${n('Changed')} changed, ${c.same} the same.`
}

/** Draws a comparison for a terminal: the two hashes, notes, then one block per entry, then the summary line. */
export const render = (c: Comparison): string => {
  const lines = [`plait plan comparison of ${f(c.manifest)}${c.root === '/' ? '' : ` (root ${f(c.root)})`}`, `  approved: ${f(c.approved)}`, `  new:      ${f(c.current)}`, '']
  for (const n of c.notes) lines.push(`note: ${n}`, '')
  if (isSame(c)) lines.push('No differences: the new plan plans the same steps as the approved one.', '')
  for (const e of c.entries) Append.append(lines, block(e)).push('')
  lines.push(summaryLine(c))
  return lines.join('\n') + '\n'
}

/** The lines of one entry: its symbol, id and what happened, then its step lines indented. */
export const block = (e: Entry): ReadonlyArray<string> => {
  const what = e._tag === 'Added' ? ' (only in the new plan)' : e._tag === 'Removed' ? ' (only in the approved plan)' : ''
  return [`${symbol(e)} ${f(e.id)}${what}`, ...e.lines.map((l) => `    ${l}`)]
}

// ---------------------------------------------------------------- steps

const stepLine = (s: Plan.Step): string => `${f(s._tag)}: ${f(s.reason)}`

const short = (sha: string): string => f(sha.replace(/^sha256:/, '').slice(0, 12))

/**
 * The differences of two plans of one resource: the action when it changed, then steps only one
 * has (by their whole value), a step of the same tag on both sides paired as `~`.
 */
const stepChanges = (old: Plan.ResourcePlan, now: Plan.ResourcePlan): ReadonlyArray<string> => {
  const key = (s: Plan.Step): string => Digest.canonical(s)
  const oldKeys = old.steps.map(key)
  const nowKeys = now.steps.map(key)
  const gone = old.steps.filter((_, i) => !nowKeys.includes(oldKeys[i]!))
  const made = now.steps.filter((_, i) => !oldKeys.includes(nowKeys[i]!))
  const skip = old.skipped !== now.skipped ? [`skipped: ${f(old.skipped ?? '(not skipped)')} → ${f(now.skipped ?? '(not skipped)')}`] : []
  const action = old.action !== now.action ? [`action: ${old.action} → ${now.action}`] : []
  const lines: string[] = [...action, ...skip]
  const paired = new Set<Plan.Step>()
  for (const g of gone) {
    const m = made.find((x) => x._tag === g._tag && !paired.has(x))
    if (m === undefined) lines.push(`- ${stepLine(g)}`)
    else {
      paired.add(m)
      lines.push(g.reason === m.reason ? `~ ${stepLine(m)} (its details differ)` : `~ ${f(m._tag)}: ${f(g.reason)} → ${f(m.reason)}`)
    }
  }
  for (const m of made) if (!paired.has(m)) lines.push(`+ ${stepLine(m)}`)
  return lines
}
