// Resolve: goss_rules with their templates resolved (keys and string values alike), keeping every
// position, and the resolved rules as the JSON a plan carries (pure). The rendering itself is the
// manifest's, passed in.
import type * as Node from '../manifest/Node.js'
import type { Json } from './Matcher.js'

/** Renders one string scalar's templates: its resolved text, or undefined (the renderer reported why). */
export type Render = (n: Node.Scalar) => string | undefined

const templated = (s: string): boolean => /\{\{|\$\{/.test(s)

/** A node with every templated string and key rendered; undefined when one could not be. */
export const resolve = (n: Node.Node, render: Render): Node.Node | undefined => {
  if (n._tag === 'Scalar') {
    if (typeof n.value !== 'string' || !templated(n.text)) return n
    const v = render(n)
    return v === undefined ? undefined : { _tag: 'Scalar', value: v, text: v, quoted: true, at: n.at }
  }
  if (n._tag === 'Seq') {
    const items = n.items.map((i) => resolve(i, render))
    return items.every((i) => i !== undefined) ? { ...n, items: items as Node.Node[] } : undefined
  }
  let ok = true
  const entries = n.entries.map((e) => {
    const key = templated(e.key) ? render({ _tag: 'Scalar', value: e.key, text: e.key, quoted: false, at: e.keyAt }) : e.key
    const value = resolve(e.value, render)
    if (key === undefined || value === undefined) ok = false
    return { key: key ?? e.key, keyAt: e.keyAt, value: value ?? e.value }
  })
  return ok ? { ...n, entries } : undefined
}

/** A resolved node as JSON; a plain scalar whose spelling is not its number's (`0644`, `1.10`) keeps its spelling. */
export const toJson = (n: Node.Node): Json => {
  if (n._tag === 'Scalar') return typeof n.value === 'number' && !n.quoted && n.text !== String(n.value) ? n.text : n.value
  if (n._tag === 'Seq') return n.items.map(toJson)
  const out: Record<string, Json> = {}
  for (const e of n.entries) Object.defineProperty(out, e.key, { value: toJson(e.value), enumerable: true, writable: true, configurable: true })
  return out
}
