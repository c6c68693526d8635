// command: Holo's command line over the real runtime, in process: the exact output of scan, apply
// and diff (stdout and stderr as one stream, as holo-test compares them), Holo's exit codes, and a
// run in which one plugin breaks the protocol while every other entity is still applied.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import * as Command from '../../../src/interpreters/holo/command.js'
import * as Runtime from '../../../src/interpreters/holo/runtime.js'
import { greet, makeRoot, plugin, type RootSpec } from './fixtures.js'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true })
})

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }

/** A root to run commands on; `holo(args)` gives { status, text (both streams), stdout, stderr }. */
const rootWith = async (spec: RootSpec, timeoutMs = 10_000) => {
  const made = await makeRoot(spec)
  dirs.push(made.dir)
  const holo = async (args: Command.Args) => {
    let text = ''
    let stdout = ''
    let stderr = ''
    const status = await Command.run(Runtime.open({ root: './root/', cwd: made.dir, env, timeoutMs }), args, {
      write: (fd, t) => {
        text += t
        if (fd === 1) stdout += t
        else stderr += t
      },
    })
    return { status, text, stdout, stderr }
  }
  return { ...made, holo }
}

const scan = (selectors: string[] = [], o: { short?: boolean; porcelain?: boolean } = {}): Command.Args => ({ _tag: 'scan', selectors, short: o.short ?? false, porcelain: o.porcelain ?? false })
const apply = (selectors: string[] = [], force = false): Command.Args => ({ _tag: 'apply', selectors, force })
const diff = (selectors: string[] = []): Command.Args => ({ _tag: 'diff', selectors })

const files = { 'usr/share/holo/greet/hello': 'hello\n', 'usr/share/holo/greet/bye': 'bye\n' }

describe('plait holo scan', () => {
  it('prints reports in paragraphs, porcelain reports, or IDs', async () => {
    const { holo } = await rootWith({ plugins: { greet }, files })
    expect(await holo(scan())).toMatchObject({ status: 0, text: '\ngreeting:bye\n      target ./root//etc/greet/bye\n\ngreeting:hello\n      target ./root//etc/greet/hello\n\n' })
    expect((await holo(scan([], { porcelain: true }))).text).toBe(
      '\nENTITY: greeting:bye\nSOURCE: root/usr/share/holo/greet/bye\ntarget: ./root//etc/greet/bye\n\nENTITY: greeting:hello\nSOURCE: root/usr/share/holo/greet/hello\ntarget: ./root//etc/greet/hello\n\n',
    )
    expect((await holo(scan([], { short: true }))).text).toBe('greeting:bye\ngreeting:hello\n')
  })

  it('selects by entity ID, plugin ID or SOURCE file, and refuses a selector that selects nothing (exit 255)', async () => {
    const { holo } = await rootWith({ plugins: { greet, other: plugin('scan) echo "ENTITY: other:1" ;;') }, files })
    expect((await holo(scan(['greeting:hello'], { short: true }))).text).toBe('greeting:hello\n')
    expect((await holo(scan(['other'], { short: true }))).text).toBe('other:1\n')
    expect((await holo(scan(['root/usr/share/holo/greet/bye', 'other:1'], { short: true }))).text).toBe('greeting:bye\nother:1\n')
    expect(await holo(scan(['greeting:nope', 'greet', 'Bad Id'], { short: true }))).toMatchObject({ status: 255, stdout: '', stderr: 'Unrecognized argument: greeting:nope\nUnrecognized argument: Bad Id\n' })
  })

  it('stops with 255 at a configuration error or a failed scan, after what the plugin said', async () => {
    const bad = await rootWith({ holorc: 'plugin greet\nfrob\n', plugins: { greet } })
    expect(await bad.holo(scan())).toMatchObject({ status: 255, text: '\n!! root/etc/holorc:2: cannot parse configuration: unknown command: frob\n' })
    const failing = await rootWith({ plugins: { f: plugin('scan) echo "ENTITY: f:1"; echo "cannot read things" >&2; exit 1 ;;') } })
    expect(await failing.holo(scan())).toMatchObject({ status: 255, text: '\ncannot read things\n!! scan with plugin f failed: exit status 1\n' })
  })

  it('warns about a skipped plugin and goes on', async () => {
    const { holo } = await rootWith({ plugins: { greet }, holorc: 'plugin gone\nplugin greet\n', files })
    expect(await holo(scan([], { short: true }))).toMatchObject({ status: 0, text: '\n!! root/usr/lib/holo/holo-gone: file not found\n>> Skipping plugin: gone\n\ngreeting:bye\ngreeting:hello\n' })
  })

  it('exits 1 on a failing generator, as Holo does', async () => {
    const { holo } = await rootWith({ plugins: { greet }, files: { 'usr/share/holo/generators/g.sh': '#!/bin/sh\nexit 3\n' } })
    expect(await holo(scan())).toMatchObject({ status: 1, text: '\n!! could not run root/usr/share/holo/generators/g.sh: exit status 3\n\n' })
  })
})

describe('plait holo apply and diff', () => {
  it('shows a report for changed entities only, and the diff of one modified by hand', async () => {
    const { root, holo } = await rootWith({ plugins: { greet }, files })
    expect(await holo(apply())).toMatchObject({
      status: 0,
      text: '\nWorking on greeting:bye\n    target ./root//etc/greet/bye\n\nwrote ./root//etc/greet/bye\n\nWorking on greeting:hello\n    target ./root//etc/greet/hello\n\nwrote ./root//etc/greet/hello\n\n',
    })
    expect(await holo(apply())).toMatchObject({ status: 0, text: '' })
    await fs.writeFile(nodePath.join(root, 'etc/greet/hello'), 'edited\n')
    await fs.rm(nodePath.join(root, 'etc/greet/bye'))
    expect((await holo(apply())).text).toBe(
      [
        '',
        'Working on greeting:bye',
        '    target ./root//etc/greet/bye',
        '',
        '!! Entity has been deleted by user (use --force to restore)',
        '',
        'Working on greeting:hello',
        '    target ./root//etc/greet/hello',
        '',
        '!! Entity has been modified by user (use --force to overwrite)',
        '',
        '    diff --holo root/var/lib/holo/greet/hello ./root//etc/greet/hello',
        '    --- root/var/lib/holo/greet/hello',
        '    +++ ./root//etc/greet/hello',
        '    @@ -1 +1 @@',
        '    -hello',
        '    +edited',
        '',
        '',
      ].join('\n'),
    )
    expect(await holo(diff())).toMatchObject({
      status: 0,
      text: 'diff --holo root/var/lib/holo/greet/bye ./root//etc/greet/bye\ndeleted file mode 100644\n--- root/var/lib/holo/greet/bye\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\ndiff --holo root/var/lib/holo/greet/hello ./root//etc/greet/hello\n--- root/var/lib/holo/greet/hello\n+++ ./root//etc/greet/hello\n@@ -1 +1 @@\n-hello\n+edited\n',
    })
    expect((await holo(apply(['greeting:hello'], true))).text).toBe('\nWorking on greeting:hello\n    target ./root//etc/greet/hello\n\nwrote ./root//etc/greet/hello\n\n')
    expect(await fs.readFile(nodePath.join(root, 'etc/greet/hello'), 'utf8')).toBe('hello\n')
    expect(await fs.readdir(nodePath.join(root, 'run'))).toEqual([])
  })

  it('refuses to apply while the run lock is held (exit 255)', async () => {
    const { root, holo } = await rootWith({ plugins: { greet }, files })
    await fs.writeFile(nodePath.join(root, 'run/holo.pid'), '1\n')
    expect(await holo(apply())).toMatchObject({
      status: 255,
      text: '\n!! Cannot create lock file root/run/holo.pid: open root/run/holo.pid: file exists\nThis usually means that another instance of Holo is currently running.\nIf not, you can try to delete the lock file manually.\n',
    })
    expect(await fs.readdir(nodePath.join(root, 'etc'))).toEqual(['holorc'])
  })

  const mixed = plugin(`scan) printf 'ENTITY: m:1-fails\\nENTITY: m:2-lies\\nENTITY: m:3-hangs\\nENTITY: m:4-works\\n' ;;
apply)
  case "$2" in
  m:1-fails) echo "trying" ; echo "no luck" >&2; exit 2 ;;
  m:2-lies) echo "all good" >&3 ;;
  m:3-hangs) echo "waiting"; sleep 30 ;;
  m:4-works) echo "done" > "$HOLO_STATE_DIR/done"; echo "worked" ;;
  esac ;;`)

  it('applies every other entity when one fails, one writes what fd 3 may not hold and one hangs; each error names plugin and entity', async () => {
    const { root, holo } = await rootWith({ plugins: { m: mixed } }, 400)
    const r = await holo(apply())
    expect(r.status).toBe(1)
    expect(r.text).toBe(
      [
        '',
        'Working on m:1-fails',
        '',
        'trying',
        'no luck',
        '!! exit status 2',
        '',
        'Working on m:2-lies',
        '',
        '!! plugin m, entity m:2-lies: wrote "all good" on fd 3 (line 1), which is not one of "not changed", "requires --force to overwrite", "requires --force to restore"',
        '',
        'Working on m:3-hangs',
        '',
        'waiting',
        '!! plugin m, entity m:3-hangs: ran longer than 0.4 s and was killed with its process group',
        '',
        'Working on m:4-works',
        '',
        'worked',
        '',
        '',
      ].join('\n'),
    )
    expect(await fs.readFile(nodePath.join(root, 'var/lib/holo/m/done'), 'utf8')).toBe('done\n')
  })

  it('says when a diff cannot be made, and goes on to the next entity', async () => {
    const d = plugin(`scan) printf 'ENTITY: d:1\\nENTITY: d:2\\n' ;;
diff) [ "$2" = d:1 ] && printf 'one\\0' >&3; [ "$2" = d:2 ] && printf '/dev/null\\0%s\\0' "$HOLO_ROOT_DIR/etc/holorc" >&3; exit 0 ;;`)
    const { holo } = await rootWith({ plugins: { d } })
    expect(await holo(diff())).toMatchObject({
      status: 1,
      text: '\n!! cannot diff d:1: plugin d, entity d:1: wrote "one\\u0000" on fd 3, which is not two NUL-terminated paths\n\ndiff --holo /dev/null ./root//etc/holorc\nnew file mode 100644\n--- /dev/null\n+++ ./root//etc/holorc\n@@ -0,0 +1 @@\n+plugin d\n',
    })
  })
})
