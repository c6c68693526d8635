// History: the generations kept, drawn for people (`plait history`) and as JSON (`--json`) (pure).
import { field as f } from '../core/Terminal.js'
import * as Record from './Record.js'

// model

/** One generation as `plait history --json` lists it. */
export interface Line {
  readonly number: number
  readonly time: string
  readonly plan: string
  readonly manifest: { readonly path: string; readonly sha256: string }
  readonly resources: number
  readonly files: number
  /** Bytes of before-images kept. */
  readonly kept: number
  /** What rolling back past this generation cannot put back: before-images not kept, steps that cannot be undone. */
  readonly cannotRestore: ReadonlyArray<string>
}

// constructors

/** A generation's line: its counts, and what cannot be restored of it. */
export const line = (r: Record.Record): Line => ({
  number: r.number,
  time: r.time,
  plan: r.plan,
  manifest: r.manifest,
  resources: r.resources.length,
  files: r.files.length,
  kept: r.kept,
  cannotRestore: [...Record.unkept(r), ...r.irreversible.map((x) => `${x} (ran; cannot be undone)`)],
})

/**
 * Generation numbers for people, runs of consecutive ones as ranges, in ascending order:
 * `1–4, 7, 9–10`. A prune of thousands is one short line, not thousands of numbers.
 */
export const numbers = (ns: ReadonlyArray<number>): string => {
  const sorted = [...new Set(ns)].sort((a, b) => a - b)
  const runs: string[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    runs.push(j === i ? String(sorted[i]) : j === i + 1 ? `${sorted[i]}, ${sorted[j]}` : `${sorted[i]}–${sorted[j]}`)
    i = j + 1
  }
  return runs.join(', ')
}

// interop

const bytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`)

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`

/** Draws the generations, newest first, and the problems of those that could not be read. */
export const render = (records: ReadonlyArray<Record.Record>, problems: ReadonlyArray<string>): string => {
  const out: string[] = []
  if (records.length === 0) out.push('No generations: an apply that changes something records one.')
  for (const r of [...records].sort((a, b) => b.number - a.number)) {
    const l = line(r)
    out.push(`generation ${l.number}  ${f(l.time)}`)
    out.push(`  plan      ${f(l.plan)}`)
    out.push(`  manifest  ${f(l.manifest.path)} (sha256 ${f(l.manifest.sha256.slice(0, 12))})`)
    out.push(`  changed   ${plural(l.resources, 'resource')}, ${plural(l.files, 'file')} imaged (${bytes(l.kept)} kept)`)
    if (l.cannotRestore.length > 0) {
      out.push('  cannot be restored:')
      for (const c of l.cannotRestore) out.push(`    ${f(c)}`)
    }
    out.push('')
  }
  for (const p of problems) out.push(`warning: ${f(p)}`)
  return out.join('\n').replace(/\n*$/, '\n')
}
