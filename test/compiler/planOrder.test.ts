// The plan stage reads what observe found by position (Observations.inOrder) when the observations
// were made for the very catalog it plans; the plan is the one it makes reading them by id.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { Catalog } from '../../src/compiler/Catalog.js'
import * as Planner from '../../src/compiler/plan.js'
import { observe, type Observations } from '../../src/observe/observe.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import { catalogOf, hostFiles } from '../support/run.js'

const spec = (path: string, ensure: FileSpec['ensure'], content: FileSpec['content'] = { _tag: 'Unmanaged' }): FileSpec => ({
  _tag: 'file',
  id: `file#${path}`,
  path,
  at: { file: 'm.yaml', line: 1, col: 1 },
  ensure,
  content,
  owner: 'root',
  group: 'root',
  mode: ensure === 'directory' ? 0o755 : 0o644,
  force: false,
})

const catalog: Catalog = catalogOf([
  spec('/srv', 'directory'),
  spec('/srv/a', 'present', { _tag: 'Inline', text: 'same\n' }),
  spec('/srv/b', 'present', { _tag: 'Inline', text: 'new\n' }),
  spec('/srv/gone', 'present', { _tag: 'Source', written: 'files/gone', path: '/host/files/gone' }),
  spec('/srv/c', 'present', { _tag: 'Source', written: 'files/c', path: '/host/files/c' }),
  spec('/srv/x/y', 'present', { _tag: 'Inline', text: 'no parent\n' }),
  spec('/srv/old', 'absent'),
])

const observed = async (): Promise<Observations> => {
  const s = Snapshot.make({ '/srv': Snapshot.directory(), '/srv/a': Snapshot.file('same\n'), '/srv/b': Snapshot.file('old\n'), '/srv/old': Snapshot.file('x') })
  if (E.isLeft(s)) throw new Error(s.left)
  const o = await observe(catalog, Memory.make(s.right), hostFiles({ '/host/files/c': 'c\n' }), undefined, undefined, true)
  if (E.isLeft(o)) throw new Error('observe failed')
  return o.right
}

/** The same observations, read by id only. */
const byIdOnly = (o: Observations): Observations => ({ accounts: o.accounts, byId: o.byId, hosts: o.hosts, ...(o.failed !== undefined ? { failed: o.failed } : {}) })

const settings = { version: 'test', root: '/' }

describe('planning by position', () => {
  it('observe gives each observed resource its result in catalog order, and the same by id', async () => {
    const o = await observed()
    expect(o.inOrder?.resources).toBe(catalog.resources)
    expect(o.inOrder?.results).toHaveLength(catalog.resources.length)
    expect(o.failed?.has('file#/srv/gone')).toBe(true)
    catalog.resources.forEach((r, i) => {
      const result = o.inOrder!.results[i]!
      if (E.isRight(result)) expect(o.byId.get(r.id)).toBe(result.right)
      else expect(o.failed?.get(r.id)).toBe(result.left)
    })
  })

  it('plans as reading by id does, failures included', async () => {
    const o = await observed()
    const byPosition = Planner.planAll(catalog, o, settings)
    const byId = Planner.planAll(catalog, byIdOnly(o), settings)
    expect(byPosition).toEqual(byId)
    expect(byPosition.body.resources.map((r) => [r.id, r.action, r.failed])).toEqual([
      ['file#/srv', 'none', undefined],
      ['file#/srv/a', 'none', undefined],
      ['file#/srv/b', 'update', undefined],
      ['file#/srv/gone', 'none', 'cannot read source "files/gone" (/host/files/gone): no such file'],
      ['file#/srv/c', 'create', undefined],
      ['file#/srv/x/y', 'none', 'the parent directory /srv/x does not exist (add a file resource for /srv/x with ensure: directory before this one)'],
      ['file#/srv/old', 'delete', undefined],
    ])
  })

  it('reads by id the observations made for another catalog', async () => {
    const o = await observed()
    // the same resources reversed: by position each would get another's observation
    const other: Catalog = { ...catalog, resources: [...catalog.resources].reverse() }
    expect(Planner.planAll(other, o, settings)).toEqual(Planner.planAll(other, byIdOnly(o), settings))
  })
})
