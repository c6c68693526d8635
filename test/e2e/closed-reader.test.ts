// e2e: a descriptor that cannot be written any more never stops a command: what was to go to it is
// dropped, and the command runs to its end. A reader that stops early (`plait apply m.yaml | head`)
// leaves the command its own exit status; any other failure (stdout on a full disk: /dev/full,
// ENOSPC) is said on stderr and exits 1. Real pipes: bash runs the built binary into `head`, which
// has gone before plait writes (it reads nothing) or goes after the first line of a plan larger
// than a pipe holds.
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binary, cleanup, collected, ensureBuilt, plait, read, runEnv, sandbox, show, type Run } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

/** Runs plait with its stdout (and its stderr, with `both`) piped into `reader` (a shell command); plait's own exit status. */
const piped = (args: ReadonlyArray<string>, reader: string, both = false): Promise<Run> =>
  collected(spawn('bash', ['-c', `"$@" ${both ? '2>&1 ' : ''}| ${reader}; exit "\${PIPESTATUS[0]}"`, 'bash', process.execPath, binary, ...args], { env: runEnv(), stdio: ['ignore', 'pipe', 'pipe'] }))

/** A manifest of `n` files in one directory, each line of its plan some 60 bytes. */
const manyFiles = (n: number): string =>
  `ccm:\n  resources:\n    - file:\n        - defaults: {owner: "${process.geteuid!()}", group: "${process.getegid!()}", mode: "0644"}\n        - /srv/out:\n            ensure: directory\n            mode: "0755"\n${Array.from({ length: n }, (_, i) => `        - /srv/out/file-${String(i).padStart(5, '0')}.conf: {content: "line ${i}\\n"}\n`).join('')}`

describe('a reader that stops early', () => {
  it('does not stop an apply while it prints its plan: every file is written, and the apply exits 0', async () => {
    const box = sandbox()
    // 3,000 files: the plan printed first is far more than a pipe holds, and head goes after one line
    const manifest = box.manifest(manyFiles(3000))
    const r = await piped(['apply', manifest, '--root', box.root], 'head -n 1 >/dev/null')
    expect(r.code, show(r)).toBe(0)
    expect(r.stderr, show(r)).toBe('')
    expect(fs.readdirSync(box.at('/srv/out')).length).toBe(3000)
    expect(read(box.at('/srv/out/file-02999.conf'))).toBe('line 2999\n')
    // nothing left half done: the next plan finds everything in place, and no unfinished run
    const again = await plait(['plan', manifest, '--root', box.root, '--detailed-exitcode'])
    expect(again.code, show(again)).toBe(0)
    expect(again.stderr).toBe('')
  })

  it('does not stop an apply whose reader went before its first write, and its report is dropped', async () => {
    const box = sandbox()
    const manifest = box.manifest(manyFiles(20))
    const r = await piped(['apply', manifest, '--root', box.root], 'head -c 0')
    expect(r.code, show(r)).toBe(0)
    expect(fs.readdirSync(box.at('/srv/out')).length).toBe(20)
  })

  it('leaves a plan its exit status: --detailed-exitcode still says 2 when there are changes', async () => {
    const box = sandbox()
    const manifest = box.manifest(manyFiles(3000))
    const changes = await piped(['plan', manifest, '--root', box.root, '--detailed-exitcode'], 'head -n 1 >/dev/null')
    expect(changes.code, show(changes)).toBe(2)
    expect(changes.stderr, show(changes)).toBe('')
    const none = await piped(['plan', box.manifest('ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n', 'empty.yaml'), '--root', box.root, '--detailed-exitcode'], 'head -c 0')
    expect(none.code, show(none)).toBe(0)
  })

  it('leaves a failed plan its exit status 1 when its diagnostics go to the closed pipe too (2>&1)', async () => {
    const box = sandbox()
    const bad = box.manifest('ccm:\n  resources:\n    - file:\n        - relative/path: {}\n', 'bad.yaml')
    const r = await piped(['plan', bad, '--root', box.root], 'head -c 0', true)
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toBe('')
  })
})

describe.skipIf(!fs.existsSync('/dev/full'))('a descriptor that fails otherwise (stdout on a full disk: /dev/full)', () => {
  /** Runs plait with its stdout on /dev/full, where every write fails with ENOSPC. */
  const full = (args: ReadonlyArray<string>): Promise<Run> => {
    const out = fs.openSync('/dev/full', 'w')
    try {
      return collected(spawn(process.execPath, [binary, ...args], { env: runEnv(), stdio: ['ignore', out, 'pipe'] }))
    } finally {
      fs.closeSync(out)
    }
  }

  it('does not stop an apply, and the apply exits 1 saying the output was lost', async () => {
    const box = sandbox()
    const manifest = box.manifest(manyFiles(200))
    const r = await full(['apply', manifest, '--root', box.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toBe('error: standard output failed (ENOSPC): the rest of the output was lost; the command ran to its end\n')
    expect(fs.readdirSync(box.at('/srv/out')).length).toBe(200)
    const again = await plait(['plan', manifest, '--root', box.root, '--detailed-exitcode'])
    expect(again.code, show(again)).toBe(0)
  })

  it('makes a plan exit 1, not 0 or 2: its output is not whole', async () => {
    const box = sandbox()
    const r = await full(['plan', box.manifest(manyFiles(20)), '--root', box.root, '--detailed-exitcode'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/^error: standard output failed \(ENOSPC\)/)
  })
})
