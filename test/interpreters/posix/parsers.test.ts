import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as Accounts from '../../../src/interpreters/posix/accounts.js'
import * as Proc from '../../../src/interpreters/posix/proc.js'

const accountName = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,15}$/)
const id = fc.integer({ min: 0, max: 0xfffffffe })

describe('accounts.parse', () => {
  it('reads passwd and group files, skipping comments, blanks, NIS entries and malformed lines', () => {
    const passwd = ['root:x:0:0:root:/root:/bin/bash', '# comment', '', '+nis::::::', 'bad:x:notanumber:0::/:/bin/sh', 'short:x', 'app:x:1000:1000:App,,,:/home/app:/bin/bash', 'root:x:5:5:second root:/:/bin/sh\r', 'alias:x:1000:1000::/:/bin/sh'].join('\n')
    const group = 'root:x:0:\napp:x:1000:alice,bob\n-legacy\n'
    const a = Accounts.parse(passwd, group)
    expect([...a.users]).toEqual([
      ['root', 0],
      ['app', 1000],
      ['alias', 1000],
    ])
    expect(a.userNames.get(1000)).toBe('app')
    expect(a.userNames.get(5)).toBe('root') // as getpwuid(5) finds that line, though getpwnam('root') gives 0
    expect([...a.groups]).toEqual([
      ['root', 0],
      ['app', 1000],
    ])
    expect(a.groupNames.get(0)).toBe('root')
  })

  fcTest.prop([fc.uniqueArray(fc.tuple(accountName, id, fc.string().map((s) => s.replace(/[:\n\r]/g, ''))), { selector: ([n]) => n, maxLength: 20 })])(
    'recovers every name and id of generated passwd lines',
    (entries) => {
      const text = entries.map(([n, i, gecos]) => `${n}:x:${i}:${i}:${gecos}:/home/${n}:/bin/sh\n`).join('')
      const a = Accounts.parse(text, '')
      expect([...a.users]).toEqual(entries.map(([n, i]) => [n, i]))
      for (const [, i] of entries) expect(a.userNames.get(i)).toBe(entries.find(([, j]) => j === i)![0])
          },
  )

  fcTest.prop([fc.dictionary(accountName, id, { maxKeys: 10 })])('reads back what renderPasswd and renderGroup write', (table) => {
    const a = Accounts.parse(Accounts.renderPasswd(table), Accounts.renderGroup(table))
    expect(Object.fromEntries(a.users)).toEqual(table)
    expect(Object.fromEntries(a.groups)).toEqual(table)
  })
})

describe('proc.parse', () => {
  const stat = (comm: string, start: string) =>
    `4242 (${comm}) S 1 4242 4242 0 -1 4194560 1000 0 0 0 12 3 0 0 20 0 1 0 ${start} 12345678 2000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n`

  it('reads field 22 as the start time', () => {
    expect(Proc.parse(stat('node', '987654'))).toEqual(E.right({ pid: 4242, comm: 'node', state: 'S', startTime: '987654' }))
  })

  it('counts fields after the last ")" so a comm with spaces and parentheses does not shift them', () => {
    expect(Proc.startTime(stat('a) b (c) 1 2 3', '555'))).toEqual(E.right('555'))
  })

  it('refuses text that is not a stat line', () => {
    expect(E.isLeft(Proc.parse(''))).toBe(true)
    expect(E.isLeft(Proc.parse('12 (x) S 1 2'))).toBe(true)
    expect(E.isLeft(Proc.parse('x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20'))).toBe(true)
  })

  fcTest.prop([fc.string({ maxLength: 16 }).filter((s) => !s.includes('\n')), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })])(
    'recovers comm and start time whatever the comm holds',
    (comm, start) => {
      const parsed = Proc.parse(stat(comm, String(start)))
      expect(parsed).toEqual(E.right({ pid: 4242, comm, state: 'S', startTime: String(start) }))
    },
  )
})
