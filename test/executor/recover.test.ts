// recover: an unfinished run's journal is rolled back and cleared; a damaged or unreadable one is
// refused and kept; a failed undo keeps the journal (in process, on the memory machine).
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Recover from '../../src/executor/recover.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'

const state = '/state'
const journal = `${state}/journal`
const lines = (...rs: unknown[]): string => rs.map((r) => JSON.stringify(r) + '\n').join('')
const run = { _tag: 'run', plan: 'sha256:x', atomic: false, pid: 42 }
const machine = (files: Record<string, Snapshot.Node>, options: Memory.Options = {}) => {
  const s = Snapshot.make({ [state]: Snapshot.directory(), ...files })
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right, options)
}

describe('Recover', () => {
  it('finds nothing to do without a journal, and clears nothing then', async () => {
    const m = machine({ '/srv': Snapshot.directory() })
    expect(await Recover.inspect(m, state)).toEqual({ _tag: 'Clean' })
    expect(await Recover.pending(m, state)).toBeUndefined()
    expect(await Recover.recover(m, state)).toEqual(E.right([]))
  })

  it('rolls back every step newest first, says what it did, and clears the journal and backups', async () => {
    const m = machine({
      '/srv': Snapshot.directory(),
      '/srv/new': Snapshot.file('made by the run'),
      '/srv/old': Snapshot.file('changed by the run'),
      [`${state}/backups`]: Snapshot.directory(),
      [`${state}/backups/2`]: Snapshot.file('as it was'),
      [journal]: Snapshot.file(
        lines(
          run,
          { _tag: 'resource', id: 'file#/srv/new' },
          { _tag: 'step', seq: 1, id: 'file#/srv/new', what: 'write /srv/new', undo: { _tag: 'Remove', paths: ['/srv/new'] } },
          { _tag: 'done', seq: 1 },
          { _tag: 'step', seq: 2, id: 'file#/srv/old', what: 'write /srv/old', undo: { _tag: 'Restore', path: '/srv/old', backup: `${state}/backups/2` } },
          { _tag: 'step', seq: 3, id: 'exec#x', what: 'run x', undo: { _tag: 'Irreversible', reason: 'a command cannot be undone' } },
        ),
      ),
    })
    expect((await Recover.pending(m, state))?.steps.map((s) => s.seq)).toEqual([1, 2, 3])
    expect(await Recover.recover(m, state)).toEqual(E.right(['exec#x: cannot undo run x: it is irreversible', 'file#/srv/old: undid write /srv/old', 'file#/srv/new: undid write /srv/new']))
    const after = m.snapshot()
    expect(Snapshot.text(after, '/srv/old')).toBe('as it was')
    expect(after.files['/srv/new']).toBeUndefined()
    expect(after.files[journal]).toBeUndefined()
    expect(after.files[`${state}/backups`]).toBeUndefined()
    expect(await Recover.inspect(m, state)).toEqual({ _tag: 'Clean' })
  })

  it('says "nothing to undo" for a step that had not changed anything', async () => {
    const m = machine({ '/srv': Snapshot.directory(), [journal]: Snapshot.file(lines(run, { _tag: 'step', seq: 1, id: 'file#/srv/new', what: 'write /srv/new', undo: { _tag: 'Remove', paths: ['/srv/new'] } })) })
    expect(await Recover.recover(m, state)).toEqual(E.right(['file#/srv/new: nothing to undo: write /srv/new had not changed anything']))
  })

  it('refuses a damaged journal, saying where, and keeps it', async () => {
    const text = lines(run) + 'garbage\n' + lines({ _tag: 'commit' })
    const m = machine({ [journal]: Snapshot.file(text) })
    const r = await Recover.recover(m, state)
    expect(E.isLeft(r) && r.left).toMatchObject({
      code: 'Recovery',
      message: `the journal ${journal} is damaged at line 2 (not a JSON record): plait cannot tell what the unfinished run changed`,
      hint: `the journal and the backups in ${state}/backups are kept; put back what needs it, then remove the journal and apply again`,
    })
    expect(Snapshot.text(m.snapshot(), journal)).toBe(text)
    expect(await Recover.pending(m, state)).toBeUndefined()
  })

  it('calls an unreadable journal damaged, without a line', async () => {
    const m = machine({ [journal]: Snapshot.directory() })
    const reading = await Recover.inspect(m, state)
    expect(reading).toMatchObject({ _tag: 'Damaged', line: 0, reason: expect.stringMatching(/^it cannot be read: /) })
    const r = await Recover.recover(m, state)
    expect(E.isLeft(r) && r.left.message).toMatch(new RegExp(`^the journal ${journal} is damaged \\(it cannot be read: `))
  })

  it('keeps the journal when an undo fails, naming the step and the run', async () => {
    const text = lines(run, { _tag: 'step', seq: 1, id: 'file#/srv/a', what: 'write /srv/a', undo: { _tag: 'Remove', paths: ['/srv/a'] } })
    const m = machine({ '/srv': Snapshot.directory(), '/srv/a': Snapshot.file('x'), [journal]: Snapshot.file(text) }, { denied: ['/srv'] })
    const r = await Recover.recover(m, state)
    expect(E.isLeft(r) && r.left).toMatchObject({ code: 'Recovery', resource: 'file#/srv/a', message: expect.stringMatching(/^cannot roll back the unfinished run of pid 42 at write \/srv\/a: /), hint: `the journal is kept in ${journal}; fix the cause and run apply again` })
    expect(Snapshot.text(m.snapshot(), journal)).toBe(text)
  })
})
