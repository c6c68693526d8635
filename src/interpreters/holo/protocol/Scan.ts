// Scan: a plugin's `scan` report (holo-plugin-interface(7), "The scan operation"), read as Holo 3
// reads it: the output is trimmed and split into lines; an empty line is skipped; every other line
// is `key: value`; `ENTITY: ID` starts an entity, `SOURCE: PATH` names a resource file, `ACTION:
// verb (reason)` (or a bare verb) sets the action, any other key is an informational line. Every
// error is reported with its line ("error in scan report of ID, line N: ..."), and then the
// plugin's scan has failed. Beyond Holo, an entity ID that looks like a path (the spec forbids it)
// and an entity reported twice are errors too. Entities are sorted by ID, as Holo sorts them.
import * as E from 'fp-ts/lib/Either.js'
import * as WhiteSpace from '../../../core/WhiteSpace.js'
import * as Entity from './Entity.js'

// model

/** The most a scan may print on stdout (bytes). */
export const maxOutput = 16 * 1024 * 1024

const actionRx = /^([^()]+) \(([^\n]+)\)$/u

// interop

/** Reads the scan output of plugin `id`; `translate` turns a virtual resource path into the name a person knows (ResourcePath). */
export const parse = (id: string, stdout: string, translate: (s: string) => string = (s) => s): E.Either<ReadonlyArray<string>, ReadonlyArray<Entity.Entity>> => {
  if (stdout.length > maxOutput) return E.left([`error in scan report of ${id}: it is longer than ${maxOutput} bytes`])
  const errors: string[] = []
  const result: Entity.Entity[] = []
  type Mutable = { id: string; actionVerb: string; actionReason: string; sources: string[]; info: Entity.InfoLine[]; line: number }
  let current: Mutable | undefined
  const ids = new Map<string, number>()
  const close = (): void => {
    if (current === undefined) return
    const { line: _line, ...e } = current
    result.push(Entity.make({ plugin: id, ...e }))
  }
  // Go's strings.TrimSpace, walked by index: a regex trim is quadratic in white space inside the report (WhiteSpace.ts)
  for (const [idx, line] of WhiteSpace.trimGo(stdout).split('\n').entries()) {
    if (line === '') continue
    const intro = `error in scan report of ${id}, line ${idx + 1}`
    const m = parseLine(line)
    if (m === undefined) {
      errors.push(`${intro}: parse error (line was "${line}")`)
      continue
    }
    const { key, value } = m
    if (key === 'ENTITY') {
      close()
      current = { id: value, actionVerb: Entity.defaultVerb, actionReason: '', sources: [], info: [], line: idx + 1 }
      if (/^(\/|\.\.?\/|\.\.?$)/u.test(value)) errors.push(`${intro}: the entity ID "${value}" looks like a file system path, which the plugin interface forbids`)
      const first = ids.get(value)
      if (first !== undefined) errors.push(`${intro}: entity "${value}" was already reported at line ${first}`)
      else ids.set(value, idx + 1)
    } else if (current === undefined) {
      errors.push(`${intro}: expected entity ID, found attribute "${line}"`)
    } else if (key === 'SOURCE') {
      current.sources.push(translate(value))
    } else if (key === 'ACTION') {
      const a = actionRx.exec(value)
      current.actionVerb = a === null ? value : a[1]!
      current.actionReason = a === null ? '' : a[2]!
    } else {
      current.info.push({ key, value: translate(value) })
    }
  }
  close()
  if (errors.length > 0) return E.left(errors)
  return E.right([...result].sort((a, b) => Entity.compareIds(a.id, b.id)))
}

/** An entity's report as `holo scan --porcelain` prints it (Holo's reproduction of the scan report), ending in a newline. */
export const print = (e: Entity.Entity): string =>
  [
    `ENTITY: ${e.id}`,
    ...(e.actionReason !== '' ? [`ACTION: ${e.actionVerb} (${e.actionReason})`] : e.actionVerb !== Entity.defaultVerb ? [`ACTION: ${e.actionVerb}`] : []),
    ...e.sources.map((s) => `SOURCE: ${s}`),
    ...e.info.map((l) => `${l.key}: ${l.value}`),
  ].join('\n') + '\n'

/**
 * One line of a report as Holo's Go regexp `^\s*([^:]+): (.+)\s*$` reads it (`\s` is ASCII white
 * space, `.` anything but "\n", and the greedy value keeps trailing white space): its key and
 * value, or undefined where that regexp does not match. Read by hand, in time linear in the line:
 * as a JavaScript regexp, the leading `\s*` and the key both take spaces, so a long line of spaces
 * without a colon backtracks through every split of it (quadratic).
 */
export const parseLine = (line: string): { readonly key: string; readonly value: string } | undefined => {
  // the key holds no colon, so it ends at the first one, which ": " and a value without "\n" follow
  const colon = line.indexOf(':')
  if (colon < 1 || line.charCodeAt(colon + 1) !== 0x20 || colon + 2 === line.length || line.includes('\n', colon + 2)) return undefined
  let start = 0
  while (start < colon && WhiteSpace.goRegexp(line.charCodeAt(start))) start++
  // the key is at least one character: `\s*` gives back its last one when all before the colon is white space
  return { key: line.slice(start === colon ? colon - 1 : start, colon), value: line.slice(colon + 2) }
}
