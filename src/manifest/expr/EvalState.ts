// EvalState: the record one evaluation keeps as it runs (Evaluate.ts): the values and files it read
// and whether it read the clock, its depth and steps against the budget, and the elements of the
// predicates it is inside. Mutable, and never seen outside an evaluation.
import type * as Ccm from './Ccm.js'
import type { Env, Read, Reads, Root } from './Env.js'
import type * as Value from './Value.js'

export interface Ref {
  readonly root: Root
  readonly path: ReadonlyArray<string>
}

/** An intermediate result: the value, where it came from (not yet recorded), and whether `?.` cut the chain. */
export interface R {
  readonly value: Value.Value
  readonly ref?: Ref
  readonly shorted?: boolean
}

/** The mutable record of one evaluation; it never leaves Evaluate. */
export class State implements Ccm.Recorder {
  /**
   * The values read, by a key of root and path: the first alone (most evaluations, a template's
   * `{{ Data.x }}`, read one), a map made at the second distinct one. A map per state was a fifth
   * of what rendering a template allocated, in code that runs once per value (never optimized).
   */
  private firstKey: string | undefined
  private firstRead: Read | undefined
  private reads: Map<string, Read> | undefined
  /** The files read, made at the first (most evaluations read none). */
  private files: Set<string> | undefined
  private clock = false
  depth = 0
  /** Nodes evaluated so far (see Budget.maxSteps). */
  steps = 0
  /** Work done so far (see Budget.maxWork). */
  work = 0
  /** The elements the enclosing predicates are at, innermost last (what `#`, `#index`, `#acc` read). */
  readonly scopes: Array<{ readonly item: Value.Value; readonly index: number; readonly acc?: Value.Value }> = []

  constructor(readonly env: Env) {}

  // Methods, not arrow functions in fields: a template renders its holes with a State each, and
  // every caller calls them on the state (Ccm.Recorder), so no closures need making per State.
  record(ref: Ref): void {
    const key = `${ref.root}\u0000${ref.path.join('\u0000')}`
    if (this.firstKey === undefined || key === this.firstKey) {
      // the same key again replaces what it holds, as a map's set would
      this.firstKey = key
      this.firstRead = { root: ref.root, path: ref.path }
    } else {
      this.reads ??= new Map()
      this.reads.set(key, { root: ref.root, path: ref.path })
    }
  }

  readFile(path: string): void {
    this.files ??= new Set()
    this.files.add(path)
  }

  readClock(): void {
    this.clock = true
  }

  /** Records where a value came from and returns the value: it has been used. */
  use(r: R): Value.Value {
    if (r.ref !== undefined) this.record(r.ref)
    return r.value
  }

  result(): Reads {
    // most evaluations read one value and no file: no arrays to sort then
    const values =
      this.firstRead === undefined
        ? []
        : this.reads === undefined
          ? [this.firstRead]
          : [[this.firstKey!, this.firstRead] as const, ...this.reads.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r)
    return { values, files: this.files === undefined ? [] : [...this.files].sort(), clock: this.clock }
  }
}
