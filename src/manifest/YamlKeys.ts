// YamlKeys: the yaml library's check that a map's keys are unique, in linear time. The library's
// own check (`uniqueKeys: true`) compares each key of a map with every key before it: a map of
// 20,000 keys took 11 s to parse, and one of 125,000 (a data file under 1 MiB) minutes. Callers
// parse with `uniqueKeys: false`, then `checkUnique`: the same errors, each at the repeated key
// (the library put one that follows a key with an empty value at the end of the line before).
import * as Y from 'yaml'

/**
 * The library's error for each key that repeats an earlier key of its map: code DUPLICATE_KEY,
 * "Map keys must be unique", at the repeated key. Keys are the same, as the library has it, when
 * both are scalars of equal values (`===`: `1` and `"1"` differ, and NaN is never equal).
 */
export const duplicates = (doc: Y.Document.Parsed): ReadonlyArray<Y.YAMLParseError> => {
  const found: Y.YAMLParseError[] = []
  Y.visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        const key = pair.key
        if (!Y.isScalar(key)) continue
        const value = key.value
        if (typeof value === 'number' && Number.isNaN(value)) continue
        if (!seen.has(value)) seen.add(value)
        else {
          const at = key.range?.[0] ?? 0
          found.push(new Y.YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'))
        }
      }
    },
  })
  return found
}

/**
 * Adds the duplicate-key errors to a document parsed with `uniqueKeys: false`, each before the
 * first of its other errors that comes later in the text (their own order is kept), so the
 * errors read as the library's `uniqueKeys: true` gives them. The document, for chaining.
 */
export const checkUnique = <D extends Y.Document.Parsed>(doc: D): D => {
  // found map by map, an outer map's before its inner ones': the library finds them in the text's order
  const extra = [...duplicates(doc)].sort((a, b) => a.pos[0] - b.pos[0])
  if (extra.length === 0) return doc
  const own = [...doc.errors]
  doc.errors.length = 0
  let i = 0
  for (const e of own) {
    while (i < extra.length && extra[i]!.pos[0] < e.pos[0]) doc.errors.push(extra[i++]!)
    doc.errors.push(e)
  }
  while (i < extra.length) doc.errors.push(extra[i++]!)
  return doc
}

/**
 * `YAML.parse` with the keys checked unique in one pass: the text's one document as plain data
 * (aliases expanded at most `maxAliasCount` times), or its first error thrown, with its line and
 * column as `YAML.parse` gives them. Warnings are not written anywhere.
 */
export const parse = (text: string, maxAliasCount: number): unknown => {
  const lines = new Y.LineCounter()
  const doc = checkUnique(Y.parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: true }))
  const first = doc.errors[0]
  if (first === undefined) return doc.toJS({ maxAliasCount })
  if (first.code === 'DUPLICATE_KEY') {
    // placed as the library places its own errors (the others are placed by it already)
    const { line, col } = lines.linePos(first.pos[0])
    first.message += ` at line ${line}, column ${col}`
  }
  throw first
}
