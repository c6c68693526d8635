// Reading the files deferred values read: each failure is a fault of its kind (NotFound for a
// file that is gone), whose description is the sentence the report shows.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Families from '../../src/interpreters/families.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import { run } from '../../src/observe/run.js'
import * as Managed from '../../src/types/Managed.js'

const machine = () => {
  const s = Snapshot.make({ '/etc/app': Snapshot.directory(), '/etc/app/base.conf': Snapshot.file('port = 1\n'), '/etc/app/link': Snapshot.symlink('/etc/app/base.conf') })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right)
}
const families = () => Families.requests({ machine: machine() })

describe('Managed.read', () => {
  it("reads a regular file's bytes", async () => {
    const r = await run(Managed.read('/etc/app/base.conf'), families())
    expect(E.isRight(r) && new TextDecoder().decode(r.right)).toBe('port = 1\n')
  })

  it('fails with NotFound for a file that is not there, saying so as the report does', async () => {
    const r = await run(Managed.read('/etc/app/gone.conf'), families())
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'NotFound', module: 'managed', op: 'read', subject: '/etc/app/gone.conf', description: '/etc/app/gone.conf is not a regular file (it does not exist)' })
  })

  it('fails with IsADirectory for a directory, and Failed for a symbolic link', async () => {
    const dir = await run(Managed.read('/etc/app'), families())
    expect(E.isLeft(dir) && dir.left).toMatchObject({ _tag: 'IsADirectory', description: '/etc/app is not a regular file (directory)' })
    const link = await run(Managed.read('/etc/app/link'), families())
    expect(E.isLeft(link) && link.left).toMatchObject({ _tag: 'Failed', description: '/etc/app/link is not a regular file (symlink)' })
  })

  it("keeps a failed probe's kind, and the probe's fault as its cause", async () => {
    const r = await run(Managed.read('/etc/../etc/app/base.conf'), families())
    expect(E.isLeft(r)).toBe(true)
    if (E.isRight(r)) return
    const cause = r.left.cause as { _tag: string; op: string }
    expect(r.left._tag).toBe(cause._tag)
    expect(r.left.description).toMatch(/^cannot read \/etc\/\.\.\/etc\/app\/base\.conf: /)
    expect(r.left.description).toContain(`${cause.op} `)
  })
})

describe('Managed.readAll and readSome', () => {
  it('readAll stops at the first file that cannot be read, with its fault', async () => {
    const r = await run(Managed.readAll({ 'app/base.conf': '/etc/app/base.conf', 'app/gone.conf': '/etc/app/gone.conf' }), families())
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: 'NotFound', subject: '/etc/app/gone.conf' })
    const ok = await run(Managed.readAll({ 'app/base.conf': '/etc/app/base.conf' }), families())
    expect(E.isRight(ok) && [...ok.right.keys()]).toEqual(['app/base.conf'])
  })

  it('readSome leaves out the files that cannot be read', async () => {
    const m = await run(Managed.readSome(['/etc/app/base.conf', '/etc/app/gone.conf', '/etc/app']), families())
    expect([...m.keys()]).toEqual(['/etc/app/base.conf'])
  })
})
