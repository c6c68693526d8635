// Resolving a file's owner and group at plan time and at a deferred resource's turn: a name the
// account database does not hold is NotFound, with the sentence the diagnostic shows.
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
