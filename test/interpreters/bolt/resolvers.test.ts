// Bolt reference plugins, run for real: plugin modules of our own (shell and python3) in temporary
// project directories, found as Bolt finds them and run as Bolt runs tasks, and plait's own
// env_var and yaml plugins (lib/bolt/). Every run here is a real process under a temp directory.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from '../../../src/compiler/compile.js'
import type * as Fault from '../../../src/core/Fault.js'
import * as Discover from '../../../src/interpreters/bolt/discover.js'
import * as Resolvers from '../../../src/interpreters/bolt/resolvers.js'
import * as Processes from '../../../src/interpreters/process.js'
import * as Resolve from '../../../src/load/resolve.js'
import * as Node from '../../../src/manifest/Node.js'

let tmp: string
let n = 0
beforeAll(async () => {
  tmp = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-bolt-test-'))
})
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true })
})

/** A fresh project directory holding these files (paths relative to it). */
const project = async (files: Readonly<Record<string, string>>): Promise<string> => {
  const dir = nodePath.join(tmp, `p${n++}`)
  for (const [p, text] of Object.entries(files)) {
    await fs.mkdir(nodePath.dirname(nodePath.join(dir, p)), { recursive: true })
    await fs.writeFile(nodePath.join(dir, p), text, { mode: 0o755 })
  }
  await fs.mkdir(dir, { recursive: true })
  return dir
}

const env = (extra: Readonly<Record<string, string>> = {}): Record<string, string | undefined> => ({ ...process.env, ...extra })

const at = { file: 'm.yaml', line: 1, col: 1 }

/** What plugin NAME gives for these parameters: its value, or its fault rendered. */
const resolve = async (dir: string, plugin: string, parameters: Record<string, unknown>, o: Partial<Resolvers.Options> = {}): Promise<E.Either<string, unknown>> => {
  const table = await Resolvers.resolversFor({ projectDir: dir, env: env(), tmpdir: tmp, cacheFile: nodePath.join(dir, 'cache.json'), defaults: [], ...o })
  if (E.isLeft(table)) return table
  const r = table.right.get(plugin)
  if (r === undefined) return E.left(`no plugin ${plugin} (have ${[...table.right.keys()].join(', ')})`)
  return E.bimap((f: Fault.Fault) => `${f._tag}: ${f.description}`, (a: Resolve.Answer) => a.value)(await r({ plugin, parameters, at })())
}

/** A module with bolt_plugin.json and one resolve_reference task. */
const plugin = (name: string, script: string, meta?: object): Record<string, string> => ({
  [`modules/${name}/bolt_plugin.json`]: '{}',
  [`modules/${name}/tasks/resolve_reference.sh`]: script,
  ...(meta !== undefined ? { [`modules/${name}/tasks/resolve_reference.json`]: JSON.stringify(meta) } : {}),
})

const echoStdin = '#!/bin/sh\nprintf \'{"value": %s}\' "$(cat)"\n'

describe("plait's own plugins (lib/bolt)", () => {
  it('env_var gives a variable of the environment, its default, null when optional, else an error', async () => {
    const dir = await project({})
    const o = { env: env({ PLAIT_TEST_SECRET: 's3cret' }) }
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_SECRET' }, o)).toEqual(E.right('s3cret'))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_UNSET', default: 'dflt' }, o)).toEqual(E.right('dflt'))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_UNSET', optional: true }, o)).toEqual(E.right(null))
    const missing = await resolve(dir, 'env_var', { var: 'PLAIT_TEST_UNSET' }, o)
    expect(missing).toEqual(E.left("Failed: Error executing plugin env_var from resolve_reference in env_var: env_var plugin requires that the var 'PLAIT_TEST_UNSET' be set"))
    expect(await resolve(dir, 'env_var', {}, o)).toEqual(E.left("Failed: Error executing plugin env_var from resolve_reference in env_var: env_var plugin requires that the 'var' is specified"))
  })

  it('env_var takes any data as its default, and parses the variable as JSON when asked, naming the variable (never its value) when it is not JSON', async () => {
    const dir = await project({})
    const o = { env: env({ PLAIT_TEST_JSON: '{"a": [1, true, null]}', PLAIT_TEST_NOT_JSON: 'Zq9-not-json {' }) }
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_UNSET', default: { list: [1, 'two'], n: 3 } }, o)).toEqual(E.right({ list: [1, 'two'], n: 3 }))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_JSON', json: true }, o)).toEqual(E.right({ a: [1, true, null] }))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_JSON' }, o)).toEqual(E.right('{"a": [1, true, null]}'))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_UNSET', default: [1], json: true }, o)).toEqual(E.right([1]))
    const bad = await resolve(dir, 'env_var', { var: 'PLAIT_TEST_NOT_JSON', json: true }, o)
    expect(bad).toEqual(E.left(expect.stringMatching(/^Failed: Error executing plugin env_var from resolve_reference in env_var: env_var plugin could not parse the value of the environment variable 'PLAIT_TEST_NOT_JSON' as JSON: /)))
    expect(E.isLeft(bad) && bad.left).not.toContain('Zq9')
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_JSON', json: 'yes' }, o)).toEqual(E.left("Failed: Task env_var::resolve_reference: parameter 'json' expects an Optional[Boolean] value, got String"))
  })

  it('yaml gives the data of a file relative to the project directory', async () => {
    const dir = await project({ 'data/x.yaml': 'a: [1, {b: "two"}]\nwhen: 2020-01-02\n' })
    expect(await resolve(dir, 'yaml', { filepath: 'data/x.yaml' })).toEqual(E.right({ a: [1, { b: 'two' }], when: '2020-01-02' }))
    const gone = await resolve(dir, 'yaml', { filepath: 'nope.yaml' })
    expect(E.isLeft(gone) && gone.left).toMatch(/yaml: cannot read .*nope.yaml: No such file or directory/)
  })

  it('checks their parameters before running them', async () => {
    const dir = await project({})
    expect(await resolve(dir, 'env_var', { variable: 'HOME' })).toEqual(E.left("Failed: Task env_var::resolve_reference: has no parameter named 'variable'"))
    expect(await resolve(dir, 'yaml', { filepath: 3 })).toEqual(E.left("Failed: Task yaml::resolve_reference: parameter 'filepath' expects a String[1] value, got Integer"))
  })

  it("yaml and pkcs7 give way to a project module of the same name; env_var, Bolt's built-in, never does", async () => {
    const dir = await project({
      ...plugin('yaml', '#!/bin/sh\necho \'{"value": "the project\'"\'"\'s"}\'\n'),
      ...plugin('env_var', '#!/bin/sh\necho \'{"value": "a module named env_var"}\'\n'),
    })
    expect(await resolve(dir, 'yaml', { filepath: 'x.yaml' })).toEqual(E.right("the project's"))
    expect(await resolve(dir, 'env_var', { var: 'PLAIT_TEST_SECRET' }, { env: env({ PLAIT_TEST_SECRET: 'built-in' }) })).toEqual(E.right('built-in'))
    const named = await project({ 'bolt-project.yaml': 'name: env_var\n', 'bolt_plugin.json': '{}', 'tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "the project"}\'\n' })
    expect(await resolve(named, 'env_var', { var: 'PLAIT_TEST_SECRET' }, { env: env({ PLAIT_TEST_SECRET: 'built-in' }) })).toEqual(E.right('built-in'))
  })
})

describe('finding plugins', () => {
  it('finds modules in modules/, extra module directories and .modules/, the first of a name winning', async () => {
    const extra = await project(plugin('extra', '#!/bin/sh\necho \'{"value": "extra"}\'\n'))
    const dir = await project({
      ...plugin('a', '#!/bin/sh\necho \'{"value": "modules"}\'\n'),
      '.modules/a/bolt_plugin.json': '{}',
      '.modules/a/tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "dot-modules"}\'\n',
      '.modules/b/bolt_plugin.json': '{}',
      '.modules/b/tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "b"}\'\n',
      'modules/notaplugin/tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": 1}\'\n',
    })
    const o = { modulepath: [nodePath.join(extra, 'modules')] }
    expect(await resolve(dir, 'a', {}, o)).toEqual(E.right('modules'))
    expect(await resolve(dir, 'b', {}, o)).toEqual(E.right('b'))
    expect(await resolve(dir, 'extra', {}, o)).toEqual(E.right('extra'))
    const table = await Resolvers.resolversFor({ projectDir: dir, ...o })
    expect(E.isRight(table) && [...table.right.keys()].sort()).toEqual(['a', 'b', 'env_var', 'extra', 'pkcs7', 'yaml'])
  })

  it('finds a project-level plugin when bolt-project.yaml names the project', async () => {
    const dir = await project({ 'bolt-project.yaml': 'name: myproj\n', 'bolt_plugin.json': '{}', 'tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "project"}\'\n' })
    expect(await resolve(dir, 'myproj', {})).toEqual(E.right('project'))
    const unnamed = await project({ 'bolt-project.yaml': 'modulepath: [mods]\n', 'bolt_plugin.json': '{}', 'mods/m/bolt_plugin.json': '{}', 'mods/m/tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "m"}\'\n' })
    expect(await resolve(unnamed, 'm', {})).toEqual(E.right('m'))
    const table = await Resolvers.resolversFor({ projectDir: unnamed })
    expect(E.isRight(table) && [...table.right.keys()].sort()).toEqual(['env_var', 'm', 'pkcs7', 'yaml'])
  })

  it('uses the hooks mapping first, then the task named after the hook', async () => {
    const dir = await project({
      'modules/m/bolt_plugin.json': '{"hooks": {"resolve_reference": {"task": "m::fetch"}}}',
      'modules/m/tasks/fetch.sh': '#!/bin/sh\necho \'{"value": "fetched"}\'\n',
      'modules/m/tasks/resolve_reference.sh': '#!/bin/sh\necho \'{"value": "by name"}\'\n',
      'modules/n/bolt_plugin.json': '{"hooks": {"resolve_reference": {"task": "n::missing"}}}',
    })
    expect(await resolve(dir, 'm', {})).toEqual(E.right('fetched'))
    expect(await resolve(dir, 'n', {})).toEqual(E.left("Failed: Invalid Plugin Data for n: Plugin n specified an unknown task 'n::missing' for a hook"))
  })

  it('refuses a config key and bad JSON in bolt_plugin.json, a plugin without resolve_reference, and a bad project file', async () => {
    const dir = await project({
      'modules/c/bolt_plugin.json': '{"config": {"x": {}}}',
      'modules/j/bolt_plugin.json': '{hooks',
      'modules/s/bolt_plugin.json': '{}',
      'modules/s/tasks/secret_decrypt.sh': '#!/bin/sh\n',
    })
    expect(await resolve(dir, 'c', {})).toEqual(E.left("Failed: Invalid Plugin Data for c: Found unsupported key 'config' in bolt_plugin.json. Config for a plugin is inferred from task parameters, with config values passed as parameters."))
    const j = await resolve(dir, 'j', {})
    expect(E.isLeft(j) && j.left).toMatch(/^Failed: Invalid Plugin Data for j: bolt_plugin.json is not JSON/)
    expect(await resolve(dir, 's', {})).toEqual(E.left('Failed: Plugin s does not support resolve_reference'))
    const bad = await project({ 'bolt-project.yaml': 'name: Not A Name\n' })
    const r = await Resolvers.resolversFor({ projectDir: bad })
    expect(E.isLeft(r) && r.left).toMatch(/bolt-project.yaml: name must be a module name/)
    expect(await Resolvers.resolversFor({ projectDir: nodePath.join(tmp, 'absent') })).toEqual(E.left(`the Bolt project directory ${nodePath.join(tmp, 'absent')} does not exist or is not a directory`))
  })
})

describe('loading tasks', () => {
  it('runs MODULE alone as MODULE::init, and the first implementation this controller can run', async () => {
    const dir = await project({
      'modules/i/bolt_plugin.json': '{"hooks": {"resolve_reference": {"task": "i"}}}',
      'modules/i/tasks/init.sh': '#!/bin/sh\necho \'{"value": "init"}\'\n',
      'modules/m/bolt_plugin.json': '{}',
      'modules/m/tasks/resolve_reference.json': JSON.stringify({ implementations: [{ name: 'resolve_reference.ps1', requirements: ['powershell'] }, { name: 'resolve_reference.sh', requirements: ['shell'], input_method: 'environment' }] }),
      'modules/m/tasks/resolve_reference.ps1': 'Write-Output "no"\n',
      'modules/m/tasks/resolve_reference.sh': '#!/bin/sh\nprintf \'{"value": "%s"}\' "$PT__task"\n',
      'modules/w/bolt_plugin.json': '{}',
      'modules/w/tasks/resolve_reference.json': JSON.stringify({ implementations: [{ name: 'resolve_reference.ps1', requirements: ['powershell'] }] }),
      'modules/w/tasks/resolve_reference.ps1': 'Write-Output "no"\n',
    })
    expect(await resolve(dir, 'i', {})).toEqual(E.right('init'))
    expect(await resolve(dir, 'm', {})).toEqual(E.right('m::resolve_reference'))
    expect(await resolve(dir, 'w', {})).toEqual(E.left('Failed: task w::resolve_reference: none of its implementations can run here (this controller offers shell)'))
  })

  it('refuses a task with two executables and no implementations, and bad metadata, naming them', async () => {
    const dir = await project({
      ...plugin('two', echoStdin),
      'modules/two/tasks/resolve_reference.py': '#!/usr/bin/env python3\n',
      ...plugin('bad', echoStdin),
      'modules/bad/tasks/resolve_reference.json': '{"parameters": {"x": {"type": "Strin"}}}',
    })
    expect(await resolve(dir, 'two', {})).toEqual(E.left('Failed: task two::resolve_reference has more than one executable (resolve_reference.py, resolve_reference.sh) and its metadata names no implementations'))
    expect(await resolve(dir, 'bad', {})).toEqual(E.left(`Failed: task metadata ${dir}/modules/bad/tasks/resolve_reference.json: parameter x: type "Strin": Strin is not a type plait knows (String, Boolean, Integer, Float, Numeric, Optional, Array, Hash, Enum, Variant, Data, Any, Undef)`))
  })

  it('finds the project of a directory: the nearest with bolt-project.yaml or Boltdir/, else the directory itself', async () => {
    const dir = await project({ 'bolt-project.yaml': 'name: p\n', 'sub/deeper/.keep': '', 'other/Boltdir/.keep': '' })
    expect(await Discover.projectOf(nodePath.join(dir, 'sub', 'deeper'))).toBe(dir)
    expect(await Discover.projectOf(nodePath.join(dir, 'other'))).toBe(nodePath.join(dir, 'other', 'Boltdir'))
    const lone = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-bolt-lone-'))
    try {
      expect(await Discover.projectOf(lone)).toBe(lone)
    } finally {
      await fs.rmdir(lone)
    }
  })
})

describe('running plugin tasks', () => {
  it('gives parameters, defaults and metaparameters on stdin for the stdin input method, and no PT_ variables', async () => {
    const dir = await project(plugin('p', '#!/bin/sh\nprintf \'{"value": {"stdin": %s, "env": "%s"}}\' "$(cat)" "${PT_name-unset}"\n', { input_method: 'stdin', parameters: { name: { type: 'String' }, n: { type: 'Integer', default: 7 } } }))
    const r = await resolve(dir, 'p', { name: 'x' })
    expect(E.isRight(r)).toBe(true)
    const v = (r as E.Right<{ stdin: Record<string, unknown>; env: string }>).right
    expect(v.env).toBe('unset')
    expect(v.stdin).toMatchObject({ name: 'x', n: 7, _task: 'p::resolve_reference', _boltdir: dir })
    expect(String(v.stdin['_installdir'])).toMatch(new RegExp(`^${tmp}/plait-bolt-`))
  })

  it('gives PT_ variables (non-strings as JSON) and nothing on stdin for the environment input method', async () => {
    const dir = await project(plugin('p', '#!/bin/sh\nprintf \'{"value": {"name": "%s", "list": %s, "task": "%s", "stdin": "%s"}}\' "$PT_name" "$PT_list" "$PT__task" "$(cat)"\n', { input_method: 'environment', parameters: { name: { type: 'String' }, list: { type: 'Array[Integer]' } } }))
    expect(await resolve(dir, 'p', { name: 'x y', list: [1, 2] })).toEqual(E.right({ name: 'x y', list: [1, 2], task: 'p::resolve_reference', stdin: '' }))
  })

  it('gives both by default', async () => {
    const dir = await project(plugin('p', '#!/bin/sh\nprintf \'{"value": {"env": "%s", "stdin": %s}}\' "$PT_name" "$(cat)"\n'))
    const r = await resolve(dir, 'p', { name: 'x' })
    expect(E.isRight(r) && r.right).toMatchObject({ env: 'x', stdin: { name: 'x', _task: 'p::resolve_reference' } })
  })

  it('runs a python3 task by its interpreter line, from the project directory', async () => {
    const dir = await project({ 'modules/py/bolt_plugin.json': '{}', 'modules/py/tasks/resolve_reference.py': '#!/usr/bin/env python3\nimport json, os, sys\np = json.load(sys.stdin)\nprint(json.dumps({"value": {"cwd": os.getcwd(), "twice": p["n"] * 2}}))\n' })
    expect(await resolve(dir, 'py', { n: 21 })).toEqual(E.right({ cwd: dir, twice: 42 }))
  })

  it('lays out the files a task names under _installdir', async () => {
    const dir = await project({
      ...plugin('p', '#!/bin/sh\nprintf \'{"value": "%s %s"}\' "$(cat "$PT__installdir/p/files/greeting.txt")" "$(cat "$PT__installdir/q/lib/dir/x")"\n', { files: ['p/files/greeting.txt', 'q/lib/dir/'] }),
      'modules/p/files/greeting.txt': 'hello',
      'modules/q/lib/dir/x': 'there',
    })
    expect(await resolve(dir, 'p', {})).toEqual(E.right('hello there'))
    const bad = await project({ ...plugin('p', echoStdin, { files: ['p/files/../../../etc/passwd'] }), ...plugin('q', echoStdin, { files: ['nomod/files/x'] }) })
    expect(await resolve(bad, 'p', {})).toEqual(E.left('Failed: task p::resolve_reference: its file "p/files/../../../etc/passwd" is not MODULE/files/..., MODULE/lib/... or MODULE/tasks/...'))
    expect(await resolve(bad, 'q', {})).toEqual(E.left('Failed: task q::resolve_reference: its file "nomod/files/x" names the module nomod, which is not on the module path'))
  })

  it('starts the interpreter of the copied task with the environment, input, directory and timeout it is given (no shell)', async () => {
    const dir = await project(plugin('p', '#!/usr/bin/env -S sh -e\n', { parameters: { a: { type: 'Integer' } } }))
    const processes = Processes.memory(() => ({ stdout: '{"value": "scripted"}' }))
    expect(await resolve(dir, 'p', { a: 1 }, { processes, env: { KEEP: 'k' }, timeoutSeconds: 7 })).toEqual(E.right('scripted'))
    const [run] = processes.runs()
    expect(run?.file).toBe('/usr/bin/env')
    expect(run?.args.slice(0, 1)).toEqual(['-S sh -e'])
    expect(run?.args[1]).toMatch(new RegExp(`^${tmp}/plait-bolt-[^/]+/p/tasks/resolve_reference.sh$`))
    expect(run).toMatchObject({ cwd: dir, timeoutMs: 7000, module: 'bolt', op: 'resolve_reference', subject: 'p', env: { KEEP: 'k', PT_a: '1', PT__task: 'p::resolve_reference', PT__boltdir: dir } })
    expect(JSON.parse(run!.input)).toMatchObject({ a: 1, _task: 'p::resolve_reference' })
    // the install directory is gone after the run
    await expect(fs.access(nodePath.dirname(nodePath.dirname(nodePath.dirname(run!.args[1]!))))).rejects.toThrow()
  })

  it('refuses unknown, missing and ill-typed parameters before running anything', async () => {
    const dir = await project(plugin('p', echoStdin, { parameters: { name: { type: 'String' }, mode: { type: "Enum['a', 'b']" } } }))
    const processes = Processes.memory(() => ({ stdout: '{"value": 1}' }))
    expect(await resolve(dir, 'p', { nmae: 'x', mode: 'c' }, { processes })).toEqual(E.left("Failed: Task p::resolve_reference: parameter 'mode' expects a match for Enum['a', 'b'], got String; has no parameter named 'nmae'; expects a value for parameter 'name'"))
    expect(processes.runs()).toEqual([])
  })

  it('words an _error as Bolt does (its msg only), and a non-zero exit with its stderr', async () => {
    const dir = await project({
      ...plugin('e', '#!/bin/sh\necho \'{"_error": {"msg": "vault sealed", "kind": "vault/sealed", "details": {"backtrace": ["a.rb:1"]}}}\'\nexit 1\n'),
      ...plugin('x', '#!/bin/sh\necho oops >&2\nexit 4\n'),
    })
    expect(await resolve(dir, 'e', {})).toEqual(E.left(`Failed: Error executing plugin e from resolve_reference in e: vault sealed`))
    expect(await resolve(dir, 'x', {})).toEqual(E.left(`Failed: Error executing plugin x from resolve_reference in x: The task failed with exit code 4: oops`))
  })

  it('refuses output without a value, and output that is not a JSON object, as protocol violations', async () => {
    const dir = await project({ ...plugin('nv', '#!/bin/sh\necho \'{"val": 1}\'\n'), ...plugin('nj', '#!/bin/sh\necho hello world\n') })
    expect(await resolve(dir, 'nv', {})).toEqual(E.left(`ProtocolViolation: Error executing plugin nv from resolve_reference in nv: Plugin nv result did not include a value, got {"val":1}`))
    expect(await resolve(dir, 'nj', {})).toEqual(E.left(`ProtocolViolation: Error executing plugin nj from resolve_reference in nj: it printed hello world, which is not a JSON object; a plugin prints one such as {"value": ...}`))
  })

  it('kills a task that hangs, with its process group, at the timeout', async () => {
    const dir = await project(plugin('hang', '#!/bin/sh\nsleep 60 &\necho $! > "$PT__boltdir/child.pid"\nwait\n'))
    const started = Date.now()
    const r = await resolve(dir, 'hang', {}, { timeoutSeconds: 0.5 })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(E.isLeft(r) && r.left).toMatch(/^TimedOut: task hang::resolve_reference \(.*\): ran longer than .* and was killed with its process group$/)
    const child = Number(await fs.readFile(nodePath.join(dir, 'child.pid'), 'utf8'))
    await new Promise((ok) => setTimeout(ok, 100))
    // gone, or a zombie no one reaps yet (this container's PID 1 may not): either way, no longer running
    const state = await fs.readFile(`/proc/${child}/stat`, 'utf8').then((s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3), () => 'gone')
    expect(['gone', 'Z', 'X']).toContain(state)
  })

  it('refuses the powershell input method, a task without an interpreter line, and an invalid timeout', async () => {
    const dir = await project({ ...plugin('ps', echoStdin, { input_method: 'powershell' }), ...plugin('ns', 'echo \'{"value": 1}\'\n') })
    expect(await resolve(dir, 'ps', {})).toEqual(E.left("Failed: task ps::resolve_reference uses the powershell input method, which plait cannot give on this controller (it needs PowerShell's named arguments); use stdin, environment or both"))
    expect(await resolve(dir, 'ns', {})).toEqual(E.left('Failed: task ns::resolve_reference has no interpreter line (#!): plait runs a task by its interpreter, for example #!/bin/sh'))
    expect(await Resolvers.resolversFor({ projectDir: dir, timeoutSeconds: 0 })).toEqual(E.left('the plugin timeout must be a positive number of seconds, not 0'))
  })

  it('runs validate_resolve_reference first, and not resolve_reference when it fails', async () => {
    const log = (what: string) => `#!/bin/sh\necho ${what} >> "$PT__boltdir/log"\n`
    const dir = await project({
      ...plugin('v', `${log('resolve')}echo '{"value": "ok"}'\n`, { parameters: { ok: { type: 'Boolean' } } }),
      'modules/v/tasks/validate_resolve_reference.sh': `${log('validate')}if [ "$PT_ok" = true ]; then echo '{}'; else echo '{"_error": {"msg": "not ok"}}'; fi\n`,
    })
    expect(await resolve(dir, 'v', { ok: true })).toEqual(E.right('ok'))
    expect(await fs.readFile(nodePath.join(dir, 'log'), 'utf8')).toBe('validate\nresolve\n')
    const r = await resolve(dir, 'v', { ok: false })
    expect(E.isLeft(r) && r.left).toMatch(/^Failed: Error executing plugin v from validate_resolve_reference in v: not ok$/)
    expect(await fs.readFile(nodePath.join(dir, 'log'), 'utf8')).toBe('validate\nresolve\nvalidate\n')
  })

  it('drops _ keys other than _cache as Bolt does', async () => {
    const dir = await project(plugin('p', echoStdin, { parameters: { a: { type: 'Integer' } } }))
    const r = await resolve(dir, 'p', { a: 1, _other: 2 })
    expect(E.isRight(r) && r.right).toMatchObject({ a: 1 })
    expect(E.isRight(r) && (r.right as Record<string, unknown>)['_other']).toBeUndefined()
  })
})

describe('references through the resolve stage', () => {
  it('resolves references inside references, and results that are references', async () => {
    const dir = await project({
      ...plugin('wrap', '#!/bin/sh\nprintf \'{"value": {"wrapped": %s}}\' "$PT_inner"\n', { input_method: 'environment', parameters: { inner: { type: 'Data' } } }),
      ...plugin('again', '#!/bin/sh\necho \'{"value": {"_plugin": "env_var", "var": "PLAIT_TEST_AGAIN"}}\'\n'),
    })
    const table = await Resolvers.resolversFor({ projectDir: dir, env: env({ PLAIT_TEST_INNER: 'deep', PLAIT_TEST_AGAIN: 'twice' }), tmpdir: tmp })
    if (E.isLeft(table)) throw new Error(table.left)
    const text = 'data:\n  x:\n    _plugin: wrap\n    inner:\n      list:\n        - _plugin: env_var\n          var: PLAIT_TEST_INNER\n  y:\n    _plugin: again\n'
    const tree = parse('m.yaml', text)
    if (E.isLeft(tree)) throw new Error('parse')
    const r = await Resolve.resolve(tree.right, table.right)
    if (E.isLeft(r)) throw new Error(r.left.map((d) => d.message).join('\n'))
    expect(Node.toJS(r.right.node)).toEqual({ data: { x: { wrapped: { list: ['deep'] } }, y: 'twice' } })
  })

  it('reports a failing plugin at its reference', async () => {
    const dir = await project({})
    const table = await Resolvers.resolversFor({ projectDir: dir, env: {} })
    if (E.isLeft(table)) throw new Error(table.left)
    const tree = parse('m.yaml', 'a:\n  _plugin: env_var\n  var: 3\n')
    if (E.isLeft(tree)) throw new Error('parse')
    const r = await Resolve.resolve(tree.right, table.right)
    expect(E.isLeft(r) && r.left.map((d) => `${d.at?.line}:${d.at?.col} ${d.message}`)).toEqual([
      "2:3 _plugin: \"env_var\": resolve_reference env_var: Task env_var::resolve_reference: parameter 'var' expects an Optional[String] value, got Integer",
    ])
  })
})
