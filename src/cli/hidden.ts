// hidden: what the commands that never save a plan (compile, check) print, with the sensitive
// values of the run's references shown as `[sensitive]`. A value is hidden in the data first
// (`deep`), before anything is cut short or escaped to be shown, and the printed text is hidden
// again (`text`): every form a secret takes there (its lines, trimmed, escaped as JSON or for a
// terminal, both), and what is left of one where a text was cut short with `…`.
import * as Resolve from '../load/resolve.js'

// model

/** The texts a run must never show, as they are (non-empty); each is hidden in every form Resolve.forms gives. */
export type Secrets = ReadonlyArray<string>

/** What stands for a sensitive text. */
export const marker = '[sensitive]'

/** The character that ends a text cut short (file contents in a catalog, goss's actual values). */
export const ellipsis = '…'

// constructors

/** The sensitive values of a run's references, as they are (`text` takes their forms: Resolve.forms); none when no secret plugin answered. */
export const secretsOf = (resolved: ReadonlyArray<Resolve.Resolved>): Secrets => [...new Set(resolved.filter((r) => r.sensitive).flatMap((r) => Resolve.values(r.value)))].filter((x) => x !== '')

// combinators

/** A text with every form of every secret shown as `[sensitive]`, then any end of a secret's form left before a `…`. */
export const text = (secrets: Secrets): ((s: string) => string) => {
  if (secrets.length === 0) return (s) => s
  const forms = [...new Set(secrets.flatMap(Resolve.forms))]
  const hide = Resolve.hider(forms)
  return (s) => cutShort(forms, hide(s))
}

/**
 * A text where what is left of a secret cut short is hidden: a start of a form of one (one
 * character or more, the longest first) just before a `…` becomes `[sensitive]`.
 */
export const cutShort = (forms: Secrets, s: string): string => {
  if (forms.length === 0 || !s.includes(ellipsis)) return s
  const parts = s.split(ellipsis)
  return parts.map((p, i) => (i === parts.length - 1 ? p : withoutStart(forms, p))).join(ellipsis)
}

/** A text whose end is the longest start of a form (one character or more) with that end shown as `[sensitive]`. */
const withoutStart = (forms: Secrets, p: string): string => {
  let best = 0
  for (const f of forms) {
    for (let k = Math.min(f.length, p.length); k > best; k--) {
      if (p.endsWith(f.slice(0, k))) {
        best = k
        break
      }
    }
  }
  return best === 0 ? p : p.slice(0, p.length - best) + marker
}

/**
 * A value with every string in it (keys too) hidden as in `text`: arrays, plain objects and maps
 * are copied, anything else (numbers, bytes) kept as it is. With no secrets, the value itself.
 */
export const deep =
  (secrets: Secrets) =>
  <A>(v: A): A => {
    if (secrets.length === 0) return v
    const hide = text(secrets)
    const walk = (x: unknown, depth: number): unknown => {
      if (typeof x === 'string') return hide(x)
      if (depth > 256 || x === null || typeof x !== 'object') return x
      if (Array.isArray(x)) return x.map((y) => walk(y, depth + 1))
      if (x instanceof Map) return new Map([...x].map(([k, y]) => [walk(k, depth + 1), walk(y, depth + 1)]))
      const proto = Object.getPrototypeOf(x) as unknown
      if (proto !== Object.prototype && proto !== null) return x
      return Object.fromEntries(Object.entries(x).map(([k, y]) => [hide(k), walk(y, depth + 1)]))
    }
    return walk(v, 0) as A
  }
