// Json: the `json` calling convention, both directions. `ral_action=get` reads `{"names": [...]}`
// on stdin (empty: all resources) and prints `{"resources": [...]}`; `ral_action=set` reads
// `{"ral": {"noop": false}, "updates": [{"name", "is": {...}, "should": {...}}]}` and prints
// `{"changes": [{"name", ATTR: {"is", "was"}}], "derive": bool}`. Any output with an `error` key,
// `{"error": {"message", "kind"}}`, is the provider's error. The one owner of that wire format.
import * as E from 'fp-ts/lib/Either.js'
import * as Metadata from './Metadata.js'
import * as Reply from './Reply.js'
import * as Resource from './Resource.js'
import { Notes } from './SimpleOutput.js'
import * as Value from './Value.js'

// model

/** The actions of the json convention. */
export type Action = 'describe' | 'get' | 'set'

// constructors

/** stdin of `get`: the names wanted (none: every resource). */
export const getInput = (names: ReadonlyArray<string>): string => JSON.stringify({ names: [...names] })

/** stdin of `set` for one resource: what was found, the changed attributes it should have, and noop. */
export const setInput = (found: Resource.Found, changes: ReadonlyArray<Resource.Change>, noop: boolean): string => {
  const name = Resource.nameOf(found)
  const is: Record<string, unknown> = { name }
  if (found._tag === 'Present') for (const [k, v] of Object.entries(found.resource.attrs)) is[k] = Value.toJson(v)
  const should: Record<string, unknown> = { name }
  for (const c of changes) should[c.attr] = Value.toJson(c.is)
  return JSON.stringify({ ral: { noop }, updates: [{ name, is, should }] })
}

const parseJson = (text: string): E.Either<string, Record<string, unknown>> => {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    return E.left(`output is not JSON: ${(e as Error).message}`)
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return E.left('output is not a JSON object')
  return E.right(v as Record<string, unknown>)
}

/** The reported error of an output object, when it has an `error` key. */
const errorOf = <A>(o: Record<string, unknown>): E.Either<string, Reply.Reply<A>> | undefined => {
  if (!('error' in o)) return undefined
  const e = o['error']
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return E.left('"error" must be an object with "message" and "kind"')
  const message = (e as Record<string, unknown>)['message']
  const kind = (e as Record<string, unknown>)['kind'] ?? 'failed'
  if (typeof message !== 'string') return E.left('"error.message" must be a string')
  if (kind !== 'failed' && kind !== 'unknown') return E.left(`"error.kind" must be "failed" or "unknown", found ${JSON.stringify(kind)}`)
  return E.right(Reply.error(message, kind))
}

const resourceOf = (meta: Metadata.Metadata, j: unknown, notes: Notes): E.Either<string, Resource.Resource> => {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return E.left('a resource must be a JSON object')
  const o = j as Record<string, unknown>
  const name = o['name']
  if (typeof name !== 'string' || name === '') return E.left('a resource has no "name" string')
  const attrs: Record<string, Value.Value> = {}
  for (const [k, v] of Object.entries(o)) {
    if (k === 'name' || k === 'ral') continue
    const attr = Metadata.attribute(meta, k)
    if (attr === undefined) {
      notes.add(`ignored attribute "${k}", which the metadata of ${meta.qname} does not describe`)
      continue
    }
    const typed = Value.fromJson(attr.type, v)
    if (E.isLeft(typed)) return E.left(`resource "${name}", attribute "${k}": ${typed.left}`)
    attrs[k] = typed.right
  }
  return E.right(Resource.make(name, attrs))
}

/** Parses `get` output into resources. */
export const parseGet = (meta: Metadata.Metadata, text: string): E.Either<string, Reply.ListReply> => {
  const o = parseJson(text)
  if (E.isLeft(o)) return o
  const err = errorOf<ReadonlyArray<Resource.Resource>>(o.right)
  if (err !== undefined) return err
  const rs = o.right['resources']
  if (!Array.isArray(rs)) return E.left('output has no "resources" list')
  const notes = new Notes()
  const out: Resource.Resource[] = []
  // The names in `out`, so that a name reported twice is found without scanning the list.
  const names = new Set<string>()
  for (const j of rs) {
    const r = resourceOf(meta, j, notes)
    if (E.isLeft(r)) return r
    if (names.has(r.right.name)) return E.left(`resource "${r.right.name}" is reported twice`)
    out.push(r.right)
    names.add(r.right.name)
  }
  return E.right(Reply.ok(out, notes.all))
}

/** Parses `get` output for one name: that resource, or absent (not reported, or an error of kind `unknown`). */
export const parseGetOne = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.FindReply> => {
  const r = parseGet(meta, text)
  if (E.isLeft(r)) return r
  if (r.right._tag === 'Error') return E.right(r.right.kind === 'unknown' ? Reply.ok(Resource.absent(name)) : Reply.error(r.right.message))
  const other = r.right.value.find((x) => x.name !== name)
  if (other !== undefined) return E.left(`get for "${name}" reported a resource named "${other.name}"`)
  const one = r.right.value[0]
  return E.right(Reply.ok(one === undefined ? Resource.absent(name) : Resource.present(one), r.right.notes))
}

/** Parses `set` output for one resource: its changes, `derive`, or an error (`unknown`: can not be created). */
export const parseSet = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.UpdateReply> => {
  const o = parseJson(text)
  if (E.isLeft(o)) return o
  const err = errorOf<Reply.UpdateReport>(o.right)
  if (err !== undefined) {
    if (E.isRight(err) && err.right._tag === 'Error' && err.right.kind === 'unknown') return E.right(Reply.ok({ unknown: true, derive: false, changes: [] }))
    return err
  }
  const derive = o.right['derive'] ?? false
  if (typeof derive !== 'boolean') return E.left('"derive" must be true or false')
  const cs = o.right['changes'] ?? []
  if (!Array.isArray(cs)) return E.left('"changes" must be a list')
  const notes = new Notes()
  const changes: Resource.Change[] = []
  const changed = new Set<string>()
  for (const c of cs) {
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return E.left('a change entry must be an object')
    const entry = c as Record<string, unknown>
    if (entry['name'] !== name) return E.left(`set of "${name}" reported changes to ${JSON.stringify(entry['name'])}`)
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'name') continue
      const attr = Metadata.attribute(meta, k)
      if (attr === undefined) {
        notes.add(`ignored a change to "${k}", which the metadata of ${meta.qname} does not describe`)
        continue
      }
      if (v === null || typeof v !== 'object' || !('is' in v)) return E.left(`change of "${k}" has no "is"`)
      const isV = Value.fromJson(attr.type, (v as Record<string, unknown>)['is'])
      if (E.isLeft(isV)) return E.left(`change of "${k}": is: ${isV.left}`)
      const wasJ = (v as Record<string, unknown>)['was']
      let was: Value.Value | undefined
      if (wasJ !== undefined && wasJ !== null && wasJ !== '') {
        const w = Value.fromJson(attr.type, wasJ)
        if (E.isLeft(w)) return E.left(`change of "${k}": was: ${w.left}`)
        was = w.right
      }
      if (changed.has(k)) return E.left(`a second change to "${k}"`)
      changes.push(Resource.change(k, was, isV.right))
      changed.add(k)
    }
  }
  return E.right(Reply.ok({ unknown: false, derive, changes }, notes.all))
}
