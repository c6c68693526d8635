// SimpleOutput: the parser of the `# simple` output convention (list, find, update), typed by the
// provider's metadata. The one owner of that wire format's reading side.
//
// As the spec says: the first line is `# simple`; every line is stripped of surrounding
// whitespace, the text up to the first ':' is the key and the rest, without leading whitespace,
// the value; `name:` starts a resource. Any `ral_error:` line makes the whole output an error whose
// message runs to a line `ral_eom` (a missing `ral_eom` is a protocol violation). Blank lines are
// skipped. Attributes the metadata does not know are ignored with a note.
import * as E from 'fp-ts/lib/Either.js'
import * as Metadata from './Metadata.js'
import * as Reply from './Reply.js'
import * as Resource from './Resource.js'
import * as Value from './Value.js'

// model

/** One `key: value` line, with its 1-based line number. */
export interface Entry {
  readonly key: string
  readonly value: string
  readonly line: number
}

/** The header line every `# simple` output starts with. */
export const header = '# simple'

// constructors

/**
 * Splits output into entries, or the provider's error, or (Left) why it is not `# simple` output.
 */
export const entries = (text: string): E.Either<string, Reply.Reply<ReadonlyArray<Entry>>> => {
  const raw = text.split('\n')
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop()
  const lines = raw.map((l) => l.trim())
  const err = lines.findIndex((l) => keyOf(l) === 'ral_error')
  if (err >= 0) {
    const end = lines.findIndex((l, i) => i > err && l === 'ral_eom')
    const first = valueOf(lines[err]!)
    // trimEnd strips what `\s+$` did (white space and line terminators), in one walk from the end: the regex is quadratic in a run of white space inside a line
    const message = [first, ...raw.slice(err + 1, end < 0 ? raw.length : end).map((l) => l.trimEnd())].join('\n').trim()
    if (end < 0) return E.left(`ral_error on line ${err + 1} is not closed by a ral_eom line (message: ${JSON.stringify(message)})`)
    return E.right(Reply.error(message))
  }
  if (lines.length === 0) return E.left(`no output (expected "${header}" as the first line)`)
  if (lines[0] !== header) return E.left(`the first line is ${JSON.stringify(raw[0])}, expected "${header}"`)
  const out: Entry[] = []
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!
    if (l === '') continue
    const colon = l.indexOf(':')
    if (colon < 0) return E.left(`line ${i + 1}: ${JSON.stringify(l)} is not "key: value" (no ':')`)
    out.push({ key: l.slice(0, colon), value: valueOf(l), line: i + 1 })
  }
  return E.right(Reply.ok(out))
}

const keyOf = (l: string): string => {
  const colon = l.indexOf(':')
  return colon < 0 ? l : l.slice(0, colon)
}

const valueOf = (l: string): string => {
  const colon = l.indexOf(':')
  return colon < 0 ? '' : l.slice(colon + 1).replace(/^\s+/, '')
}

/**
 * How many distinct notes one reply keeps. Each note becomes a warning line, and a broken provider
 * can print millions of attributes nobody described: the first ones say what is wrong.
 */
export const maxNotes = 100

/**
 * Collects notes, one per distinct message in the order first seen, keeping the first `maxNotes`
 * and counting the rest in one closing note. The set beside the list keeps `add` constant-time.
 */
export class Notes {
  private readonly kept: string[] = []
  private readonly seen = new Set<string>()
  add(message: string): void {
    if (this.seen.has(message)) return
    this.seen.add(message)
    if (this.kept.length < maxNotes) this.kept.push(message)
  }
  /** The kept notes, then `... and N more notes` when some were not kept. */
  get all(): ReadonlyArray<string> {
    const more = this.seen.size - this.kept.length
    return more === 0 ? this.kept : [...this.kept, `... and ${more} more notes (only the first ${maxNotes} are kept)`]
  }
}

/** Groups entries into resources (`name:` starts one), typing each attribute by the metadata. */
const resources = (meta: Metadata.Metadata, es: ReadonlyArray<Entry>, notes: Notes, allowUnknown: boolean): E.Either<string, { readonly list: ReadonlyArray<Resource.Resource>; readonly unknown: boolean }> => {
  const list: Resource.Resource[] = []
  // The names in `list`, so that a name reported twice is found without scanning the list.
  const names = new Set<string>()
  let current: { name: string; attrs: Record<string, Value.Value> } | undefined
  let unknown = false
  const flush = (): void => {
    if (current === undefined) return
    list.push(Resource.make(current.name, current.attrs))
    names.add(current.name)
  }
  for (const e of es) {
    if (e.key === 'name') {
      if (e.value === '') return E.left(`line ${e.line}: empty resource name`)
      flush()
      if (names.has(e.value)) return E.left(`line ${e.line}: resource "${e.value}" is reported twice`)
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

/** Parses `list` output into resources. */
export const parseList = (meta: Metadata.Metadata, text: string): E.Either<string, Reply.ListReply> => {
  const es = entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new Notes()
  const r = resources(meta, es.right.value, notes, false)
  return E.isLeft(r) ? r : E.right(Reply.ok(r.right.list, notes.all))
}

/** Parses `find name=NAME` output: the one resource named NAME, or absent (`ral_unknown: true`). */
export const parseFind = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.FindReply> => {
  const es = entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new Notes()
  const r = resources(meta, es.right.value, notes, true)
  if (E.isLeft(r)) return r
  const { list, unknown } = r.right
  const other = list.find((x) => x.name !== name)
  if (other !== undefined) return E.left(`find for "${name}" reported a resource named "${other.name}"`)
  if (unknown) return E.right(Reply.ok(Resource.absent(name), notes.all))
  if (list.length === 0) return E.left(`find for "${name}" printed neither the resource nor "ral_unknown: true"`)
  return E.right(Reply.ok(Resource.present(list[0]!), notes.all))
}

/**
 * Parses `update` output: each `attr: new` line with the `ral_was: old` after it, `ral_derive`,
 * and `ral_unknown` (the resource does not exist and can not be created). An empty `ral_was` means
 * there was no old value.
 */
export const parseUpdate = (meta: Metadata.Metadata, name: string, text: string): E.Either<string, Reply.UpdateReply> => {
  const es = entries(text)
  if (E.isLeft(es)) return es
  if (es.right._tag === 'Error') return E.right(es.right)
  const notes = new Notes()
  const changes: { attr: string; was?: Value.Value; is: Value.Value; hasWas: boolean }[] = []
  // The described attributes already in `changes` (the slots of ignored lines are never described).
  const changed = new Set<string>()
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
      // A ral_was that follows belongs to the ignored line: give it a slot that is dropped below.
      changes.push({ attr: e.key, is: '', hasWas: false })
      continue
    }
    if (changed.has(e.key)) return E.left(`line ${e.line}: a second change to "${e.key}"`)
    const v = Value.readText(attr.type, e.value)
    if (E.isLeft(v)) return E.left(`line ${e.line}: attribute "${e.key}": ${v.left}`)
    changes.push({ attr: e.key, is: v.right, hasWas: false })
    changed.add(e.key)
  }
  if (unknown) return E.right(Reply.ok({ unknown: true, derive: false, changes: [] }, notes.all))
  const known = changes.filter((c) => Metadata.attribute(meta, c.attr) !== undefined).map((c) => Resource.change(c.attr, c.was, c.is))
  return E.right(Reply.ok({ unknown: false, derive, changes: known }, notes.all))
}
