// e2e: a plan large enough for the prefetch (Machine.prefetch: the files probed on a worker thread
// while the manifest compiles) is byte for byte the plan the pipeline makes without it, whatever
// state the files are in: unchanged, changed (their old bytes are then read for the diff), wrong
// mode, absent, a directory or a symlink where a file belongs, below a symlink out of the root.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planManifest } from '../../src/cli/pipeline.js'
import * as Posix from '../../src/interpreters/posix/posix.js'
import * as Prefetch from '../../src/interpreters/posix/prefetch.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { cleanup, ensureBuilt, plait, repo, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const n = Prefetch.minimumPaths + 100
const me = { uid: process.getuid!(), gid: process.getgid!() }
const owner = (): string => {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[2] === String(me.uid))
  return line?.split(':')[0] ?? String(me.uid)
}
const group = (): string => {
  const line = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[2] === String(me.gid))
  return line?.split(':')[0] ?? String(me.gid)
}

describe('a plan with the prefetch', () => {
  it('is the plan made without it, byte for byte', async () => {
    const dir = tempDir('plait-prefetch-')
    fs.mkdirSync(path.join(dir, 'root', 'srv', 'd'), { recursive: true })
    const root = fs.realpathSync(path.join(dir, 'root'))
    fs.writeFileSync(path.join(dir, 'outside'), 'not below the root\n')
    fs.symlinkSync(dir, `${root}/srv/out`)
    const lines = ['ccm:', '  resources:', '    - file:', `        - defaults: {owner: ${owner()}, group: ${group()}, mode: "0644"}`, '        - /srv/d: {ensure: directory, mode: "0755"}']
    for (let i = 0; i < n; i++) {
      const p = `/srv/d/f${i}`
      const want = `file ${i}\n`
      switch (i % 8) {
        case 0: // unchanged
        case 1:
          fs.writeFileSync(root + p, want, { mode: 0o644 })
          break
        case 2: // changed content
          fs.writeFileSync(root + p, `old ${i}\n`, { mode: 0o644 })
          break
        case 3: // wrong mode
          fs.writeFileSync(root + p, want, { mode: 0o600 })
          fs.chmodSync(root + p, 0o600)
          break
        case 4: // absent
          break
        case 5: // a directory in the way
          fs.mkdirSync(root + p)
          break
        case 6: // a symlink in the way
          fs.symlinkSync('f0', root + p)
          break
      }
      lines.push(i % 8 === 7 ? `        - /srv/out/f${i}: {content: ${JSON.stringify(want)}}` : `        - ${p}: {content: ${JSON.stringify(want)}}`)
    }
    const manifest = path.join(dir, 'manifest.yaml')
    fs.writeFileSync(manifest, lines.join('\n') + '\n')
    const out = path.join(dir, 'plan.json')
    // always: the prefetch is otherwise skipped on a busy machine (Prefetch.spareCore)
    const r = await plait(['plan', manifest, '--root', root, '--out', out], { env: { PLAIT_PREFETCH: 'always' } })
    expect(fs.existsSync(out), show(r)).toBe(true)
    // every state is in the plan: the unchanged, the updates, the creations, and the failures (a directory in the way, the escape)
    expect(r.stdout, show(r)).toMatch(/Plan: \d+ to create, \d+ to change, 0 to delete, \d+ unchanged/)
    const summary = /Plan: (\d+) to create, (\d+) to change, 0 to delete, (\d+) unchanged/.exec(r.stdout)!.slice(1).map(Number)
    expect(summary.every((x) => x > 0), show(r)).toBe(true)

    const version = (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version
    const machine = { ...Posix.make({ root }), prefetch: undefined }
    const plan = await planManifest(manifest, machine, version)
    expect(E.isRight(plan)).toBe(true)
    if (E.isRight(plan)) expect(fs.readFileSync(out, 'utf8')).toBe(PlanFile.serialize(plan.right))
    // and the command without it makes that plan too
    const without = path.join(dir, 'without.json')
    await plait(['plan', manifest, '--root', root, '--out', without], { env: { PLAIT_PREFETCH: 'never' } })
    expect(fs.readFileSync(without, 'utf8')).toBe(fs.readFileSync(out, 'utf8'))
    // what lies outside the root was never read into the plan
    expect(fs.readFileSync(out, 'utf8')).not.toContain('not below the root')
  })
})
