// Accounts: the user and group database of a machine, built from name → id tables.
import type { Accounts } from './Machine.js'

// constructors

/** Builds the database from (name, id) pairs; the first pair of a name or an id wins, as getpwnam/getpwuid do. */
export const make = (users: Iterable<readonly [string, number]>, groups: Iterable<readonly [string, number]>): Accounts => {
  const table = (pairs: Iterable<readonly [string, number]>) => {
    const ids = new Map<string, number>()
    const names = new Map<number, string>()
    for (const [name, id] of pairs) {
      if (!ids.has(name)) ids.set(name, id)
      if (!names.has(id)) names.set(id, name)
    }
    return { ids, names }
  }
  const u = table(users)
  const g = table(groups)
  return Object.freeze({ users: u.ids, groups: g.ids, userNames: u.names, groupNames: g.names })
}

/** Builds the database from plain records (name → id), in key order. */
export const fromRecords = (users: Readonly<Record<string, number>>, groups: Readonly<Record<string, number>>): Accounts =>
  make(Object.entries(users), Object.entries(groups))
