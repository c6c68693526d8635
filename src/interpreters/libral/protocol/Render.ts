// Render: libral resources drawn the way ralsh drew them (pure; equal inputs, equal text):
//
//   host::etc_hosts { 'db1':
//     ensure => 'present',
//     ip     => '10.0.0.5',
//   }
//   ip(10.0.0.4->10.0.0.5)
//
// and ralsh's `--json` shapes: `{"providers": [...]}`, `{"resources": [...]}`, `{"resource": {...}}`,
// `{"changes": [...], "resource": {...}}`.
// Names, values and descriptions come from providers: each is drawn with Terminal.field.
import { field as T } from '../../../core/Terminal.js'
import type { Metadata } from './Metadata.js'
import type * as Resource from './Resource.js'
import * as Value from './Value.js'
import * as Append from '../../../core/Append.js'

/** Attribute names in ralsh's order: `ensure` first, then alphabetical. */
export const attributeOrder = (names: ReadonlyArray<string>): ReadonlyArray<string> =>
  [...names].sort((a, b) => (a === b ? 0 : a === 'ensure' ? -1 : b === 'ensure' ? 1 : a < b ? -1 : 1))

/** A resource block; an absent finding draws nothing (ralsh printed nothing for a missing resource). */
export const resource = (qname: string, f: Resource.Found): string => {
  if (f._tag === 'Absent') return ''
  const r = f.resource
  const names = attributeOrder(Object.keys(r.attrs))
  const width = names.reduce((w, n) => Math.max(w, n.length), 0)
  const lines = [`${T(qname)} { ${T(Value.render(r.name))}:`]
  for (const n of names) lines.push(`  ${T(n).padEnd(width)} => ${T(Value.render(r.attrs[n]))},`)
  lines.push('}')
  return lines.join('\n') + '\n'
}

/** Resource blocks, one after the other. */
export const resources = (qname: string, rs: ReadonlyArray<Resource.Resource>): string =>
  rs.map((r) => resource(qname, { _tag: 'Present', resource: r })).join('')

const bare = (v: Value.Value | undefined): string => {
  if (v === undefined) return ''
  if (Array.isArray(v)) return Value.render(v)
  const s = typeof v === 'boolean' ? String(v) : (v as string)
  return /^[^\s()'"\\]*$/.test(s) ? s : Value.render(s)
}

/** One change as ralsh printed it: `attr(was->is)`. */
export const change = (c: Resource.Change): string => `${T(c.attr)}(${T(bare(c.was))}->${T(bare(c.is))})`

/** Changes, one per line. */
export const changes = (cs: ReadonlyArray<Resource.Change>): string => cs.map((c) => change(c) + '\n').join('')

/** The provider list: one full name per line. */
export const providers = (ms: ReadonlyArray<Metadata>): string => ms.map((m) => T(m.qname) + '\n').join('')

/** ralsh's `--explain`: the provider, its source, its description and each attribute's kind and type. */
export const explain = (m: Metadata, source: string): string => {
  const width = m.attributes.reduce((w, a) => Math.max(w, a.name.length), -Infinity)
  const lines = [`Provider ${T(m.qname)}`, `  source: ${T(source)}`]
  if (m.desc.trim() !== '') Append.append(lines, m.desc.replace(/\n+$/, '').split('\n').map(T))
  for (const a of [...m.attributes].sort((x, y) => rank(x.name) - rank(y.name))) {
    lines.push(`  ${T(a.name).padEnd(width)} : ${a.desc.trim() === '' ? '(missing description)' : T(a.desc.trim().replace(/\n/g, ' '))}`)
    lines.push(`  ${' '.repeat(width)} . kind = ${a.kind}`)
    lines.push(`  ${' '.repeat(width)} . type = ${T(Value.formatType(a.type))}`)
  }
  return lines.join('\n') + '\n'
}

const rank = (name: string): number => (name === 'name' ? 0 : name === 'ensure' ? 1 : 2)

// JSON shapes (ralsh-json-output)

/** A resource as ralsh's JSON showed it: its attributes, `name`, and `ral: {type, provider}`. */
export const resourceJson = (m: Metadata, r: Resource.Resource): Readonly<Record<string, unknown>> => {
  const out: Record<string, unknown> = { name: r.name }
  for (const k of attributeOrder(Object.keys(r.attrs))) out[k] = Value.toJson(r.attrs[k]!)
  out['ral'] = { type: m.type, provider: m.qname }
  return out
}

/** `{"providers": [...]}`. */
export const providersJson = (ps: ReadonlyArray<{ readonly meta: Metadata; readonly path: string; readonly suitable: boolean }>): unknown => ({
  providers: ps.map((p) => ({
    name: p.meta.qname,
    type: p.meta.type,
    source: p.path,
    suitable: p.suitable,
    desc: p.meta.desc,
    invoke: p.meta.invoke,
    attributes: p.meta.attributes.map((a) => ({ name: a.name, desc: a.desc, type: Value.formatType(a.type), kind: a.kind })),
  })),
})

/** `{"resources": [...]}`. */
export const listJson = (m: Metadata, rs: ReadonlyArray<Resource.Resource>): unknown => ({ resources: rs.map((r) => resourceJson(m, r)) })

/** `{"resource": {...}}`, or `{"resource": null}` for an absent one. */
export const findJson = (m: Metadata, f: Resource.Found): unknown => ({ resource: f._tag === 'Absent' ? null : resourceJson(m, f.resource) })

/** `{"changes": [{attr, is, was}], "resource": {...}}`. */
export const updateJson = (m: Metadata, cs: ReadonlyArray<Resource.Change>, after: Resource.Found): unknown => ({
  changes: cs.map((c) => ({ attr: c.attr, is: Value.toJson(c.is), was: c.was === undefined ? null : Value.toJson(c.was) })),
  resource: after._tag === 'Absent' ? null : resourceJson(m, after.resource),
})

/** `{"error": {"message", "kind"}}`. */
export const errorJson = (message: string, kind: 'failed' | 'unknown' = 'failed'): unknown => ({ error: { message, kind } })
