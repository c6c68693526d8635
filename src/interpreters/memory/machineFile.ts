// machineFile: a readable text format of a whole machine (accounts and files), for golden tests,
// demos and fixtures. Pure: parse gives a Snapshot or says what is wrong, render gives the text back.
//
//   users: { root: 0, app: 1000 }
//   groups: { root: 0, app: 1000 }
//   files:
//     /etc: { type: directory, owner: root, group: root, mode: "0755" }
//     /etc/motd: { content: "hello\n", owner: app, group: app, mode: "0644" }
//     /etc/logo.bin: { base64: "AAEC", owner: 0, group: 0, mode: "0600" }
//     /etc/current: { type: symlink, target: /etc/motd }
//
// `type` defaults to file; owner and group are names from users/groups or numeric ids (default
// root: 0); mode is a quoted CCM mode (default "0644" for files, "0755" otherwise). Directories not
// listed are implied as root:root 0755. Without `users`/`groups` the default accounts apply.
import * as E from 'fp-ts/lib/Either.js'
import * as YAML from 'yaml'
import * as Mode from '../../core/Mode.js'
import * as Snapshot from '../Snapshot.js'

type Plain = Readonly<Record<string, unknown>>

const isMap = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v)

const onlyKeys = (where: string, value: Plain, allowed: ReadonlyArray<string>): string | undefined => {
  const unknown = Object.keys(value).filter((k) => !allowed.includes(k))
  return unknown.length === 0 ? undefined : `${where}: unknown key "${unknown[0]}" (expected one of ${allowed.join(', ')})`
}

const ids = (where: string, value: unknown, fallback: Readonly<Record<string, number>>): E.Either<string, Readonly<Record<string, number>>> => {
  if (value === undefined) return E.right(fallback)
  if (!isMap(value)) return E.left(`${where}: expected a map of names to ids`)
  for (const [name, id] of Object.entries(value)) {
    if (!Number.isSafeInteger(id) || (id as number) < 0 || (id as number) > 0xffffffff) return E.left(`${where}.${name}: expected an id (a non-negative integer), got ${String(id)}`)
  }
  return E.right(value as Record<string, number>)
}

const owner = (where: string, value: unknown, table: Readonly<Record<string, number>>): E.Either<string, number> => {
  if (value === undefined) return E.right(0)
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return E.right(value)
  if (typeof value === 'string' && Object.hasOwn(table, value)) return E.right(table[value]!)
  return E.left(`${where}: unknown name ${JSON.stringify(value)} (not in the machine's table, and not a numeric id)`)
}

const mode = (where: string, value: unknown, fallback: number): E.Either<string, number> => {
  if (value === undefined) return E.right(fallback)
  if (typeof value !== 'string') return E.left(`${where}: a mode must be a quoted string like "0644" (an unquoted 0644 is the decimal number 644)`)
  return E.mapLeft((m: string) => `${where}: ${m}`)(Mode.parse(value))
}

const node = (path: string, value: unknown, users: Readonly<Record<string, number>>, groups: Readonly<Record<string, number>>): E.Either<string, Snapshot.Node> => {
  const where = `files.${path}`
  if (!isMap(value)) return E.left(`${where}: expected a map like { type: file, content: "...", owner: root, mode: "0644" }`)
  const type = value['type'] ?? 'file'
  const allowed: Readonly<Record<string, ReadonlyArray<string>>> = {
    file: ['type', 'content', 'base64', 'owner', 'group', 'mode'],
    directory: ['type', 'owner', 'group', 'mode'],
    symlink: ['type', 'target', 'owner', 'group'],
    other: ['type', 'owner', 'group', 'mode'],
  }
  const keys = allowed[String(type)]
  if (keys === undefined) return E.left(`${where}.type: expected file, directory, symlink or other, got ${JSON.stringify(type)}`)
  const unknown = onlyKeys(where, value, keys)
  if (unknown !== undefined) return E.left(unknown)
  const uid = owner(`${where}.owner`, value['owner'], users)
  if (E.isLeft(uid)) return uid
  const gid = owner(`${where}.group`, value['group'], groups)
  if (E.isLeft(gid)) return gid
  const m = mode(`${where}.mode`, value['mode'], type === 'file' ? 0o644 : 0o755)
  if (E.isLeft(m)) return m
  const attrs = { uid: uid.right, gid: gid.right, mode: m.right }
  switch (type) {
    case 'file': {
      const { content, base64 } = value
      if (content !== undefined && base64 !== undefined) return E.left(`${where}: give content or base64, not both`)
      if (content !== undefined && typeof content !== 'string') return E.left(`${where}.content: expected a string`)
      if (base64 !== undefined && (typeof base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0)) {
        return E.left(`${where}.base64: expected base64 text`)
      }
      return E.right(Snapshot.file(base64 !== undefined ? Buffer.from(base64 as string, 'base64') : ((content as string | undefined) ?? ''), attrs))
    }
    case 'symlink': {
      const target = value['target']
      if (typeof target !== 'string' || target.length === 0) return E.left(`${where}.target: a symlink needs a target (a non-empty string)`)
      return E.right(Snapshot.symlink(target, attrs))
    }
    case 'directory':
      return E.right(Snapshot.directory(attrs))
    default:
      return E.right(Object.freeze({ kind: 'other', ...attrs }))
  }
}

/** Parses a machine file into a snapshot, or says (with the key's path) what is wrong. */
export const parse = (text: string): E.Either<string, Snapshot.Snapshot> => {
  const doc = YAML.parseDocument(text, { uniqueKeys: true })
  if (doc.errors.length > 0) return E.left(`machine file: ${doc.errors[0]!.message}`)
  const top: unknown = doc.toJS() ?? {}
  if (!isMap(top)) return E.left('machine file: expected a map with users, groups and files')
  const unknown = onlyKeys('machine file', top, ['users', 'groups', 'files'])
  if (unknown !== undefined) return E.left(unknown)
  const users = ids('users', top['users'], Snapshot.defaultUsers)
  if (E.isLeft(users)) return users
  const groups = ids('groups', top['groups'], Snapshot.defaultGroups)
  if (E.isLeft(groups)) return groups
  const files = top['files'] ?? {}
  if (!isMap(files)) return E.left('files: expected a map of paths to entries')
  const nodes: Record<string, Snapshot.Node> = {}
  for (const [path, value] of Object.entries(files)) {
    const n = node(path, value, users.right, groups.right)
    if (E.isLeft(n)) return n
    nodes[path] = n.right
  }
  return E.mapLeft((m: string) => `files: ${m}`)(Snapshot.make(nodes, { users: users.right, groups: groups.right }))
}

// interop

/** Whether a code point may stand for itself inside a YAML double-quoted scalar (c-printable, not a line break or BOM). */
const printable = (c: number): boolean =>
  (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff && c !== 0x2028 && c !== 0x2029) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) || c >= 0x10000

const escapes: Readonly<Record<number, string>> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' }

/** A YAML double-quoted scalar holding exactly `s` (never folded, every non-printable escaped). */
const quoted = (s: string): string => {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    out +=
      escapes[c] ??
      (printable(c) ? ch : c <= 0xff ? '\\x' + c.toString(16).padStart(2, '0') : c <= 0xffff ? '\\u' + c.toString(16).padStart(4, '0') : '\\U' + c.toString(16).padStart(8, '0'))
  }
  return out + '"'
}

/** A key or name: plain when it cannot be read as anything else, double-quoted otherwise. */
const key = (s: string): string => (/^[A-Za-z_/][A-Za-z0-9_./@+-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(s) ? s : quoted(s))

const table = (r: Readonly<Record<string, number>>): string => {
  const entries = Object.entries(r).sort(([a], [b]) => Snapshot.compare(a, b))
  return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${key(k)}: ${v}`).join(', ')} }`
}

const namesOf = (r: Readonly<Record<string, number>>): ReadonlyMap<number, string> => {
  const out = new Map<number, string>()
  for (const [name, id] of Object.entries(r).sort(([a], [b]) => Snapshot.compare(a, b))) if (!out.has(id)) out.set(id, name)
  return out
}

/** The bytes as text when they are UTF-8 that decodes and encodes back to themselves. */
const asText = (base64: string): string | undefined => {
  const bytes = Buffer.from(base64, 'base64')
  const text = bytes.toString('utf8')
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined
}

/** Renders a snapshot as a machine file; parse(render(s)) equals s. */
export const render = (snapshot: Snapshot.Snapshot): string => {
  const userNames = namesOf(snapshot.users)
  const groupNames = namesOf(snapshot.groups)
  const name = (names: ReadonlyMap<number, string>, id: number): string => {
    const n = names.get(id)
    return n === undefined ? String(id) : key(n)
  }
  const who = (uid: number, gid: number): string => `owner: ${name(userNames, uid)}, group: ${name(groupNames, gid)}`
  const lines = [`users: ${table(snapshot.users)}`, `groups: ${table(snapshot.groups)}`]
  const files: string[] = []
  for (const [path, n] of Object.entries(snapshot.files)) {
    if (path === '/' && n.kind === 'directory' && n.uid === 0 && n.gid === 0 && n.mode === 0o755) continue
    let fields: ReadonlyArray<string>
    if (n.kind === 'file') {
      const text = asText(n.base64)
      fields = [text !== undefined ? `content: ${quoted(text)}` : `base64: "${n.base64}"`, who(n.uid, n.gid), `mode: "${Mode.format(n.mode)}"`]
    } else if (n.kind === 'symlink') fields = ['type: symlink', `target: ${quoted(n.target)}`, who(n.uid, n.gid)]
    else fields = [`type: ${n.kind}`, who(n.uid, n.gid), `mode: "${Mode.format(n.mode)}"`]
    files.push(`  ${key(path)}: { ${fields.join(', ')} }`)
  }
  lines.push(files.length === 0 ? 'files: {}' : 'files:', ...files)
  return lines.join('\n') + '\n'
}
