// The state directory (--state-dir, $PLAIT_STATE_DIR): every command that takes it refuses one that
// is not a clean absolute machine path, at once and before anything is read or written. `plait
// apply --state-dir st` used to climb the dirname of "st" (".", then "." again) for ever, its
// list of parents growing without bound until the process was killed.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Apply from '../../src/executor/apply.js'
import * as Memory from '../../src/interpreters/memory/memory.js'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const uid = String(process.getuid?.() ?? 0)
const manifest = `ccm:\n  resources:\n    - file:\n        - /out.txt:\n            content: "x"\n            owner: "${uid}"\n            group: "${uid}"\n            mode: "0644"\n`

describe('a state directory that is not a clean absolute path', () => {
  it('is refused by plan, apply, ensure, status, history and rollback, from the flag or the environment, and nothing is written', async () => {
    const s = sandbox()
    const m = s.manifest(manifest)
    const cwd = tempDir()
    const commands: ReadonlyArray<ReadonlyArray<string>> = [
      ['plan', m, '--root', s.root],
      ['apply', m, '--root', s.root],
      ['ensure', 'file', '/out.txt', '--content', 'x', '--owner', uid, '--group', uid, '--mode', '0644', '--root', s.root],
      ['status', 'file', '/out.txt', '--root', s.root],
      ['history', '--root', s.root],
      ['rollback', '--to', '0', '--root', s.root],
    ]
    for (const bad of ['st', './st', '/var/../st', '/', '']) {
      for (const args of commands) {
        for (const how of ['flag', 'env'] as const) {
          const r = await plait(how === 'flag' ? [...args, '--state-dir', bad] : args, { cwd, env: how === 'env' ? { PLAIT_STATE_DIR: bad } : {} })
          const label = `${args[0]!} ${how} ${JSON.stringify(bad)}\n${show(r)}`
          expect(r.code, label).toBe(1)
          expect(r.stderr, label).toContain(`${how === 'flag' ? '--state-dir' : '$PLAIT_STATE_DIR'} ${JSON.stringify(bad)}: expected a clean absolute machine path`)
          expect(r.stderr, label).not.toMatch(stackFrame)
        }
      }
    }
    expect(fs.readdirSync(s.root)).toEqual([])
    expect(fs.readdirSync(cwd)).toEqual([])
    // a good one still works
    const ok = await plait(['apply', m, '--root', s.root, '--state-dir', '/state'], { cwd })
    expect(ok.code, show(ok)).toBe(0)
    expect(fs.readFileSync(path.join(s.root, 'out.txt'), 'utf8')).toBe('x')
  }, 120_000)

  it('is refused by the executor too, as a fault, when a caller of its API gives one', async () => {
    for (const stateDir of ['st', '.', '/a/../b', '/']) {
      const opened = await Apply.open(Memory.make(), { stateDir, atomic: false, noop: false })
      expect(E.isLeft(opened) && opened.left.map((d) => d.message).join('\n')).toContain(`cannot create the state directory ${stateDir}: `)
    }
  })
})
