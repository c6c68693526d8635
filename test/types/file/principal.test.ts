// Resolving a file's owner and group at plan time and at a deferred resource's turn: a name the
// account database does not hold is NotFound, with the sentence the diagnostic shows.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Accounts } from '../../../src/core/Probe.js'
import * as FilePlan from '../../../src/types/file/plan.js'

const accounts: Accounts = {
  users: new Map([['root', 0], ['app', 1000]]),
  groups: new Map([['root', 0], ['app', 1000]]),
  userNames: new Map([[0, 'root'], [1000, 'app']]),
  groupNames: new Map([[0, 'root'], [1000, 'app']]),
}

describe('FilePlan.resolvePrincipal', () => {
  it('resolves a name, and a numeric id by its name when it has one', () => {
    expect(FilePlan.resolvePrincipal('owner', 'app', accounts)).toEqual(E.right({ name: 'app', id: 1000 }))
    expect(FilePlan.resolvePrincipal('group', '0', accounts)).toEqual(E.right({ name: 'root', id: 0 }))
  })

  it('is NotFound for an unknown user or group', () => {
    expect(FilePlan.resolvePrincipal('owner', 'ghost', accounts)).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound', op: 'owner', subject: 'ghost', description: 'could not look up user "ghost"' })))
    expect(FilePlan.resolvePrincipal('group', 'ghosts', accounts)).toEqual(E.left(expect.objectContaining({ _tag: 'NotFound', op: 'group', subject: 'ghosts', description: 'could not look up group "ghosts"' })))
  })
})

/** Other accounts, where `app` is another id and `ops` exists. */
const other: Accounts = {
  users: new Map([['root', 0], ['app', 2000], ['ops', 3000]]),
  groups: new Map([['root', 0], ['ops', 3000]]),
  userNames: new Map([[0, 'root'], [2000, 'app'], [3000, 'ops']]),
  groupNames: new Map([[0, 'root'], [3000, 'ops']]),
}

describe('FilePlan.principals', () => {
  fcTest.prop([fc.array(fc.tuple(fc.constantFrom('owner' as const, 'group' as const), fc.constantFrom('root', 'app', 'ops', 'ghost', '0', '1000', '3000'), fc.boolean()), { maxLength: 40 })])(
    'answers as resolvePrincipal does, whatever was asked before and of whichever accounts',
    (asks) => {
      const resolve = FilePlan.principals()
      for (const [kind, text, first] of asks) {
        const a = first ? accounts : other
        expect(resolve(kind, text, a)).toEqual(FilePlan.resolvePrincipal(kind, text, a))
      }
    },
  )

  it('resolves a name once for a run: every resource gets the same principal', () => {
    const resolve = FilePlan.principals()
    expect(resolve('owner', 'app', accounts)).toBe(resolve('owner', 'app', accounts))
    expect(resolve('owner', 'app', accounts)).not.toBe(resolve('group', 'app', accounts))
  })
})
