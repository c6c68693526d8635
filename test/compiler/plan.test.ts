// The catalog planner's cross-resource check: a resource's parent directory must exist when its
// turn comes, given what the machine has and what earlier resources of the manifest do.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Snapshot from '../../src/interpreters/Snapshot.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import type { FileSpec } from '../../src/types/file/Spec.js'
import { catalogOf, planE } from '../support/run.js'

const spec = (path: string, ensure: FileSpec['ensure'] = 'present'): FileSpec => ({
  _tag: "file",
  id: `file#${path}`,
  path,
  at: { file: 'm.yaml', line: 1, col: 1 },
  ensure,
  content: { _tag: 'Unmanaged' },
  owner: 'root',
  group: 'root',
  mode: ensure === 'directory' ? 0o755 : 0o644,
  force: ensure === 'absent',
})

const machine = (files: Record<string, Snapshot.Node>) => {
  const s = Snapshot.make(files)
  if (E.isLeft(s)) throw new Error(s.left)
  return Memory.make(s.right)
}

const messages = async (specs: FileSpec[], files: Record<string, Snapshot.Node> = {}): Promise<string[]> => {
  const r = await planE(catalogOf(specs), machine(files))
  return E.isLeft(r) ? r.left.map((d) => `${d.resource}: ${d.message}`) : []
}

describe('parent directories', () => {
  it('plans a file whose parent exists', async () => {
    expect(await messages([spec('/etc/x')], { '/etc': Snapshot.directory() })).toEqual([])
  })

  it('refuses a file whose parent does not exist, naming the parent', async () => {
    expect(await messages([spec('/etc/app/x')], { '/etc': Snapshot.directory() })).toEqual(['file#/etc/app/x: the parent directory /etc/app does not exist'])
  })

  it('plans a file whose parent an earlier directory resource creates, with missing ancestors too', async () => {
    expect(await messages([spec('/srv/a/b', 'directory'), spec('/srv/a/b/x'), spec('/srv/a/y')])).toEqual([])
  })

  it('an earlier directory resource deeper down does not vouch for a sibling parent', async () => {
    expect(await messages([spec('/etc/app/newdir', 'directory'), spec('/etc/app/blocker/x')], { '/etc': Snapshot.directory(), '/etc/app': Snapshot.directory(), '/etc/app/blocker': Snapshot.file('') })).toEqual([
      'file#/etc/app/blocker/x: the parent /etc/app/blocker is not a directory',
    ])
  })

  it('refuses a file below a regular file', async () => {
    expect(await messages([spec('/a/x')], { '/a': Snapshot.file('in the way') })).toEqual(['file#/a/x: the parent /a is not a directory'])
  })

  it('plans a directory whose parents are missing (mkdir -p)', async () => {
    expect(await messages([spec('/opt/a/b/c', 'directory')])).toEqual([])
  })

  it('refuses a resource below a directory an earlier resource removes', async () => {
    const files = { '/srv': Snapshot.directory(), '/srv/x': Snapshot.file('x') }
    expect(await messages([spec('/srv', 'absent'), spec('/srv/x')], files)).toEqual(['file#/srv/x: /srv is removed by file#/srv, which runs earlier, so /srv/x has nowhere to go'])
  })

  it('refuses a resource below a path an earlier resource makes a file', async () => {
    expect(await messages([spec('/a'), spec('/a/x')])).toEqual(['file#/a/x: /a is made a file by file#/a, which runs earlier, so /a/x cannot be below it'])
  })

  it('does not check the parent of a resource being removed', async () => {
    expect(await messages([spec('/nowhere/x', 'absent')])).toEqual([])
  })

  it('gives every error a position and a hint', async () => {
    const r = await planE(catalogOf([spec('/etc/app/x')]), machine({}))
    expect(E.isLeft(r) && r.left.map(Diagnostic.render)).toEqual([
      'error: m.yaml:1:1: file#/etc/app/x: the parent directory /etc/app does not exist\n  hint: add a file resource for /etc/app with ensure: directory before this one',
    ])
  })
})
