// runtime: the real Holo host against small plugins of the tests' own (shell scripts below a
// temporary root): configuration, info, the environment and directories plugins get, the virtual
// resource directory with generators, and every way a plugin can break the protocol, each a clear
// fault naming the plugin (and the entity) that keeps what the plugin printed.
import * as fs from 'node:fs/promises'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import type * as Fault from '../../../src/core/Fault.js'
import * as Host from '../../../src/interpreters/holo/Host.js'
import * as Output from '../../../src/interpreters/holo/protocol/Output.js'
import * as Runtime from '../../../src/interpreters/holo/runtime.js'
import { greet, makeRoot, plugin, type RootSpec } from './fixtures.js'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true })
})

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent', SECRET_TOKEN: 'must not pass', HOLO_CURRENT_DISTRIBUTION: 'unittest', HOLO_STATE_DIR: '/must/be/replaced' }

/** Opens a host on a fresh root (relative `./root/` from its directory, as holo-test runs). */
const open = async (spec: RootSpec, timeoutMs = 10_000): Promise<{ dir: string; root: string; host: E.Either<Fault.Fault, Host.Host> }> => {
  const made = await makeRoot(spec)
  dirs.push(made.dir)
  return { ...made, host: await Runtime.open({ root: './root/', cwd: made.dir, env, timeoutMs })() }
}

const right = <A>(e: E.Either<Fault.Fault, A>): A => {
  if (E.isLeft(e)) throw new Error(`unexpected fault: ${e.left.op} ${e.left.subject}: ${e.left.description}`)
  return e.right
}

const left = <A>(e: E.Either<Fault.Fault, A>): Fault.Fault => {
  if (E.isRight(e)) throw new Error(`expected a fault, got ${JSON.stringify(e.right)}`)
  return e.left
}

describe('opening a root', () => {
  it('reads holorc.d snippets in order and then holorc, and asks each plugin for info', async () => {
    const { host } = await open({
      plugins: { a: greet, b: greet, c: plugin('info) echo NAME=c; echo MIN_API_VERSION=2; echo MAX_API_VERSION=4 ;;') },
      holorc: 'plugin c\n',
      files: { 'etc/holorc.d/20-b': 'plugin b\n', 'etc/holorc.d/10-a': '# a\nplugin a\n' },
    })
    const h = right(host)
    expect(h.plugins.map((p) => p.id)).toEqual(['a', 'b', 'c'])
    expect(h.plugins[2]!.info).toEqual([['NAME', 'c'], ['MIN_API_VERSION', '2'], ['MAX_API_VERSION', '4']])
    expect(h.plugins[0]!.binary).toBe('root/usr/lib/holo/holo-a')
    await h.close()
  })

  it('runs a relative binary from the working directory, as holo-test cases configure it', async () => {
    const made = await makeRoot({ holorc: 'plugin x=./bin/holo-x\n', files: { 'usr/share/holo/x/.keep': '' } })
    dirs.push(made.dir)
    await fs.mkdir(nodePath.join(made.dir, 'bin'))
    await fs.writeFile(nodePath.join(made.dir, 'bin/holo-x'), plugin('scan) echo "ENTITY: x:1" ;;'), { mode: 0o755 })
    const h = right(await Runtime.open({ root: './root/', cwd: made.dir, env })())
    expect(right(await h.scan(h.plugins[0]!)()).entities.map((e) => e.id)).toEqual(['x:1'])
    await h.close()
  })

  it('skips a plugin whose binary is missing, with an error and a warning as Holo says them', async () => {
    const { host } = await open({ plugins: { a: greet }, holorc: 'plugin gone\nplugin a\nplugin other=/nonexistent/holo-other\n' })
    const h = right(host)
    expect(h.plugins.map((p) => p.id)).toEqual(['a'])
    expect(h.notes).toEqual([
      { level: 'error', subject: 'gone', text: 'root/usr/lib/holo/holo-gone: file not found' },
      { level: 'warning', subject: 'gone', text: 'Skipping plugin: gone' },
      { level: 'error', subject: 'other', text: '/nonexistent/holo-other: file not found' },
      { level: 'warning', subject: 'other', text: 'Skipping plugin: other=/nonexistent/holo-other' },
    ])
    await h.close()
  })

  it('refuses a bad configuration line, a missing holorc and a missing resource directory', async () => {
    expect(left((await open({ holorc: 'plugin a\nfrobnicate\n' })).host).description).toBe('root/etc/holorc:2: cannot parse configuration: unknown command: frobnicate')
    const noRc = await makeRoot({})
    dirs.push(noRc.dir)
    await fs.rm(nodePath.join(noRc.root, 'etc/holorc'))
    expect(left(await Runtime.open({ root: './root/', cwd: noRc.dir, env })()).description).toBe('cannot read root/etc/holorc: open root/etc/holorc: no such file or directory')
    const noRes = await open({ plugins: { a: greet } })
    await right(noRes.host).close()
    await fs.rm(nodePath.join(noRes.root, 'usr/share/holo/a'), { recursive: true })
    const f = left(await Runtime.open({ root: './root/', cwd: noRes.dir, env })())
    expect(f.description).toBe('cannot open root/usr/share/holo/a: stat root/usr/share/holo/a: no such file or directory')
  })

  it('refuses a plugin that announces an API version other than 3, naming it', async () => {
    const f = left((await open({ plugins: { future: plugin('info) echo MIN_API_VERSION=4; echo MAX_API_VERSION=4 ;;') } })).host)
    expect(f).toMatchObject({ _tag: 'ProtocolViolation', op: 'info', subject: 'future', description: 'plugin holo-future is incompatible with this host (plugin min: 4, plugin max: 4, plait: 3)' })
  })

  it('refuses a plugin whose info fails or hangs, and removes the cache directory', async () => {
    const failing = await open({ plugins: { bad: plugin('info) echo broken >&2; exit 3 ;;') } })
    const f = left(failing.host)
    expect(f).toMatchObject({ op: 'info', subject: 'bad', description: 'plugin bad (root/usr/lib/holo/holo-bad): info exited with status 3' })
    expect(Output.of(Host.outputOf(f)!, 2)).toBe('broken\n')
    expect(await fs.readdir(nodePath.join(failing.root, 'tmp'))).toEqual([])
    const hanging = await open({ plugins: { slow: plugin('info) sleep 30 ;;') } }, 300)
    expect(left(hanging.host)).toMatchObject({ _tag: 'TimedOut', op: 'info', subject: 'slow' })
  })
})

describe('what a plugin gets', () => {
  const probe = plugin(`scan)
  env | sort > "$HOLO_STATE_DIR/env"
  echo "$#:$*" > "$HOLO_STATE_DIR/args"
  wc -c < /dev/stdin | tr -d ' ' > "$HOLO_STATE_DIR/stdin"
  [ -d "$HOLO_CACHE_DIR" ] && echo yes > "$HOLO_STATE_DIR/cache-exists"
  find "$HOLO_RESOURCE_DIR" -type f | sort > "$HOLO_STATE_DIR/resources"
  echo "ENTITY: probe:1"
  ;;
apply) readlink /proc/self/fd/3 > "$HOLO_STATE_DIR/fd3"; echo "$#:$*" > "$HOLO_STATE_DIR/apply-args" ;;`)

  // Node's pipes to a child are Unix socket pairs: fd 3 is one, which a plugin writes like a pipe.
  it('gets exactly the scrubbed environment (HOLO_* settings kept) and the HOLO_* variables of the spec, empty stdin, its operation as argv, fd 3 open for writing', async () => {
    const { root, host } = await open({ plugins: { probe }, files: { 'usr/share/holo/probe/static.conf': 'static\n' } })
    const h = right(host)
    const p = h.plugins[0]!
    const scanned = right(await h.scan(p)())
    right(await h.apply(scanned.entities[0]!, false)())
    const state = nodePath.join(root, 'var/lib/holo/probe')
    const seen = Object.fromEntries((await fs.readFile(nodePath.join(state, 'env'), 'utf8')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
    delete seen['PWD']
    delete seen['SHLVL']
    delete seen['_']
    expect(seen).toEqual({
      PATH: env.PATH,
      HOME: '/nonexistent',
      HOLO_CURRENT_DISTRIBUTION: 'unittest',
      HOLO_API_VERSION: '3',
      HOLO_ROOT_DIR: './root/',
      HOLO_STATE_DIR: 'root/var/lib/holo/probe',
      HOLO_CACHE_DIR: p.cacheDir,
      HOLO_RESOURCE_DIR: p.resourceDir,
    })
    expect(p.cacheDir).toMatch(/^root\/tmp\/holo\.\d+\/probe$/)
    expect(p.resourceDir).toMatch(/^root\/tmp\/holo\.\d+\/generated-resources\/probe$/)
    expect(await fs.readFile(nodePath.join(state, 'args'), 'utf8')).toBe('1:scan\n')
    expect(await fs.readFile(nodePath.join(state, 'apply-args'), 'utf8')).toBe('2:apply probe:1\n')
    expect(await fs.readFile(nodePath.join(state, 'stdin'), 'utf8')).toBe('0\n')
    expect(await fs.readFile(nodePath.join(state, 'fd3'), 'utf8')).toMatch(/^(pipe|socket):\[\d+\]\n$/)
    expect(await fs.readFile(nodePath.join(state, 'cache-exists'), 'utf8')).toBe('yes\n')
    expect(await fs.readFile(nodePath.join(state, 'resources'), 'utf8')).toBe(`${p.resourceDir}/static.conf\n`)
    await h.close()
    expect(await fs.readdir(nodePath.join(root, 'tmp'))).toEqual([])
  })

  it('renders generators into the resource directory first; a generated file wins over a static one and is named by its generator', async () => {
    const gen = `#!/bin/sh
mkdir -p "$OUT/probe"
echo generated > "$OUT/probe/static.conf"
echo new > "$OUT/probe/new.conf"
echo "resource root $HOLO_RESOURCE_ROOT"
`
    const lister = plugin(`scan) for f in $(find "$HOLO_RESOURCE_DIR" -type f | sort); do echo "ENTITY: res:$(basename $f)"; echo "SOURCE: $f"; echo "content: $(cat $f)"; done ;;`)
    const { host } = await open({ plugins: { probe: lister }, files: { 'usr/share/holo/probe/static.conf': 'static\n', 'usr/share/holo/probe/other.conf': 'other\n', 'usr/share/holo/generators/make.sh': gen } })
    const h = right(host)
    expect(h.notes).toEqual([{ level: 'warning', subject: 'root/usr/share/holo/generators/make.sh', text: 'output from root/usr/share/holo/generators/make.sh: resource root root/usr/share/holo' }])
    const s = right(await h.scan(h.plugins[0]!)())
    expect(s.entities.map((e) => [e.id, e.sources, e.info[0]?.value])).toEqual([
      ['res:new.conf', ['root/usr/share/holo/generators/make.sh::probe/new.conf'], 'new'],
      ['res:other.conf', ['root/usr/share/holo/probe/other.conf'], 'other'],
      ['res:static.conf', ['root/usr/share/holo/generators/make.sh::probe/static.conf'], 'generated'],
    ])
    await h.close()
  })

  it('stops at a failing generator, naming it (op generate)', async () => {
    const { host } = await open({ plugins: { probe }, files: { 'usr/share/holo/generators/bad.sh': '#!/bin/sh\necho oops\nexit 2\n' } })
    expect(left(host)).toMatchObject({ op: 'generate', description: 'could not run root/usr/share/holo/generators/bad.sh: exit status 2' })
  })

  it('in test mode keeps the cache inside the root even when TMPDIR points elsewhere', async () => {
    const made = await makeRoot({ plugins: { probe } })
    dirs.push(made.dir)
    const outside = nodePath.join(made.dir, 'outside')
    await fs.mkdir(outside)
    const h = right(await Runtime.open({ root: made.root, cwd: '/', env: { ...env, TMPDIR: outside } })())
    expect(h.plugins[0]!.cacheDir.startsWith(`${made.root}/tmp/holo.`)).toBe(true)
    await h.close()
    expect(await fs.readdir(outside)).toEqual([])
  })
})

describe('operations', () => {
  it('scans, applies with every fd 3 outcome, and diffs with a missing file shown as /dev/null', async () => {
    const { root, host } = await open({ plugins: { greet }, files: { 'usr/share/holo/greet/hello': 'hello\n' } })
    const h = right(host)
    const [e] = right(await h.scan(h.plugins[0]!)()).entities
    expect(e).toMatchObject({ plugin: 'greet', id: 'greeting:hello', sources: ['root/usr/share/holo/greet/hello'], info: [{ key: 'target', value: './root//etc/greet/hello' }] })
    expect(right(await h.apply(e!, false)())).toEqual({ outcome: { _tag: 'Changed' }, output: Output.make([{ fd: 1, text: 'wrote ./root//etc/greet/hello\n' }]) })
    expect(right(await h.apply(e!, false)()).outcome).toEqual({ _tag: 'NotChanged' })
    await fs.writeFile(nodePath.join(root, 'etc/greet/hello'), 'edited\n')
    expect(right(await h.apply(e!, false)()).outcome).toEqual({ _tag: 'RequiresForceToOverwrite' })
    const d = right(await h.diff(e!)())
    expect(d).toMatchObject({ _tag: 'Files', from: 'root/var/lib/holo/greet/hello', to: './root//etc/greet/hello', fromFile: 'root/var/lib/holo/greet/hello', toFile: './root//etc/greet/hello' })
    expect(d._tag === 'Files' && d.text).toBe('diff --holo root/var/lib/holo/greet/hello ./root//etc/greet/hello\n--- root/var/lib/holo/greet/hello\n+++ ./root//etc/greet/hello\n@@ -1 +1 @@\n-hello\n+edited\n')
    await fs.rm(nodePath.join(root, 'etc/greet/hello'))
    expect(right(await h.apply(e!, false)()).outcome).toEqual({ _tag: 'RequiresForceToRestore' })
    const gone = right(await h.diff(e!)())
    expect(gone).toMatchObject({ _tag: 'Files', toFile: '/dev/null' })
    expect(gone._tag === 'Files' && gone.text).toBe('diff --holo root/var/lib/holo/greet/hello ./root//etc/greet/hello\ndeleted file mode 100644\n--- root/var/lib/holo/greet/hello\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n')
    expect(right(await h.apply(e!, true)()).outcome).toEqual({ _tag: 'Changed' })
    expect(await fs.readFile(nodePath.join(root, 'etc/greet/hello'), 'utf8')).toBe('hello\n')
    await h.close()
  })

  const broken = plugin(`scan) printf 'ENTITY: b:fails\\nENTITY: b:fd3\\nENTITY: b:hangs\\nENTITY: b:nodiff\\nENTITY: b:baddiff\\nENTITY: b:dir\\n' ;;
apply|force-apply|diff)
  case "$2" in
  b:fails) echo "about to fail"; echo "it broke" >&2; exit 4 ;;
  b:fd3) echo "did something"; echo "done, honestly" >&3 ;;
  b:hangs) echo "starting"; sleep 30 ;;
  b:nodiff) exit 0 ;;
  b:baddiff) printf 'only-one-path' >&3 ;;
  b:dir) printf '%s\\0%s\\0' /dev/null "$HOLO_ROOT_DIR/etc" >&3 ;;
  esac ;;`)

  it('gives each broken operation a clear result naming plugin and entity, keeping what it printed', async () => {
    const { host } = await open({ plugins: { b: broken } }, 500)
    const h = right(host)
    const es = right(await h.scan(h.plugins[0]!)()).entities
    const byId = (id: string) => es.find((e) => e.id === id)!
    const failed = right(await h.apply(byId('b:fails'), false)())
    expect(failed.outcome).toEqual({ _tag: 'Failed', message: 'exit status 4' })
    expect(Output.text(failed.output)).toBe('about to fail\nit broke\n')
    const fd3 = left(await h.apply(byId('b:fd3'), false)())
    expect(fd3).toMatchObject({ _tag: 'ProtocolViolation', op: 'apply', subject: 'b b:fd3' })
    expect(fd3.description).toBe('plugin b, entity b:fd3: wrote "done, honestly" on fd 3 (line 1), which is not one of "not changed", "requires --force to overwrite", "requires --force to restore"')
    expect(Output.text(Host.outputOf(fd3)!)).toBe('did something\n')
    const hung = left(await h.apply(byId('b:hangs'), true)())
    expect(hung).toMatchObject({ _tag: 'TimedOut', op: 'force-apply', subject: 'b b:hangs', description: 'plugin b, entity b:hangs: ran longer than 0.5 s and was killed with its process group' })
    expect(Output.text(Host.outputOf(hung)!)).toBe('starting\n')
    expect(right(await h.diff(byId('b:nodiff'))())).toEqual({ _tag: 'NoDiff', output: Output.empty })
    expect(left(await h.diff(byId('b:baddiff'))()).description).toBe('plugin b, entity b:baddiff: wrote "only-one-path" on fd 3, which is not two NUL-terminated paths')
    expect(left(await h.diff(byId('b:dir'))()).description).toBe('plugin b, entity b:dir: file ./root//etc has wrong file type')
    expect(left(await h.diff(byId('b:fails'))())).toMatchObject({ _tag: 'Failed', description: 'plugin b, entity b:fails: diff failed: exit status 4' })
    await h.close()
  })

  it('reports a scan that prints garbage line by line, and one that fails or hangs, naming the plugin', async () => {
    const garbage = right((await open({ plugins: { g: plugin('scan) echo "ENTITY: g:1"; echo "no colon here"; echo "warned" >&2 ;;') } })).host)
    const f = left(await garbage.scan(garbage.plugins[0]!)())
    expect(f).toMatchObject({ _tag: 'ProtocolViolation', op: 'scan', subject: 'g', description: 'error in scan report of g, line 2: parse error (line was "no colon here")' })
    expect(Output.of(Host.outputOf(f)!, 2)).toBe('warned\n')
    await garbage.close()
    const failing = right((await open({ plugins: { f: plugin('scan) exit 1 ;;') } })).host)
    expect(left(await failing.scan(failing.plugins[0]!)()).description).toBe('scan with plugin f failed: exit status 1')
    await failing.close()
    const hanging = right((await open({ plugins: { h: plugin('scan) sleep 30 ;;') } }, 300)).host)
    expect(left(await hanging.scan(hanging.plugins[0]!)())).toMatchObject({ _tag: 'TimedOut', subject: 'h', description: 'scan with plugin h failed: ran longer than 0.3 s and was killed with its process group' })
    await hanging.close()
  })

  it('kills the whole process group of a plugin that times out, what it started in the background too', async () => {
    const bg = plugin(`scan) echo "ENTITY: bg:1" ;;
apply) ( sleep 1; touch "$HOLO_STATE_DIR/survived" ) & sleep 30 ;;`)
    const { root, host } = await open({ plugins: { bg } }, 300)
    const h = right(host)
    const [e] = right(await h.scan(h.plugins[0]!)()).entities
    expect(left(await h.apply(e!, false)())._tag).toBe('TimedOut')
    await new Promise((r) => setTimeout(r, 1500))
    await expect(fs.stat(nodePath.join(root, 'var/lib/holo/bg/survived'))).rejects.toThrow()
    await h.close()
  })

  it('bounds what a plugin may print', async () => {
    const loud = right((await open({ plugins: { l: plugin('scan) yes ENTITY ;;') } })).host)
    const f = left(await loud.scan(loud.plugins[0]!)())
    expect(f).toMatchObject({ _tag: 'ProtocolViolation', description: `scan with plugin l failed: printed more than ${Runtime.maxOutput} bytes on stdout and stderr, and was killed with its process group` })
    await loud.close()
  })

  it("takes Holo's run lock exclusively and releases it", async () => {
    const { root, host } = await open({ plugins: { greet } })
    const h = right(host)
    const release = right(await h.lock()())
    expect(await fs.readFile(nodePath.join(root, 'run/holo.pid'), 'utf8')).toBe(`${process.pid}\n`)
    expect(left(await h.lock()()).description).toBe(
      'Cannot create lock file root/run/holo.pid: open root/run/holo.pid: file exists\nThis usually means that another instance of Holo is currently running.\nIf not, you can try to delete the lock file manually.',
    )
    await release()
    await expect(fs.stat(nodePath.join(root, 'run/holo.pid'))).rejects.toThrow()
    await h.close()
  })
})
