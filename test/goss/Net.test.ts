// Net: listening sockets from /proc/net tables, and the names of port and addr rules.
import { describe, expect, it } from 'vitest'
import * as Net from '../../src/goss/Net.js'
import * as Passwd from '../../src/goss/Passwd.js'

const tcp = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0
   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0 100 0 0 10 0
   2: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 100 0 0 10 0
`
const tcp6 = `  sl  local_address                         remote_address                        st
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000
   1: 00000000000000000000000000000000:0016 00000000000000000000000000000000:0000 0A 00000000:00000000
   2: B80D0120000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000
`

describe('listening sockets', () => {
  it('are the LISTEN rows of a tcp table, with dotted addresses and decimal ports', () => {
    expect(Net.listeners('tcp', tcp)).toEqual([
      { proto: 'tcp', ip: '127.0.0.1', port: 8080 },
      { proto: 'tcp', ip: '0.0.0.0', port: 22 },
    ])
  })
  it('read IPv6 addresses in their compressed form', () => {
    expect(Net.listeners('tcp6', tcp6).map((l) => `${l.ip} ${l.port}`)).toEqual(['::1 8080', ':: 22', '2001:db8::1 80'])
  })
  it('skip rows that are not sockets', () => {
    expect(Net.listeners('udp', 'header\ngarbage\n   0: zz:zz 00 07\n')).toEqual([])
  })
})

describe('rule names', () => {
  it.each([
    ['tcp:22', { protos: ['tcp', 'tcp6'], port: 22 }],
    ['tcp6:80', { protos: ['tcp6'], port: 80 }],
    ['udp:53', { protos: ['udp', 'udp6'], port: 53 }],
    ['443', { protos: ['tcp', 'tcp6'], port: 443 }],
    ['tcp:70000', undefined],
    ['sctp:1', undefined],
  ])('port %s', (name, expected) => {
    expect(Net.portName(name)).toEqual(expected)
  })
  it.each([
    ['tcp://127.0.0.1:80', { proto: 'tcp', host: '127.0.0.1', port: 80 }],
    ['tcp://[::1]:8080', { proto: 'tcp', host: '::1', port: 8080 }],
    ['udp://dns:53', { proto: 'udp', host: 'dns', port: 53 }],
    ['http://x:80', undefined],
    ['tcp://x', undefined],
  ])('addr %s', (name, expected) => {
    expect(Net.addrName(name)).toEqual(expected)
  })
})

describe('passwd and group files', () => {
  const passwd = 'root:x:0:0:root:/root:/bin/bash\nbob:x:1000:1000:Bob:/home/bob:/bin/zsh\nbroken:x:abc:0::/:/bin/sh\n'
  const group = 'root:x:0:\nbob:x:1000:\nwheel:x:10:bob,alice\nbad line\n'
  it('give users and groups, skipping malformed lines', () => {
    expect(Passwd.users(passwd).map((u) => u.name)).toEqual(['root', 'bob'])
    expect(Passwd.groups(group)).toEqual([
      { name: 'root', gid: 0, members: [] },
      { name: 'bob', gid: 1000, members: [] },
      { name: 'wheel', gid: 10, members: ['bob', 'alice'] },
    ])
  })
  it("give a user's groups: its primary group, then those listing it", () => {
    const bob = Passwd.users(passwd)[1]!
    expect(Passwd.groupsOf(bob, Passwd.groups(group))).toEqual(['bob', 'wheel'])
  })
})
