// e2e: --root confines every managed path: a symlink never leads a write or a removal outside it.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, plait, put, read, sandbox, show, snapshot, stackFrame, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const attrs = `            owner: root\n            group: root\n            mode: "0644"\n`

describe.concurrent('confinement below --root', () => {
  it('a parent directory that is a symlink out of the root is refused, and nothing outside is touched', async ({ expect }) => {
    const s = sandbox()
    const outside = tempDir()
    put(path.join(outside, 'x.conf'), 'outside\n')
    fs.symlinkSync(outside, s.at('/etc'))
    const m = s.manifest(`ccm:\n  resources:\n    - file:\n        - /etc/x.conf:\n            content: "inside\\n"\n${attrs}        - /etc/new.conf:\n            content: "new\\n"\n${attrs}`)
    const before = snapshot(outside)
    const [p, a] = await Promise.all([plait(['plan', m, '--root', s.root]), plait(['apply', m, '--root', s.root])])
    for (const r of [p, a]) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr, show(r)).toMatch(/outside the root/)
      expect(r.stderr).toContain('file#/etc/x.conf')
      expect(r.stderr).not.toMatch(stackFrame)
    }
    expect(snapshot(outside)).toEqual(before)
  })

  it('a managed file that is a symlink to a file outside is replaced by a file; the outside file is untouched', async ({ expect }) => {
    const s = sandbox()
    const outside = tempDir()
    put(path.join(outside, 'target'), 'outside\n', 0o600)
    put(path.join(outside, 'dir/keep'), 'keep\n')
    fs.mkdirSync(s.at('/etc'))
    fs.symlinkSync(path.join(outside, 'target'), s.at('/etc/link.conf'))
    fs.symlinkSync(path.join(outside, 'dir'), s.at('/etc/dirlink'))
    const m = s.manifest(
      `ccm:\n  resources:\n    - file:\n        - /etc/link.conf:\n            content: "inside\\n"\n${attrs}        - /etc/dirlink:\n            ensure: absent\n            force: true\n`,
    )
    const before = snapshot(outside)
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(fs.lstatSync(s.at('/etc/link.conf')).isFile()).toBe(true)
    expect(read(s.at('/etc/link.conf'))).toBe('inside\n')
    expect(fs.existsSync(s.at('/etc/dirlink'))).toBe(false)
    expect(snapshot(outside)).toEqual(before)
  })
})
