// Entity: one entity as a plugin's `scan` reported it (holo-plugin-interface(7), "The scan
// operation"): its ID, the action verb and reason that applying it shows, the resource files it
// was read from (SOURCE), and the informational lines in the order printed.

// model

/** An informational `key: value` line of a scan report. */
export interface InfoLine {
  /** Has no ":" and no newline; never ENTITY, SOURCE or ACTION. */
  readonly key: string
  /** Has no newline; not empty. */
  readonly value: string
}

export interface Entity {
  /** The ID of the plugin that reported it. */
  readonly plugin: string
  /** The entity ID (the value of its ENTITY line); unique within its plugin's scan. */
  readonly id: string
  /** The ACTION verb; "Working on" when the report has no ACTION line (as Holo). */
  readonly actionVerb: string
  /** The ACTION reason (in parentheses after the verb); "" when there is none. */
  readonly actionReason: string
  /** SOURCE lines: resource files, as a person names them (the physical path, or GENERATOR::FILE for a generated one). */
  readonly sources: ReadonlyArray<string>
  /** The other lines, in order (resource paths in values translated like sources). */
  readonly info: ReadonlyArray<InfoLine>
}

/** The action verb of an entity without an ACTION line. */
export const defaultVerb = 'Working on'

// constructors

/** Builds a frozen entity. */
export const make = (e: Entity): Entity => Object.freeze({ ...e, sources: Object.freeze([...e.sources]), info: Object.freeze(e.info.map((l) => Object.freeze({ ...l }))) })

// guards

/** Every selector that picks this entity (holo(8)): its ID, its plugin's ID, its SOURCE files and, for generated ones, the generator. */
export const selectors = (e: Entity): ReadonlySet<string> => {
  const out = new Set<string>([e.id, e.plugin])
  for (const s of e.sources) {
    out.add(s)
    const at = s.indexOf('::')
    if (at !== -1) out.add(s.slice(0, at))
  }
  return out
}

// combinators

/** Orders entity IDs as Holo does (Go's string order: by bytes of UTF-8, that is by code point). */
export const compareIds = (a: string, b: string): number => {
  const x = [...a]
  const y = [...b]
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}
