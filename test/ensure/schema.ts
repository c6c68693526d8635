// schema: a small JSON-schema check (the keywords CCM's ensure schemas use: type, const, enum,
// required, properties, additionalProperties, items, pattern, oneOf, allOf, $ref to $defs, and
// `false`), so tests validate requests and responses against CCM's own schema files.
import { readFileSync } from 'node:fs'

type Schema = boolean | { readonly [k: string]: unknown }

const load = (name: string): Schema => JSON.parse(readFileSync(new URL(`../../../shared/compat/ccm/${name}`, import.meta.url), 'utf8')) as Schema

const typeOk = (t: string, v: unknown): boolean =>
  t === 'object' ? typeof v === 'object' && v !== null && !Array.isArray(v) : t === 'array' ? Array.isArray(v) : t === 'integer' ? Number.isInteger(v) : t === 'null' ? v === null : typeof v === t

/** Every way `v` breaks `schema` (empty: it is valid), each with its JSON path. */
const check = (root: Schema, schema: Schema, v: unknown, at: string, loose = false): string[] => {
  if (schema === true) return []
  if (schema === false) return [`${at}: not allowed`]
  const s = schema as Record<string, unknown>
  const out: string[] = []
  if (typeof s['$ref'] === 'string') {
    const name = (s['$ref'] as string).replace('#/$defs/', '')
    out.push(...check(root, ((root as Record<string, unknown>)['$defs'] as Record<string, Schema>)[name]!, v, at, loose))
  }
  if (typeof s['type'] === 'string' && !typeOk(s['type'] as string, v)) return [...out, `${at}: not of type ${s['type'] as string}`]
  if ('const' in s && v !== s['const']) out.push(`${at}: not ${JSON.stringify(s['const'])}`)
  if (Array.isArray(s['enum']) && !(s['enum'] as unknown[]).includes(v)) out.push(`${at}: not one of ${JSON.stringify(s['enum'])}`)
  if (typeof s['pattern'] === 'string' && typeof v === 'string' && !new RegExp(s['pattern'] as string).test(v)) out.push(`${at}: does not match ${s['pattern'] as string}`)
  if (Array.isArray(s['allOf'])) for (const sub of s['allOf'] as Schema[]) out.push(...check(root, sub, v, at, loose))
  if (Array.isArray(s['oneOf'])) {
    const passing = (s['oneOf'] as Schema[]).filter((sub) => check(root, sub, v, at, loose).length === 0).length
    if (loose ? passing === 0 : passing !== 1) out.push(`${at}: matches ${passing} of oneOf, not exactly 1`)
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>
    for (const k of (s['required'] as string[] | undefined) ?? []) if (!(k in o)) out.push(`${at}: missing ${k}`)
    const props = (s['properties'] as Record<string, Schema> | undefined) ?? {}
    for (const [k, x] of Object.entries(o)) {
      if (k in props) out.push(...check(root, props[k]!, x, `${at}.${k}`, loose))
      else if (s['additionalProperties'] === false) out.push(`${at}.${k}: not allowed`)
    }
  }
  if (Array.isArray(v) && s['items'] !== undefined) for (const [i, x] of v.entries()) out.push(...check(root, s['items'] as Schema, x, `${at}[${i}]`, loose))
  return out
}

const response = load('resource_ensure_response.json')
const request = load('resource_ensure_request.json')

/** How a value breaks CCM's ensure response schema (empty: it is valid). */
export const checkResponse = (v: unknown): ReadonlyArray<string> => check(response, response, v, '$')

/**
 * How a value breaks CCM's ensure request schema (empty: it is valid). Its `properties` is a oneOf
 * of per-type schemas that overlap (a package's properties are a service's too), so no request
 * matches exactly one: here it must match at least one, as CCM's own checks of it behave.
 */
export const checkRequest = (v: unknown): ReadonlyArray<string> => check(request, request, v, '$', true)
