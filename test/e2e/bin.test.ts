// bin: the command package.json ships is the bundle (scripts/bundle.mjs): it answers as plait, it
// needs nothing of dist/ or node_modules but its own folder (fast-check aside, which only `plait
// provider test` loads, from the package's dependencies), and V8 accepts its code cache (else every
// start would compile plait's code again, which the cache is there to spare).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import { builtinModules } from 'node:module'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binary, cleanup, ensureBuilt, plait, repo, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string; bin: { plait: string }; dependencies: Record<string, string> }

/** Runs `f` on a copy of the shipped dist/bin in a temporary directory (removed when the file's tests end). */
const onCopy = (f: (dir: string) => void): void => {
  const dir = tempDir('plait-bin-')
  fs.cpSync(path.dirname(binary), dir, { recursive: true })
  f(dir)
}

/**
 * A runner of the shipped command with `preload` (a CommonJS script) preloaded, written into `dir`:
 * the preload reports, as its last line on stderr, a JSON list, which the runner gives back.
 */
const reporting = (dir: string, preload: string): ((args: string[]) => string[]) => {
  const report = path.join(dir, 'report.cjs')
  fs.writeFileSync(report, preload)
  return (args) => {
    const r = spawnSync(process.execPath, ['-r', report, binary, ...args], { encoding: 'utf8' })
    expect(r.status, r.stderr).toBe(0)
    return JSON.parse(r.stderr.trim().split('\n').at(-1)!) as string[]
  }
}

/**
 * Writes, in `dir`, a manifest of one file to keep absent (small.yaml) and one of `files` such files,
 * each with a long comment (large.yaml, some 90 bytes a file); gives both paths.
 */
const manifests = (dir: string, files: number): { readonly small: string; readonly large: string } => {
  const small = path.join(dir, 'small.yaml')
  fs.writeFileSync(small, 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
  const large = path.join(dir, 'large.yaml')
  fs.writeFileSync(large, `ccm:\n  resources:\n    - file:\n${Array.from({ length: files }, (_, i) => `        - /absent/f${i}: {ensure: absent}  # ${'x'.repeat(60)}\n`).join('')}`)
  return { small, large }
}

describe('the shipped command', () => {
  it('is the bundle the tests run, and prints the package version', async () => {
    expect(path.join(repo, pkg.bin.plait)).toBe(binary)
    const r = await plait(['--version'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toBe(`${pkg.version}\n`)
  })

  it('starts with the code cache the build made: plan, validate, compile, show and the version with the plan\'s, every other command with the apply\'s', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await plait([flag], { env: { PLAIT_DEBUG: '1' } })
      expect(r.code, show(r)).toBe(0)
      expect(r.stdout).toBe(`${pkg.version}\n`)
      expect(r.stderr, flag).toBe('code cache: used (plait.plan.cache)\n')
    }
    const help = await plait(['--help'], { env: { PLAIT_DEBUG: '1' } })
    expect(help.code, show(help)).toBe(0)
    expect(help.stderr).toBe('code cache: used (plait.cjs.cache)\n')
    const dir = tempDir('plait-bin-')
    const manifest = path.join(dir, 'm.yaml')
    fs.writeFileSync(manifest, 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
    const plan = await plait(['plan', manifest, '--root', dir], { env: { PLAIT_DEBUG: '1' } })
    expect(plan.code, show(plan)).toBe(0)
    expect(plan.stderr).toBe('code cache: used (plait.plan.cache)\n')
    for (const args of [['validate', manifest], ['compile', manifest], ['plan', manifest, '--root', dir, '--out', path.join(dir, 'p.json')], ['show', path.join(dir, 'p.json')]]) {
      const r = await plait(args, { env: { PLAIT_DEBUG: '1' } })
      expect(r.code, show(r)).toBe(0)
      expect(r.stderr, args[0]).toBe('code cache: used (plait.plan.cache)\n')
    }
    const apply = await plait(['apply', manifest, '--root', dir], { env: { PLAIT_DEBUG: '1' } })
    expect(apply.code, show(apply)).toBe(0)
    expect(apply.stderr).toBe('code cache: used (plait.cjs.cache)\n')
    // the plan's cache is smaller: it holds no executor
    const size = (f: string): number => fs.statSync(path.join(path.dirname(binary), f)).size
    expect(size('plait.plan.cache')).toBeLessThan(size('plait.cjs.cache'))
  })

  it('finds its bundle and caches beside the real file when started through a symlink (as npm links it), in a directory whose name a URL would escape', () => {
    const dir = tempDir('plait-bin-')
    // the package as npm installs it: its package.json above dist/bin (an apply looks for it from the bundle's URL)
    const installed = path.join(dir, 'a b#c%20', 'dist', 'bin')
    fs.cpSync(path.dirname(binary), installed, { recursive: true })
    fs.copyFileSync(path.join(repo, 'package.json'), path.join(dir, 'a b#c%20', 'package.json'))
    fs.mkdirSync(path.join(dir, 'bin'))
    const link = path.join(dir, 'bin', 'plait')
    fs.symlinkSync(path.join(installed, 'plait.js'), link)
    fs.writeFileSync(path.join(dir, 'm.yaml'), 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
    const run = (args: string[]) => spawnSync(process.execPath, [link, ...args], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: '1' } })
    const version = run(['--version'])
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout).toBe(`${pkg.version}\n`)
    expect(version.stderr).toBe('code cache: used (plait.plan.cache)\n')
    const plan = run(['plan', path.join(dir, 'm.yaml'), '--root', dir])
    expect(plan.status, plan.stderr).toBe(0)
    expect(plan.stderr).toBe('code cache: used (plait.plan.cache)\n')
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 1 unchanged.')
    const apply = run(['apply', path.join(dir, 'm.yaml'), '--root', dir])
    expect(apply.status, apply.stderr).toBe(0)
    expect(apply.stderr).toBe('code cache: used (plait.cjs.cache)\n')
  })

  it('gives a plan the apply\'s cache where its own is missing or made for another bundle', () => {
    onCopy((dir) => {
      fs.writeFileSync(path.join(dir, 'm.yaml'), 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
      const plan = (): string => {
        const r = spawnSync(process.execPath, [path.join(dir, 'plait.js'), 'plan', path.join(dir, 'm.yaml'), '--root', dir], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: '1' } })
        expect(r.status, r.stderr).toBe(0)
        return r.stderr
      }
      const own = fs.readFileSync(path.join(dir, 'plait.plan.cache'))
      // made for another bundle: its id differs
      fs.writeFileSync(path.join(dir, 'plait.plan.cache'), Buffer.concat([Buffer.from('f'.repeat(16), 'latin1'), own.subarray(16)]))
      expect(plan()).toBe('code cache: used (plait.cjs.cache)\n')
      fs.rmSync(path.join(dir, 'plait.plan.cache'))
      expect(plan()).toBe('code cache: used (plait.cjs.cache)\n')
      // and neither: compiled from the source, the same plan
      fs.rmSync(path.join(dir, 'plait.cjs.cache'))
      expect(plan()).toBe('code cache: none (plait.cjs.cache)\n')
    })
  })

  it('uses a code cache only with the id of its own bundle: one of the same length built again compiles its own code', () => {
    // V8 itself checks no more than the length of the source: it took the cache of the bundle
    // before an edit of the same length and ran the old code (here: the old version)
    onCopy((dir) => {
      const bundle = path.join(dir, 'plait.cjs')
      const text = fs.readFileSync(bundle, 'latin1')
      const other = pkg.version.replace(/\d/g, (d) => String((Number(d) + 1) % 10))
      const mark = /\/\*plait-bundle ([0-9a-f]{16})\*\//.exec(text)
      expect(mark, 'the id in the wrapper line').not.toBeNull()
      const rebuilt = text
        .replace(JSON.stringify(pkg.version), JSON.stringify(other))
        .replace(mark![0], `/*plait-bundle ${mark![1]!.replace(/^./, (c) => (c === '0' ? '1' : '0'))}*/`)
      expect(rebuilt.length).toBe(text.length)
      fs.writeFileSync(bundle, rebuilt, 'latin1')
      const r = spawnSync(process.execPath, [path.join(dir, 'plait.js'), '--version'], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: '1' } })
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).toBe(`${other}\n`)
      expect(r.stderr).toBe('code cache: stale (plait.cjs.cache)\n')
    })
  })

  it('requires only Node\'s own modules and fast-check (a dependency, for `provider test`): everything else is inside the bundle', () => {
    const text = fs.readFileSync(path.join(path.dirname(binary), 'plait.cjs'), 'utf8')
    const required = [...new Set([...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!))]
    expect(required.length).toBeGreaterThan(0)
    expect(required.filter((s) => !(s.startsWith('node:') || builtinModules.includes(s)))).toEqual(['fast-check'])
    expect(Object.keys(pkg.dependencies)).toContain('fast-check')
    const launcher = fs.readFileSync(binary, 'utf8')
    const launcherRequires = [...launcher.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!)
    expect(launcherRequires).toContain('node:vm')
    expect(launcherRequires.filter((s) => !s.startsWith('node:'))).toEqual([])
  })

  it('serves a namespace import of fs or path by prototype, copying none of their properties at start', () => {
    const text = fs.readFileSync(path.join(path.dirname(binary), 'plait.cjs'), 'latin1')
    expect(text).toMatch(/\.exports=Object\.create\(require\("node:fs"\)\)/)
    expect(text).toMatch(/\.exports=Object\.create\(require\("node:path"\)\)/)
    expect(text).not.toMatch(/__toESM\(require\("node:(fs|path)"\)/)
  })

  it('serves a module loaded on first use by a class\'s getters, which V8 sets up in one step, not one property at a time', () => {
    const text = fs.readFileSync(path.join(path.dirname(binary), 'plait.cjs'), 'latin1')
    for (const m of ['crypto', 'os', 'child_process', 'fs/promises']) {
      expect(text, m).toMatch(new RegExp(`([\\w$]+)=\\(\\)=>[\\w$]+\\?\\?=require\\("node:${m.replace('/', '\\/')}"\\);[\\w$]+\\.exports=Object\\.create\\(class\\{get (\\w+)\\(\\)\\{return \\1\\(\\)\\.\\2\\}`))
    }
    expect(text).not.toMatch(/Object\.create\(Object\.defineProperties\(\{\},\{[\w$]+:\{get\(\)/)
  })

  it('is a CommonJS script, so that Node starts it without its ES module loader', () => {
    expect(JSON.parse(fs.readFileSync(path.join(path.dirname(binary), 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' })
    expect(fs.readFileSync(binary, 'utf8')).not.toMatch(/^\s*(import|export)\b/m)
  })

  it('loads Node\'s heavier modules only when a command uses them: --version loads none, a plan only crypto, and only to hash', async () => {
    // A preloaded script reports which of Node's modules the process loaded by its exit.
    const dir = tempDir('plait-bin-')
    const loaded = reporting(dir, "process.on('exit', () => require('fs').writeSync(2, JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'))\n")
    const heavy = ['child_process', 'crypto', 'worker_threads', 'readline', 'fs/promises', 'os', 'dgram', 'net', 'stream', 'v8', 'internal/modules/esm/module_job']
    // its output goes straight to the descriptor: not even Node's stdout stream (net, for a pipe) is made
    expect(loaded(['--version']).filter((m) => heavy.includes(m))).toEqual([])
    // a plan with nothing to hash (the manifest's own digest is made when a saved plan needs it) loads none either
    fs.writeFileSync(path.join(dir, 'm.yaml'), 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
    expect(loaded(['plan', path.join(dir, 'm.yaml'), '--root', dir]).filter((m) => heavy.includes(m))).toEqual([])
    // a content is hashed: crypto, and nothing else of them
    fs.writeFileSync(path.join(dir, 'c.yaml'), 'ccm:\n  resources:\n    - file:\n        - /f: {ensure: present, content: "x", owner: root, group: root, mode: "0644"}\n')
    const plan = loaded(['plan', path.join(dir, 'c.yaml'), '--root', dir])
    expect(plan).toContain('crypto')
    expect(plan.filter((m) => ['child_process', 'worker_threads', 'readline', 'fs/promises', 'net'].includes(m))).toEqual([])
    // facts are gathered with node:os and node:fs: no file is hashed for them, and fs/promises (with readline and streams) is not loaded
    fs.mkdirSync(path.join(dir, 'etc'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'etc', 'os-release'), 'ID=debian\nVERSION_ID="12"\n')
    fs.writeFileSync(path.join(dir, '.dockerenv'), '')
    fs.writeFileSync(path.join(dir, 'f.yaml'), "data:\n  x: a\nccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\nhierarchy:\n  order:\n    - os:${ lookup('facts.host.info.platformFamily') }\n")
    const facts = loaded(['plan', path.join(dir, 'f.yaml'), '--root', dir])
    expect(facts).toContain('os')
    expect(facts.filter((m) => heavy.includes(m) && m !== 'os')).toEqual([])
    // a command's observed digest is made when a saved plan needs it: a plan shown to a person hashes nothing
    fs.writeFileSync(path.join(dir, 'e.yaml'), 'ccm:\n  resources:\n    - exec:\n        - /bin/true:\n            creates: /not/there\n')
    expect(loaded(['plan', path.join(dir, 'e.yaml'), '--root', dir]).filter((m) => heavy.includes(m))).toEqual([])
  })

  it('keeps the young generation from growing once it reads a large manifest, and only then loads node:v8', () => {
    // A preloaded script reports, at exit, whether node:v8 was loaded and the young generation's size.
    const dir = tempDir('plait-bin-')
    const report = reporting(dir, "process.on('exit', () => { const loaded = process.moduleLoadList.includes('NativeModule v8'); const young = require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size; require('fs').writeSync(2, JSON.stringify([loaded, young]) + '\\n') })\n")
    // 4,000 files to keep absent: well over heap.ts's 256 KiB
    const { small, large } = manifests(dir, 4000)
    expect(fs.statSync(large).size).toBeGreaterThan(256 * 1024)
    const [smallLoaded] = report(['plan', small, '--root', dir]) as unknown as [boolean, number]
    expect(smallLoaded).toBe(false)
    const [largeLoaded, young] = report(['plan', large, '--root', dir]) as unknown as [boolean, number]
    expect(largeLoaded).toBe(true)
    // V8 starts it at two halves of 1 MiB; grown, they are 16 MiB each
    expect(young).toBeLessThanOrEqual(2 * 1024 * 1024)
  })

  it('collects the whole heap once between compiling and observing a large manifest, and leaves small runs and other contexts alone', () => {
    // V8's own trace of its collections (stdout): a collection heap.ts asks for is one "testing" names.
    const dir = tempDir('plait-bin-')
    const forced = (args: string[], flags: string[] = []): number => {
      const r = spawnSync(process.execPath, ['--trace-gc', ...flags, binary, ...args], { encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      return r.stdout.split('\n').filter((l) => /Mark-Compact.*\btesting\b/.test(l)).length
    }
    // 7,000 files to keep absent: over heap.ts's 512 KiB
    const { small, large } = manifests(dir, 7000)
    expect(fs.statSync(large).size).toBeGreaterThan(512 * 1024)
    expect(forced(['plan', small, '--root', dir])).toBe(0)
    expect(forced(['plan', large, '--root', dir])).toBe(1)
    // a Node started with the collector exposed: plait uses that one, and still collects once
    expect(forced(['plan', large, '--root', dir], ['--expose-gc'])).toBe(1)
    // validate observes nothing, so it has nothing to gain from the collection
    expect(forced(['validate', large])).toBe(0)
    // the flag that gives a context its `gc` is unset again: a context made afterwards has none
    const report = reporting(dir, "process.on('exit', () => require('fs').writeSync(2, JSON.stringify(require('vm').runInNewContext('typeof gc')) + '\\n'))\n")
    expect(report(['plan', large, '--root', dir]) as unknown as string).toBe('undefined')
  })

  it('knows its version from the build: neither --version nor a plan reads a package.json of plait', () => {
    // A preloaded script reports every package.json the process read through fs (Node's own look
    // at dist/bin/package.json, to tell the launcher is CommonJS, goes through its loader instead).
    const dir = tempDir('plait-bin-')
    const opened = reporting(dir, "const fs = require('fs'); const seen = []; for (const f of ['openSync', 'readFileSync']) { const real = fs[f]; fs[f] = function (p, ...rest) { if (String(p).endsWith('package.json')) seen.push(String(p)); return real.call(this, p, ...rest) } }; process.on('exit', () => fs.writeSync(2, JSON.stringify(seen) + '\\n'))\n")
    expect(opened(['--version'])).toEqual([])
    fs.writeFileSync(path.join(dir, 'm.yaml'), 'ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n')
    expect(opened(['plan', path.join(dir, 'm.yaml'), '--root', dir])).toEqual([])
    // the check can fail: lib/libral's path is found by reading package.json, and `ral` asks for it
    expect(opened(['ral', '--root', dir]).some((p) => p === path.join(repo, 'package.json'))).toBe(true)
  })

  it('prints an internal error\'s stack (PLAIT_DEBUG) at the TypeScript lines, not the minified script\'s', () => {
    const dir = tempDir('plait-bin-')
    // a hash that fails as no caller expects: an internal error, thrown from src/core/Digest.ts
    const inject = path.join(dir, 'inject.cjs')
    fs.writeFileSync(inject, "require('node:crypto').hash = () => { throw new TypeError('injected failure') }\n")
    fs.writeFileSync(path.join(dir, 'c.yaml'), 'ccm:\n  resources:\n    - file:\n        - /f: {content: "x", owner: root, group: root, mode: "0644"}\n')
    const r = spawnSync(process.execPath, ['-r', inject, binary, 'plan', path.join(dir, 'c.yaml'), '--root', dir], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: '1' } })
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toContain('error: internal error: injected failure\n')
    const digest = path.join(repo, 'src', 'core', 'Digest.ts')
    const frame = new RegExp(`at \\S+ \\(${digest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):\\d+\\)`).exec(r.stderr)
    expect(frame, r.stderr).not.toBeNull()
    expect(fs.readFileSync(digest, 'utf8').split('\n')[Number(frame![1]) - 1]).toContain('crypto.hash(')
    expect(r.stderr).not.toContain('plait.cjs:')
    // the same from a copy elsewhere, as an install has it: V8 names a script compiled from a code
    // cache by the build's path, and the frames are mapped all the same (through the copy's map)
    const installed = path.join(dir, 'node_modules', 'plait', 'dist', 'bin')
    fs.cpSync(path.dirname(binary), installed, { recursive: true })
    const copy = spawnSync(process.execPath, ['-r', inject, path.join(installed, 'plait.js'), 'plan', path.join(dir, 'c.yaml'), '--root', dir], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: '1' } })
    expect(copy.status, copy.stderr).toBe(1)
    expect(copy.stderr).toContain('code cache: used (plait.plan.cache)\n')
    const copied = path.resolve(installed, '..', '..', 'src', 'core', 'Digest.ts')
    expect(copy.stderr).toContain(`(${copied}:${frame![1]}:`)
    expect(copy.stderr).not.toContain('plait.cjs:')
    // without PLAIT_DEBUG, the message alone
    const quiet = spawnSync(process.execPath, ['-r', inject, binary, 'plan', path.join(dir, 'c.yaml'), '--root', dir], { encoding: 'utf8', env: { ...process.env, PLAIT_DEBUG: undefined } })
    expect(quiet.stderr).toBe('error: internal error: injected failure\n  please report this with the command you ran\n')
  })

  it('registers the one command named, and every command for the help listing and for a name it does not know', async () => {
    const help = await plait(['--help'])
    expect(help.code, show(help)).toBe(0)
    const listed = help.stdout.slice(help.stdout.indexOf('Commands:')).split('\n').slice(1).map((l) => /^ {2}(\S+)/.exec(l)?.[1]).filter((n) => n !== undefined)
    expect(listed).toEqual(['plan', 'show', 'apply', 'validate', 'compile', 'facts', 'check', 'ensure', 'status', 'session', 'holo', 'policy', 'secret', 'history', 'rollback', 'diff', 'ral', 'provider', 'help'])
    const typo = await plait(['plna'])
    expect(typo.code).toBe(1)
    expect(typo.stderr).toContain("error: unknown command 'plna'\n(Did you mean plan?)")
    const own = await plait(['compile', '--help'])
    expect(own.code, show(own)).toBe(0)
    expect(own.stdout).toMatch(/^Usage: plait compile \[options\] <manifest>/)
  })

  it('reads, through the yaml library it sets up on first use, a manifest its own reader gives up on', async () => {
    const dir = tempDir('plait-bin-')
    // an anchor and an alias: outside the block subset, so the library reads the whole text
    fs.writeFileSync(path.join(dir, 'anchor.yaml'), 'ccm:\n  resources:\n    - file:\n        - /a: &gone {ensure: absent}\n        - /b: *gone\n')
    const ok = await plait(['plan', path.join(dir, 'anchor.yaml'), '--root', dir])
    expect(ok.code, show(ok)).toBe(0)
    expect(ok.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 2 unchanged.')
    // and its errors, with their positions
    fs.writeFileSync(path.join(dir, 'bad.yaml'), 'ccm:\n  resources:\n    - file:\n        - /a: {ensure: absent\n')
    const bad = await plait(['plan', path.join(dir, 'bad.yaml'), '--root', dir])
    expect(bad.code, show(bad)).toBe(1)
    expect(bad.stderr).toMatch(/bad\.yaml:\d+:\d+: Flow map/)
  })
})
