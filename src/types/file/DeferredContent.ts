// DeferredContent: a deferred file content worked out from the plan's snapshot and the bytes of the
// managed files it reads (pure). The planner uses it when the resources that manage those files
// change nothing (the machine already holds what they would leave); the executor at the
// resource's turn otherwise.
import * as E from 'fp-ts/lib/Either.js'
import type * as Deferred from '../../core/Deferred.js'
import * as BytesM from '../../core/Bytes.js'
import * as Fault from '../../core/Fault.js'
import * as Evaluate from '../../manifest/expr/Evaluate.js'
import * as Template from '../../manifest/expr/Template.js'
import * as Value from '../../manifest/expr/Value.js'
import type { Bytes } from './plan.js'
import type { ContentSpec } from './Spec.js'

// Every fault here has the whole sentence a report shows as its description.

/** The content spec and bytes a deferred value comes to, given each managed file's bytes (by the relative path read). */
export const contentOf = (d: Deferred.Deferred, managed: ReadonlyMap<string, Uint8Array>): E.Either<Fault.Fault, { readonly content: ContentSpec; readonly bytes: Bytes }> => {
  if (d.property === 'source') {
    const [rel, path] = Object.entries(d.managed)[0] ?? ['', '']
    const data = managed.get(rel)
    if (data === undefined) return E.left(Fault.make('NotFound', 'file', 'source', path, `${path} was not read`))
    return E.right({ content: { _tag: 'Source', written: rel, path }, bytes: BytesM.of(data) })
  }
  const texts = textsOf(d.managed, managed)
  if (E.isLeft(texts)) return texts
  const text = renderTemplate(d.template ?? '', d.snapshot, texts.right)
  if (E.isLeft(text)) return E.left(Fault.make(text.left._tag, 'file', 'content', d.at, `content (${d.at}): ${text.left.description}`, text.left))
  const data = new TextEncoder().encode(text.right)
  return E.right({ content: { _tag: 'Inline', text: text.right }, bytes: BytesM.of(data) })
}

/** The managed files' bytes as text (a template reads text), by the relative path read; bytes that are not UTF-8 fail. */
export const textsOf = (paths: Readonly<Record<string, string>>, managed: ReadonlyMap<string, Uint8Array>): E.Either<Fault.Fault, Map<string, string>> => {
  const texts = new Map<string, string>()
  for (const [rel, data] of managed) {
    try {
      texts.set(rel, new TextDecoder('utf-8', { fatal: true }).decode(data))
    } catch {
      return E.left(Fault.make('Failed', 'file', 'decode', paths[rel] ?? rel, `${paths[rel] ?? rel} is not UTF-8 text`))
    }
  }
  return E.right(texts)
}

/** Renders a deferred template with its snapshot and the managed files' text, as a string property; a template that fails is a fault of the template. */
export const renderTemplate = (template: string, snapshot: Deferred.Snapshot | undefined, managed: ReadonlyMap<string, string>): E.Either<Fault.Fault, string> => {
  const fail = (description: string, cause?: unknown): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'file', 'render', 'template', description, cause))
  const snap = snapshot ?? { roots: { facts: {}, data: {}, environ: {} }, files: {} }
  const now = snap.now === undefined ? undefined : Value.time(snap.now)
  const env = Evaluate.env({
    mode: 'manifest',
    facts: snap.roots.facts,
    data: snap.roots.data,
    environ: snap.roots.environ,
    ...(now !== undefined ? { now } : {}),
    readFile: (p) => {
      const text = managed.get(p) ?? snap.files[p]
      return text === undefined ? E.left(`${p} was not read when the plan was made; make a new plan`) : E.right(text)
    },
  })
  const r = Template.render(template, env)
  if (E.isLeft(r)) return fail(r.left.message, r.left)
  const v = r.right.value
  if (v === null) return E.right('')
  if (Value.isArray(v) || Value.isMap(v)) return fail(`the template gives ${Value.isArray(v) ? 'a list' : 'a map'} where a string is expected`)
  return E.right(typeof v === 'string' ? v : Value.format(v))
}
