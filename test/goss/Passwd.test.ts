// Passwd.index: goss's user and group rules look names up in maps made once per try of a check;
// each rule used to search the lists, and re-read and re-parse both files (8,000 user rules took
// 215 s). The index answers what the searches did, repeated names and members included.
import { fc, test } from '@fast-check/vitest'
import { expect } from 'vitest'
import * as Passwd from '../../src/goss/Passwd.js'

const name = fc.constantFrom('root', 'bob', 'alice', 'www', 'db', 'x')
const user = fc.record({ name, uid: fc.nat(5), gid: fc.nat(5), home: fc.constantFrom('/root', '/home/x'), shell: fc.constantFrom('/bin/sh', '/bin/bash') })
const group = fc.record({ name, gid: fc.nat(5), members: fc.array(name, { maxLength: 4 }) })

test.prop([fc.array(user, { maxLength: 8 }), fc.array(group, { maxLength: 8 })])('finds the users and groups, and a user\'s groups, as searching the lists does', (users, groups) => {
  const index = Passwd.index(users, groups)
  for (const n of ['root', 'bob', 'alice', 'www', 'db', 'x', 'nobody']) {
    expect(index.user(n)).toBe(users.find((u) => u.name === n))
    expect(index.group(n)).toBe(groups.find((g) => g.name === n))
  }
  for (const u of users) expect(index.groupsOf(u)).toEqual(Passwd.groupsOf(u, groups))
})
