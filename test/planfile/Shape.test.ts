// Shape: the checks of a decoded plan that no compile could have made, one by one, at their
// boundaries, with the JSON path each names (in process, so that mutation testing sees them).
import { describe, expect, it } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as Shape from '../../src/planfile/Shape.js'

const root = { name: 'root', id: 0 }
const attrs = { _tag: 'file.attrs', path: '/etc/a', reason: 'r', noop: 'n', owner: root, group: root, mode: '0644' }
const command = { argv: ['/bin/true'], environment: [], timeoutMs: 1000 }
const run = { _tag: 'exec.run', line: '/bin/true', provider: 'posix', command, returns: [0], logoutput: false, guards: {}, reason: 'r', noop: 'n' }

const body = (steps: ReadonlyArray<Record<string, unknown>>, ids: ReadonlyArray<string> = ['file#/etc/a']): Plan.Body =>
  ({
    format: 'plait.plan/2',
    plait: 'test',
    root: '/',
    inputs: { manifest: { path: 'm.yaml', sha256: '' }, sources: [], reads: [] },
    failOnError: false,
    resources: ids.map((id, i) => ({ kind: 'file', id, type: 'file', name: '/etc/a', at: 'm.yaml:1:1', action: 'update', observed: { summary: '', digest: '' }, desired: { ensure: 'present', force: false }, steps: i === 0 ? steps : [] })),
    summary: { create: 0, update: ids.length, delete: 0, unchanged: 0 },
  }) as unknown as Plan.Body

const problems = (steps: ReadonlyArray<Record<string, unknown>>, ids?: ReadonlyArray<string>) => Shape.problems(body(steps, ids))

describe('Shape.problems', () => {
  it('finds nothing wrong with what a compile makes', () => {
    expect(problems([attrs, run, { ...run, guards: { onlyif: command, unless: command }, command: { ...command, cwd: '/srv' } }])).toEqual([])
  })

  it('names a duplicate id and where it was first', () => {
    expect(problems([], ['file#/a', 'file#/b', 'file#/a'])).toEqual(['resources[2].id: duplicate id "file#/a" (also resources[0])'])
  })

  it('refuses a file step path that is not clean and absolute, and only a file step’s', () => {
    for (const path of ['/etc/../x', 'etc/a', '/etc//a', '/etc/./a', '/etc/a/', '/etc/a\0b']) {
      expect(problems([{ ...attrs, path }])).toEqual([`resources[0].steps[0].path: "${path}" is not a clean absolute path`])
    }
    expect(problems([{ ...run, path: 'relative' }])).toEqual([])
    expect(problems([attrs, { ...attrs, path: '/' }])).toEqual([])
  })

  it('takes modes 0000 to 7777 and nothing else', () => {
    expect(problems([{ ...attrs, mode: '0000' }, { ...attrs, mode: '7777' }])).toEqual([])
    for (const mode of ['8000', '644', '06444', 'x0644', '0644x', '']) {
      expect(problems([{ ...attrs, mode }])).toEqual([`resources[0].steps[0].mode: "${mode}" is not a mode from 0000 to 7777`])
    }
  })

  it('takes owner and group ids from 0 to 2^32-2', () => {
    expect(problems([{ ...attrs, owner: { name: 'x', id: 4294967294 }, group: { name: 'x', id: 0 } }])).toEqual([])
    for (const id of [4294967295, -1, 1.5, '0', null]) {
      expect(problems([{ ...attrs, owner: { name: 'x', id } }])).toEqual([`resources[0].steps[0].owner.id: ${String(id)} is not an id from 0 to 4294967294`])
      expect(problems([{ ...attrs, group: { name: 'x', id } }])).toEqual([`resources[0].steps[0].group.id: ${String(id)} is not an id from 0 to 4294967294`])
    }
  })

  it('refuses a NUL byte in a command’s words or environment, in the command or a guard', () => {
    const nul = 'a\0b'
    expect(problems([{ ...run, command: { ...command, argv: ['/bin/echo', nul] } }])).toEqual(['resources[0].steps[0]: a command holds a NUL byte'])
    expect(problems([{ ...run, command: { ...command, environment: [`X=${nul}`] } }])).toEqual(['resources[0].steps[0]: a command holds a NUL byte'])
    expect(problems([run, { ...run, guards: { unless: { ...command, argv: [nul] } } }])).toEqual(['resources[0].steps[1]: a command holds a NUL byte'])
  })

  it('refuses a working directory that is not clean and absolute, and a timeout that is not positive', () => {
    expect(problems([{ ...run, command: { ...command, cwd: 'srv' } }])).toEqual(['resources[0].steps[0]: the working directory "srv" is not a clean absolute path'])
    expect(problems([{ ...run, guards: { onlyif: { ...command, timeoutMs: 0 } } }])).toEqual(['resources[0].steps[0]: the timeout 0 ms is not positive'])
    expect(problems([{ ...run, command: { ...command, timeoutMs: -5 } }])).toEqual(['resources[0].steps[0]: the timeout -5 ms is not positive'])
    expect(problems([{ ...run, command: { ...command, timeoutMs: 1 } }])).toEqual([])
  })

  it('lists every problem, in order', () => {
    expect(problems([{ ...attrs, path: 'a', mode: '9' }, { ...run, command: { ...command, cwd: 'x', timeoutMs: 0 } }], ['x', 'x'])).toEqual([
      'resources[0].steps[0].path: "a" is not a clean absolute path',
      'resources[0].steps[0].mode: "9" is not a mode from 0000 to 7777',
      'resources[0].steps[1]: the working directory "x" is not a clean absolute path',
      'resources[0].steps[1]: the timeout 0 ms is not positive',
      'resources[1].id: duplicate id "x" (also resources[0])',
    ])
  })
})
