// Passwd: the user and group records goss's user and group rules read, parsed from /etc/passwd
// and /etc/group text (pure). Malformed lines are skipped, as the C library skips them.

// model

export interface User {
  readonly name: string
  readonly uid: number
  readonly gid: number
  readonly home: string
  readonly shell: string
}

export interface Group {
  readonly name: string
  readonly gid: number
  readonly members: ReadonlyArray<string>
}

const id = (s: string | undefined): number | undefined => (s !== undefined && /^\d{1,10}$/.test(s) ? Number(s) : undefined)

// parsing

/** The users of a passwd file (name:x:uid:gid:gecos:home:shell), in file order. */
export const users = (text: string): ReadonlyArray<User> =>
  text.split('\n').flatMap((line) => {
    const f = line.split(':')
    const uid = id(f[2])
    const gid = id(f[3])
    return f.length === 7 && f[0] !== '' && uid !== undefined && gid !== undefined ? [{ name: f[0] as string, uid, gid, home: f[5] as string, shell: f[6] as string }] : []
  })

/** The groups of a group file (name:x:gid:member,member), in file order. */
export const groups = (text: string): ReadonlyArray<Group> =>
  text.split('\n').flatMap((line) => {
    const f = line.split(':')
    const gid = id(f[2])
    return f.length === 4 && f[0] !== '' && gid !== undefined ? [{ name: f[0] as string, gid, members: (f[3] as string).split(',').filter((m) => m !== '') }] : []
  })

/** The names of a user's groups: its primary group, then every group listing it as a member (each once). */
export const groupsOf = (user: User, all: ReadonlyArray<Group>): ReadonlyArray<string> => {
  const primary = all.find((g) => g.gid === user.gid)?.name
  const names = [...(primary !== undefined ? [primary] : []), ...all.filter((g) => g.members.includes(user.name)).map((g) => g.name)]
  return [...new Set(names)]
}

/** The users and groups of a machine indexed for lookups: goss's user and group rules ask one name each, of files that may hold tens of thousands of entries. */
export interface Accounts {
  /** The first user of a name, as a search of the file finds it. */
  readonly user: (name: string) => User | undefined
  /** The first group of a name. */
  readonly group: (name: string) => Group | undefined
  /** `groupsOf(user, groups)`, from maps made once. */
  readonly groupsOf: (user: User) => ReadonlyArray<string>
}

/** Indexes the users and groups once (each lookup a search of the lists made every rule of a check cost the rules times the entries). */
export const index = (users: ReadonlyArray<User>, groups: ReadonlyArray<Group>): Accounts => {
  const firstBy = <A, K>(xs: ReadonlyArray<A>, key: (x: A) => K): Map<K, A> => {
    const m = new Map<K, A>()
    for (const x of xs) if (!m.has(key(x))) m.set(key(x), x)
    return m
  }
  const usersByName = firstBy(users, (u) => u.name)
  const groupsByName = firstBy(groups, (g) => g.name)
  const groupsByGid = firstBy(groups, (g) => g.gid)
  // member name → the groups listing it, in file order
  const memberOf = new Map<string, string[]>()
  for (const g of groups) {
    for (const m of new Set(g.members)) {
      const names = memberOf.get(m)
      if (names === undefined) memberOf.set(m, [g.name])
      else names.push(g.name)
    }
  }
  return {
    user: (name) => usersByName.get(name),
    group: (name) => groupsByName.get(name),
    groupsOf: (user) => {
      const primary = groupsByGid.get(user.gid)?.name
      return [...new Set([...(primary !== undefined ? [primary] : []), ...(memberOf.get(user.name) ?? [])])]
    },
  }
}
