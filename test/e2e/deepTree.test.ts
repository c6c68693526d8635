// e2e: a forced removal of a tree deeper than the descriptors a process may open. The walk that
// backs the tree up and the one that removes it keep a bounded number of directory handles open
// (posix/tree.ts `openAtOnce`): under `ulimit -n 128`, a tree 1,500 levels deep is backed up,
// removed, and, when a later resource fails an atomic apply, put back exactly as it was (names,
// modes, owners, sizes, contents, a symlink). Before, each level held its handles and the backup
// failed with emfile past some 500 levels.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const depth = 1500

/** Makes `dir/deep`, `depth` directories deep, a file at level 700 (0640) and at the bottom, and a symlink there; by relative steps, as paths this long cannot be named whole. */
const deepTree = (dir: string): void => {
  const script = `mkdir deep && cd deep && i=0; while [ $i -lt ${depth} ]; do mkdir d; cd d; i=$((i+1)); if [ $i = 700 ]; then echo mid > mid.txt; chmod 0640 mid.txt; fi; done; echo bottom > bottom.txt; ln -s /etc/passwd link`
  const r = spawnSync('/bin/sh', ['-c', script], { cwd: dir, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(r.stderr)
}

/** Every entry of a tree with its type, mode, owner, size and (files) content or (links) target, walked by relative steps. */
const describeTree = (dir: string): string => {
  const r = spawnSync('/bin/sh', ['-c', 'find deep -print0 | sort -z | xargs -0 stat -c "%n %F %a %u:%g %s" | md5sum; find deep -name "*.txt" -exec cat {} +; find deep -type l -exec readlink {} +'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0) throw new Error(r.stderr)
  return r.stdout
}

const manifest = (failing: boolean): string => `ccm:
  resources:
    - file:
        - /etc/deep:
            ensure: absent
            force: true
${failing ? '    - exec:\n        - then-fail:\n            command: /bin/false\n' : ''}`

describe('a tree deeper than the open files allowed', () => {
  it('is backed up and put back by an atomic apply that fails, then removed', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    deepTree(s.at('etc'))
    const before = describeTree(s.at('etc'))
    expect(before).toContain('mid\nbottom\n/etc/passwd\n')

    const failed = await plait(['apply', s.manifest(manifest(true)), '--atomic', '--root', s.root], { openFiles: 128 })
    expect(failed.code, show(failed)).toBe(1)
    expect(failed.stdout).toContain('1 rolled back')
    expect(describeTree(s.at('etc'))).toBe(before)

    const removed = await plait(['apply', s.manifest(manifest(false), 'remove.yaml'), '--root', s.root], { openFiles: 128 })
    expect(removed.code, show(removed)).toBe(0)
    expect(removed.stdout).toContain('changed  file#/etc/deep')
    expect(fs.existsSync(s.at('etc/deep'))).toBe(false)
  })
})
