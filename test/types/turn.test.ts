// A resource's turn in apply fails with a fault of its kind: a deferred value whose managed file is
// gone is NotFound, one whose file is not text is Failed; the description is the sentence the
// report shows (the executor prints it as it is), and the cause is the fault it comes from.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../src/compiler/compile.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Families from '../../src/interpreters/families.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { run } from '../../src/observe/run.js'
import * as Registry from '../../src/types/registry.js'
import { plan } from '../support/run.js'

const reader = (p: string) => (p === 'app/base.conf' ? E.right('on disk\n') : E.left(`open ${p}: no such file or directory`))
const attrs = '            owner: root\n            group: root\n            mode: "0644"\n'
const manifest = `ccm:
  resources:
    - file:
        - /etc/app/base.conf:
            content: "port = 1\\n"
${attrs}        - /etc/app/full.conf:
            content: "{{ readFile('app/base.conf') }}"
${attrs}    - exec:
        - x:
            command: "/bin/echo {{ readFile('app/base.conf') }}"
`

/** The plan of the manifest against an empty /etc/app, and a machine as it is at the resources' turn. */
const setup = async (atTurn: Readonly<Record<string, Snapshot.Node>>) => {
  const c = compile('m.yaml', manifest, '/srv/root/etc', { root: '/srv/root', readFile: reader })
  if (E.isLeft(c)) throw new Error(c.left.map(Diagnostic.render).join('\n'))
  const before = Snapshot.make({ '/etc/app': Snapshot.directory() })
  const after = Snapshot.make({ '/etc/app': Snapshot.directory(), ...atTurn })
  if (E.isLeft(before) || E.isLeft(after)) throw new Error('bad snapshot')
  const p = await plan(c.right, Memory.make(before.right))
  const machine = Memory.make(after.right)
  const accounts = await machine.accounts()()
  if (E.isLeft(accounts)) throw new Error(accounts.left.description)
  const turn = (id: string) => {
    const r = p.resources.find((x: Plan.ResourcePlan) => x.id === id)!
    return run(Registry.ofKind(r.kind).turn(r, { accounts: accounts.right, changed: () => true }), Families.requests({ machine }))
  }
  return turn
}

describe('a deferred value at its turn', () => {
  it('is NotFound when the managed file it reads is gone, caused by the read', async () => {
    const turn = await setup({})
    const r = await turn('file#/etc/app/full.conf')
    expect(E.isLeft(r) && r.left).toMatchObject({
      _tag: 'NotFound',
      module: 'file',
      op: 'turn',
      subject: 'file#/etc/app/full.conf',
      description: 'cannot work out the deferred content: /etc/app/base.conf is not a regular file (it does not exist)',
      cause: { _tag: 'NotFound', module: 'managed', op: 'read', subject: '/etc/app/base.conf' },
    })
    const x = await turn('exec#x')
    expect(E.isLeft(x) && x.left).toMatchObject({
      _tag: 'NotFound',
      module: 'exec',
      subject: 'exec#x',
      description: 'cannot work out the deferred command: /etc/app/base.conf is not a regular file (it does not exist)',
    })
  })

  it('is Failed when the managed file is not UTF-8 text', async () => {
    const turn = await setup({ '/etc/app/base.conf': Snapshot.file(new Uint8Array([0xff, 0xfe, 0x00])) })
    const r = await turn('file#/etc/app/full.conf')
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'Failed', description: 'cannot work out the deferred content: /etc/app/base.conf is not UTF-8 text' })
    const x = await turn('exec#x')
    expect(E.isLeft(x) && x.left).toMatchObject({ _tag: 'Failed', description: 'cannot work out the deferred command: /etc/app/base.conf is not UTF-8 text' })
  })

  it('works the values out when the file is there', async () => {
    const turn = await setup({ '/etc/app/base.conf': Snapshot.file('port = 2\n') })
    const r = await turn('file#/etc/app/full.conf')
    expect(E.isRight(r) && r.right.notes).toEqual(['content worked out after file#/etc/app/base.conf (9 bytes)'])
    const x = await turn('exec#x')
    expect(E.isRight(x) && x.right.notes[0]).toBe('worked out at its turn: /bin/echo port = 2\n')
  })
})
