// Scale properties of the libral output parsers and Value.render: the sets that replaced scans
// (names reported twice, notes, changes to one attribute twice) and the one-replace quoting give
// what the earlier code gave. The earlier code is kept below as the model. The one intended
// difference: a reply keeps the first Simple.maxNotes distinct notes and counts the rest in one
// closing note (and json `set` no longer repeats a note).
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Json from '../../src/interpreters/libral/protocol/Json.js'
import * as Metadata from '../../src/interpreters/libral/protocol/Metadata.js'
import * as Reply from '../../src/interpreters/libral/protocol/Reply.js'
import * as Resource from '../../src/interpreters/libral/protocol/Resource.js'
import * as Simple from '../../src/interpreters/libral/protocol/SimpleOutput.js'
import * as Value from '../../src/interpreters/libral/protocol/Value.js'
import { hostMeta } from './support.js'

// the model: the code before the sets, as it was

const oldQuote = (s: string): string => {
  const isControl = (c: string): boolean => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f
  let out = ''
  for (const c of s) {
    if (c === '\\' || c === "'") out += `\\${c}`
    else if (c === '\n') out += '\\n'
    else if (c === '\t') out += '\\t'
    else if (c === '\r') out += '\\r'
    else if (isControl(c)) out += `\\u{${c.charCodeAt(0).toString(16)}}`
    else out += c
  }
  return `'${out}'`
}

class OldNotes {
  readonly all: string[] = []
  add(message: string): void {
    if (!this.all.includes(message)) this.all.push(message)
  }
}

type Entry = Simple.Entry

const oldResources = (meta: Metadata.Metadata, es: ReadonlyArray<Entry>, notes: OldNotes, allowUnknown: boolean): E.Either<string, { readonly list: ReadonlyArray<Resource.Resource>; readonly unknown: boolean }> => {
  const list: Resource.Resource[] = []
  let current: { name: string; attrs: Record<string, Value.Value> } | undefined
  let unknown = false
  const flush = (): void => {
    if (current !== undefined) list.push(Resource.make(current.name, current.attrs))
  }
  for (const e of es) {
    if (e.key === 'name') {
      if (e.value === '') return E.left(`line ${e.line}: empty resource name`)
      flush()
      if (list.some((r) => r.name === e.value)) return E.left(`line ${e.line}: resource "${e.value}" is reported twice`)
      current = { name: e.value, attrs: {} }
      continue
    }
    if (allowUnknown && e.key === 'ral_unknown') {
      const v = e.value.toLowerCase()
      if (v === 'true') unknown = true
      else if (v !== 'false') return E.left(`line ${e.line}: ral_unknown must be true or false, found ${JSON.stringify(e.value)}`)
      continue
    }
    if (e.key.startsWith('ral_')) {
      notes.add(`ignored "${e.key}" (not meaningful here)`)
      continue
    }
    const attr = Metadata.attribute(meta, e.key)
    if (attr === undefined) {
      notes.add(`ignored attribute "${e.key}", which the metadata of ${meta.qname} does not describe`)
      continue
    }
    if (current === undefined) return E.left(`line ${e.line}: attribute "${e.key}" comes before any "name:" line`)
    if (e.key in current.attrs) return E.left(`line ${e.line}: resource "${current.name}" reports "${e.key}" twice`)
    const v = Value.readText(attr.type, e.value)
    if (E.isLeft(v)) return E.left(`line ${e.line}: resource "${current.name}", attribute "${e.key}": ${v.left}`)
    current.attrs[e.key] = v.right
  }
  flush()
  return E.right({ list, unknown })
}

const oldParseList = (meta: Metadata.Metadata, text: string): E.Either<string, Reply.ListReply> => {
  const es = Simple.entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new OldNotes()
  const r = oldResources(meta, es.right.value, notes, false)
  return E.isLeft(r) ? r : E.right(Reply.ok(r.right.list, notes.all))
}

const oldParseFind = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.FindReply> => {
  const es = Simple.entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new OldNotes()
  const r = oldResources(meta, es.right.value, notes, true)
  if (E.isLeft(r)) return r
  const { list, unknown } = r.right
  const other = list.find((x) => x.name !== name)
  if (other !== undefined) return E.left(`find for "${name}" reported a resource named "${other.name}"`)
  if (unknown) return E.right(Reply.ok(Resource.absent(name), notes.all))
  if (list.length === 0) return E.left(`find for "${name}" printed neither the resource nor "ral_unknown: true"`)
  return E.right(Reply.ok(Resource.present(list[0]!), notes.all))
}

const oldParseUpdate = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.UpdateReply> => {
  const es = Simple.entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new OldNotes()
  const changes: { attr: string; was?: Value.Value; is: Value.Value; hasWas: boolean }[] = []
  let derive = false
  let unknown = false
  const flag = (e: Entry): E.Either<string, boolean> => {
    const v = e.value.toLowerCase()
    return v === 'true' ? E.right(true) : v === 'false' ? E.right(false) : E.left(`line ${e.line}: ${e.key} must be true or false, found ${JSON.stringify(e.value)}`)
  }
  for (const e of es.right.value) {
    switch (e.key) {
      case 'name':
        if (e.value !== name) return E.left(`line ${e.line}: update of "${name}" reported changes to "${e.value}"`)
        continue
      case 'ral_derive':
      case 'ral_unknown': {
        const f = flag(e)
        if (E.isLeft(f)) return f
        if (e.key === 'ral_derive') derive = f.right
        else unknown = f.right
        continue
      }
      case 'ral_was': {
        const last = changes[changes.length - 1]
        if (last === undefined) return E.left(`line ${e.line}: ral_was does not follow an attribute line`)
        if (last.hasWas) return E.left(`line ${e.line}: a second ral_was for "${last.attr}"`)
        last.hasWas = true
        const attr = Metadata.attribute(meta, last.attr)
        if (e.value === '' || attr === undefined) continue
        const v = Value.readText(attr.type, e.value)
        if (E.isLeft(v)) return E.left(`line ${e.line}: ral_was of "${last.attr}": ${v.left}`)
        last.was = v.right
        continue
      }
    }
    if (e.key.startsWith('ral_')) {
      notes.add(`ignored "${e.key}" (not meaningful in update output)`)
      continue
    }
    const attr = Metadata.attribute(meta, e.key)
    if (attr === undefined) {
      notes.add(`ignored a change to "${e.key}", which the metadata of ${meta.qname} does not describe`)
      changes.push({ attr: e.key, is: '', hasWas: false })
      continue
    }
    if (changes.some((c) => c.attr === e.key)) return E.left(`line ${e.line}: a second change to "${e.key}"`)
    const v = Value.readText(attr.type, e.value)
    if (E.isLeft(v)) return E.left(`line ${e.line}: attribute "${e.key}": ${v.left}`)
    changes.push({ attr: e.key, is: v.right, hasWas: false })
  }
  if (unknown) return E.right(Reply.ok({ unknown: true, derive: false, changes: [] }, notes.all))
  const known = changes.filter((c) => Metadata.attribute(meta, c.attr) !== undefined).map((c) => Resource.change(c.attr, c.was, c.is))
  return E.right(Reply.ok({ unknown: false, derive, changes: known }, notes.all))
}

// The json model reads only what the generators below print: a JSON object with no "error" key.
const oldResourceOf = (meta: Metadata.Metadata, j: unknown, notes: string[]): E.Either<string, Resource.Resource> => {
  if (j === null || typeof j !== 'object' || Array.isArray(j)) return E.left('a resource must be a JSON object')
  const o = j as Record<string, unknown>
  const name = o['name']
  if (typeof name !== 'string' || name === '') return E.left('a resource has no "name" string')
  const attrs: Record<string, Value.Value> = {}
  for (const [k, v] of Object.entries(o)) {
    if (k === 'name' || k === 'ral') continue
    const attr = Metadata.attribute(meta, k)
    if (attr === undefined) {
      const note = `ignored attribute "${k}", which the metadata of ${meta.qname} does not describe`
      if (!notes.includes(note)) notes.push(note)
      continue
    }
    const typed = Value.fromJson(attr.type, v)
    if (E.isLeft(typed)) return E.left(`resource "${name}", attribute "${k}": ${typed.left}`)
    attrs[k] = typed.right
  }
  return E.right(Resource.make(name, attrs))
}

const oldParseGet = (meta: Metadata.Metadata, text: string): E.Either<string, Reply.ListReply> => {
  const rs = (JSON.parse(text) as Record<string, unknown>)['resources']
  if (!Array.isArray(rs)) return E.left('output has no "resources" list')
  const notes: string[] = []
  const out: Resource.Resource[] = []
  for (const j of rs) {
    const r = oldResourceOf(meta, j, notes)
    if (E.isLeft(r)) return r
    if (out.some((x) => x.name === r.right.name)) return E.left(`resource "${r.right.name}" is reported twice`)
    out.push(r.right)
  }
  return E.right(Reply.ok(out, notes))
}

const oldParseSet = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.UpdateReply> => {
  const o = JSON.parse(text) as Record<string, unknown>
  const derive = o['derive'] ?? false
  if (typeof derive !== 'boolean') return E.left('"derive" must be true or false')
  const cs = o['changes'] ?? []
  if (!Array.isArray(cs)) return E.left('"changes" must be a list')
  const notes: string[] = []
  const changes: Resource.Change[] = []
  for (const c of cs) {
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return E.left('a change entry must be an object')
    const entry = c as Record<string, unknown>
    if (entry['name'] !== name) return E.left(`set of "${name}" reported changes to ${JSON.stringify(entry['name'])}`)
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'name') continue
      const attr = Metadata.attribute(meta, k)
      if (attr === undefined) {
        notes.push(`ignored a change to "${k}", which the metadata of ${meta.qname} does not describe`)
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
      if (changes.some((x) => x.attr === k)) return E.left(`a second change to "${k}"`)
      changes.push(Resource.change(k, was, isV.right))
    }
  }
  return E.right(Reply.ok({ unknown: false, derive, changes }, notes))
}

/** What the model's reply becomes now: each note once, the first maxNotes kept, the rest counted. */
const capped = <A>(r: E.Either<string, Reply.Reply<A>>): E.Either<string, Reply.Reply<A>> => {
  if (E.isLeft(r) || r.right._tag === 'Error') return r
  const distinct = [...new Set(r.right.notes)]
  const more = distinct.length - Simple.maxNotes
  const notes = more > 0 ? [...distinct.slice(0, Simple.maxNotes), `... and ${more} more notes (only the first ${Simple.maxNotes} are kept)`] : distinct
  return E.right(Reply.ok(r.right.value, notes))
}

// generators

// Few names, so that names repeat; known and unknown keys; values of every type, good and bad.
const names = ['a', 'b', 'c', 'r1', 'r2']
const known = ['ensure', 'ip', 'aliases', 'enabled', 'target', 'secret']
const unknownKey = fc.integer({ min: 0, max: 2 * Simple.maxNotes }).map((i) => `x${i}`)
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...known) },
  { weight: 2, arbitrary: unknownKey },
  { weight: 1, arbitrary: fc.constantFrom('ral_unknown', 'ral_derive', 'ral_was', 'ral_other', 'colour') },
)
const text = fc.constantFrom('', 'a', 'b', 'true', 'false', 'True', 'present', 'absent', 'x, y', 'x,,y', 'maybe')
const line = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...names).map((n) => ['name', n] as const) }, { weight: 4, arbitrary: fc.tuple(key, text) })
// Short mixed outputs, and long runs of unknown attributes that pass the notes cap.
const lines = fc.oneof(
  fc.array(line, { maxLength: 40 }),
  fc.tuple(fc.constantFrom(...names), fc.array(fc.tuple(unknownKey, text), { minLength: Simple.maxNotes - 5, maxLength: 3 * Simple.maxNotes }), fc.array(line, { maxLength: 10 })).map(([n, us, rest]) => [['name', n] as const, ...us, ...rest]),
)
const simpleText = lines.map((ls) => `# simple\n${ls.map(([k, v]) => `${k}: ${v}\n`).join('')}`)

const jsonValue = fc.oneof(text, fc.boolean(), fc.array(text, { maxLength: 3 }), fc.constant(null))
const jsonKey = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: unknownKey }, { weight: 1, arbitrary: fc.constant('ral') })
const jsonResource = fc.tuple(fc.constantFrom(...names, ''), fc.dictionary(jsonKey, jsonValue, { maxKeys: 8 })).map(([name, attrs]) => ({ name, ...attrs }))
const manyUnknown = fc.array(unknownKey, { minLength: Simple.maxNotes - 5, maxLength: 3 * Simple.maxNotes }).map((ks) => Object.fromEntries(ks.map((k) => [k, '1'])))
const jsonGet = fc.oneof(fc.array(jsonResource, { maxLength: 12 }), fc.tuple(manyUnknown, fc.array(jsonResource, { maxLength: 3 })).map(([u, rest]) => [{ name: 'a', ...u }, ...rest])).map((rs) => JSON.stringify({ resources: rs }))
// Mostly changes that read well (an "is" of text, which ip takes), so that one attribute changes twice.
const jsonChange = fc.oneof({ weight: 3, arbitrary: fc.record({ is: text, was: fc.option(text) }) }, { weight: 1, arbitrary: fc.record({ is: jsonValue, was: jsonValue }, { requiredKeys: [] }) })
const setName = fc.oneof({ weight: 9, arbitrary: fc.constant('a') }, { weight: 1, arbitrary: fc.constant('b') })
const jsonSet = fc
  .tuple(fc.option(fc.boolean()), fc.array(fc.tuple(setName, fc.dictionary(jsonKey, jsonChange, { maxKeys: 6 })), { maxLength: 6 }))
  .map(([derive, cs]) => JSON.stringify({ ...(derive === null ? {} : { derive }), changes: cs.map(([name, c]) => ({ name, ...c })) }))

// the properties

describe('simple parsers with sets beside their lists', () => {
  fcTest.prop([simpleText])('parseList gives what the list scans gave', (t) => {
    expect(Simple.parseList(hostMeta, t)).toEqual(capped(oldParseList(hostMeta, t)))
  })

  fcTest.prop([simpleText, fc.constantFrom(...names)])('parseFind gives what the list scans gave', (t, name) => {
    expect(Simple.parseFind(hostMeta, name, t)).toEqual(capped(oldParseFind(hostMeta, name, t)))
  })

  fcTest.prop([simpleText, fc.constantFrom(...names)])('parseUpdate gives what the change scans gave', (t, name) => {
    expect(Simple.parseUpdate(hostMeta, name, t)).toEqual(capped(oldParseUpdate(hostMeta, name, t)))
  })

  it('keeps the first notes and counts the rest in one closing note', () => {
    const n = Simple.maxNotes + 3
    const t = `# simple\nname: a\n${Array.from({ length: n }, (_, i) => `x${i}: 1\nx${i}: 2\n`).join('')}`
    const r = Simple.parseList(hostMeta, t)
    const notes = E.isRight(r) && r.right._tag === 'Ok' ? r.right.notes : []
    expect(notes.length).toBe(Simple.maxNotes + 1)
    expect(notes[0]).toBe('ignored attribute "x0", which the metadata of host::test does not describe')
    expect(notes[Simple.maxNotes]).toBe(`... and 3 more notes (only the first ${Simple.maxNotes} are kept)`)
  })
})

describe('json parsers with sets beside their lists', () => {
  fcTest.prop([jsonGet])('parseGet gives what the list scans gave', (t) => {
    expect(Json.parseGet(hostMeta, t)).toEqual(capped(oldParseGet(hostMeta, t)))
  })

  fcTest.prop([jsonSet])('parseSet gives what the change scans gave, each note once', (t) => {
    expect(Json.parseSet(hostMeta, 'a', t)).toEqual(capped(oldParseSet(hostMeta, 'a', t)))
  })
})

describe('Value.render with one replace', () => {
  // Every UTF-16 unit, lone surrogates too, with the escaped characters drawn often.
  const unit = fc.oneof(fc.constantFrom('\\', "'", '\n', '\t', '\r', '\x00', '\x1b', '\x1f', '\x7f', '\x80', 'é', '😀'), fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)))
  const str = fc.array(unit, { maxLength: 40 }).map((us) => us.join(''))

  fcTest.prop([str])('quotes a string as the character walk did', (s) => {
    expect(Value.render(s)).toBe(oldQuote(s))
  })

  fcTest.prop([fc.array(str, { maxLength: 4 })])('quotes each array entry as the character walk did', (xs) => {
    expect(Value.render(xs)).toBe(`[${xs.map(oldQuote).join(', ')}]`)
  })
})
