// accounts: the pure parser of /etc/passwd and /etc/group text into the user and group database.
//
// Lines are `name:password:id:...`; blank lines, comments and NIS compat entries ("+", "-") are
// skipped, as are lines whose id is not a decimal number. The first entry of a name wins.
import type { Accounts } from '../Machine.js'
import * as AccountsTable from '../Accounts.js'

// model

/** One name → id entry of a database file. */
export interface Entry {
  readonly name: string
  readonly id: number
}

// constructors

/** The (name, id) entries of a passwd- or group-format text (the id is the third field in both). */
export const entries = (text: string): ReadonlyArray<Entry> => {
  const out: Entry[] = []
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.length === 0 || line.startsWith('#') || line.startsWith('+') || line.startsWith('-')) continue
    const fields = line.split(':')
    const name = fields[0]
    const id = fields[2]
    if (fields.length < 3 || name === undefined || name.length === 0 || id === undefined || !/^[0-9]{1,10}$/.test(id)) continue
    const n = Number(id)
    if (n > 0xffffffff) continue
    out.push({ name, id: n })
  }
  return out
}

/** Parses /etc/passwd and /etc/group text into the database. */
export const parse = (passwd: string, group: string): Accounts =>
  AccountsTable.make(
    entries(passwd).map((e) => [e.name, e.id] as const),
    entries(group).map((e) => [e.name, e.id] as const),
  )

// interop

/** Renders name → uid pairs as /etc/passwd lines (gid = uid, no home or shell of note). */
export const renderPasswd = (users: Readonly<Record<string, number>>): string =>
  Object.entries(users)
    .map(([name, id]) => `${name}:x:${id}:${id}::/nonexistent:/usr/sbin/nologin\n`)
    .join('')

/** Renders name → gid pairs as /etc/group lines. */
export const renderGroup = (groups: Readonly<Record<string, number>>): string =>
  Object.entries(groups)
    .map(([name, id]) => `${name}:x:${id}:\n`)
    .join('')
