// plait holo: Holo's command line and holo-test runner with plait as the host, through the built
// binary, against a plugin of the tests' own (a shell script) below temporary roots.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { greet, plugin } from '../interpreters/holo/fixtures.js'
import { cleanup, ensureBuilt, plait, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const write = (p: string, content: string, mode = 0o644): void => {
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, content, { mode })
}

/** A root with the greet plugin and two resource files; commands run with HOLO_ROOT_DIR=./root/ from its directory. */
const greetRoot = (): { dir: string; root: string; holo: (...args: string[]) => ReturnType<typeof plait> } => {
  const dir = tempDir('plait-e2e-holo-')
  const root = path.join(dir, 'root')
  write(path.join(root, 'usr/lib/holo/holo-greet'), greet, 0o755)
  write(path.join(root, 'etc/holorc'), 'plugin greet\n')
  write(path.join(root, 'usr/share/holo/greet/hello'), 'hello\n')
  write(path.join(root, 'usr/share/holo/greet/bye'), 'bye\n')
  fs.mkdirSync(path.join(root, 'run'))
  return { dir, root, holo: (...args) => plait(['holo', ...args], { cwd: dir, env: { HOLO_ROOT_DIR: './root/', TMPDIR: undefined } }) }
}

describe('plait holo scan, apply, diff', () => {
  it("scans, applies, refuses a hand-edited entity with its diff, and forces it, in Holo's words", async () => {
    const { root, holo } = greetRoot()
    const scan = await holo('scan')
    expect(scan.code, show(scan)).toBe(0)
    expect(scan.stdout).toBe('\ngreeting:bye\n      target ./root//etc/greet/bye\n\ngreeting:hello\n      target ./root//etc/greet/hello\n\n')
    expect((await holo('scan', '--short', 'greeting:hello')).stdout).toBe('greeting:hello\n')

    const apply = await holo('apply')
    expect(apply.code, show(apply)).toBe(0)
    expect(apply.stdout).toBe('\nWorking on greeting:bye\n    target ./root//etc/greet/bye\n\nwrote ./root//etc/greet/bye\n\nWorking on greeting:hello\n    target ./root//etc/greet/hello\n\nwrote ./root//etc/greet/hello\n\n')
    expect(fs.readFileSync(path.join(root, 'etc/greet/hello'), 'utf8')).toBe('hello\n')
    expect((await holo('apply')).stdout).toBe('')

    fs.writeFileSync(path.join(root, 'etc/greet/hello'), 'edited\n')
    const refused = await holo('apply', 'root/usr/share/holo/greet/hello')
    expect(refused.code, show(refused)).toBe(0)
    expect(refused.stderr).toBe('!! Entity has been modified by user (use --force to overwrite)\n')
    expect(refused.stdout).toContain('    -hello\n    +edited\n')
    const diff = await holo('diff', 'greet')
    expect(diff.stdout).toBe('diff --holo root/var/lib/holo/greet/hello ./root//etc/greet/hello\n--- root/var/lib/holo/greet/hello\n+++ ./root//etc/greet/hello\n@@ -1 +1 @@\n-hello\n+edited\n')
    const forced = await holo('apply', '--force', 'greeting:hello')
    expect(forced.code, show(forced)).toBe(0)
    expect(fs.readFileSync(path.join(root, 'etc/greet/hello'), 'utf8')).toBe('hello\n')
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([])
    expect(fs.readdirSync(path.join(root, 'run'))).toEqual([])
  })

  it('exits 255 for an unrecognized selector and for a plugin with an unsupported API version', async () => {
    const { root, holo } = greetRoot()
    const r = await holo('apply', 'greeting:nope')
    expect(r.code, show(r)).toBe(255)
    expect(r.stderr).toBe('Unrecognized argument: greeting:nope\n')
    expect(fs.existsSync(path.join(root, 'etc/greet'))).toBe(false)
    write(path.join(root, 'usr/lib/holo/holo-future'), plugin('info) echo MIN_API_VERSION=4; echo MAX_API_VERSION=5 ;;'), 0o755)
    fs.mkdirSync(path.join(root, 'usr/share/holo/future'))
    write(path.join(root, 'etc/holorc.d/50-future'), 'plugin future\n')
    const f = await holo('scan')
    expect(f.code, show(f)).toBe(255)
    expect(f.stderr).toBe('!! plugin holo-future is incompatible with this host (plugin min: 4, plugin max: 5, plait: 3)\n')
  })
})

const sep = '----------------------------------------'

/** A holo-test case of the greet plugin, run from the case directory with the plugin at bin/holo-greet. */
const makeCase = (dir: string, applyWords: string): void => {
  write(path.join(dir, 'bin/holo-greet'), greet, 0o755)
  write(path.join(dir, 'source-tree'), `file      0644 ./etc/holorc\nplugin greet=bin/holo-greet\n${sep}\nfile      0644 ./usr/share/holo/greet/hello\nhello\n${sep}\n`)
  write(path.join(dir, 'expected-scan-output'), '\ngreeting:hello\n      target ./target//etc/greet/hello\n\nexit status 0\n')
  write(path.join(dir, 'expected-diff-output'), 'exit status 0\n')
  write(path.join(dir, 'expected-apply-output'), `\nWorking on greeting:hello\n    target ./target//etc/greet/hello\n\n${applyWords}\n\nexit status 0\n`)
  write(
    path.join(dir, 'expected-tree'),
    [
      'file      0644 ./etc/greet/hello',
      'hello',
      sep,
      'file      0644 ./etc/holorc',
      'plugin greet=bin/holo-greet',
      sep,
      'directory 0755 ./run/',
      sep,
      'directory 0755 ./tmp/',
      sep,
      'directory 0755 ./usr/share/holo/generators/',
      sep,
      'file      0644 ./usr/share/holo/greet/hello',
      'hello',
      sep,
      'directory 0755 ./var/lib/holo/files/base/',
      sep,
      'directory 0755 ./var/lib/holo/files/provisioned/',
      sep,
      'file      0644 ./var/lib/holo/greet/hello',
      'hello',
      sep,
      '',
    ].join('\n'),
  )
}

describe('plait holo test', () => {
  it('passes a case whose outputs and tree are as expected, fails one that is not, and says which', async () => {
    const base = tempDir('plait-e2e-holo-test-')
    makeCase(path.join(base, 'good'), 'wrote ./target//etc/greet/hello')
    makeCase(path.join(base, 'bad'), 'wrote somewhere else')
    const good = await plait(['holo', 'test', 'good'], { cwd: base, umask: 0o077 })
    expect(good.code, show(good)).toBe(0)
    expect(good.stdout).toBe('>> Running test case good...\n>> All 1 test case passed.\n')
    expect(fs.readFileSync(path.join(base, 'good/apply-output'), 'utf8')).toBe(fs.readFileSync(path.join(base, 'good/expected-apply-output'), 'utf8'))

    const both = await plait(['holo', 'test', 'good', 'bad'], { cwd: base })
    expect(both.code, show(both)).toBe(1)
    expect(both.stdout).toContain('>> Running test case bad...\n!! The apply-output deviates from our expectation. Diff follows:\n')
    expect(both.stdout).toContain('    -wrote somewhere else\n    +wrote ./target//etc/greet/hello\n')
    expect(both.stdout).not.toContain('The tree deviates')
    expect(both.stdout.endsWith('!! 1 of 2 test cases failed: bad\n')).toBe(true)
  })

  it('sources env.sh in the case directory: what it exports reaches the plugin, what it does to target/ is in the tree', async () => {
    const dir = path.join(tempDir('plait-e2e-holo-env-'), 'case')
    write(path.join(dir, 'bin/holo-env'), plugin('scan) echo "ENTITY: env:$HOLO_GREETING" ;;'), 0o755)
    write(path.join(dir, 'env.sh'), 'export HOLO_GREETING=hi\ntouch target/etc/from-env\n')
    write(path.join(dir, 'source-tree'), `file      0644 ./etc/holorc\nplugin env=bin/holo-env\n${sep}\n`)
    write(path.join(dir, 'expected-scan-output'), '\nenv:hi\n\nexit status 0\n')
    write(path.join(dir, 'expected-diff-output'), 'exit status 0\n')
    write(path.join(dir, 'expected-apply-output'), '\nWorking on env:hi\n\nexit status 0\n')
    const dirs = ['run', 'tmp', 'usr/share/holo/env', 'usr/share/holo/generators', 'var/lib/holo/env', 'var/lib/holo/files/base', 'var/lib/holo/files/provisioned']
    write(path.join(dir, 'expected-tree'), [`file      0644 ./etc/from-env\n${sep}`, `file      0644 ./etc/holorc\nplugin env=bin/holo-env\n${sep}`, ...dirs.map((d) => `directory 0755 ./${d}/\n${sep}`), ''].join('\n'))
    const r = await plait(['holo', 'test', dir], { cwd: path.dirname(dir) })
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toBe(`>> Running test case ${dir}...\n>> All 1 test case passed.\n`)
  })
})
