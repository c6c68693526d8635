// e2e: `_plugin` references through the built binary. plait's own env_var and yaml plugins
// (lib/bolt/) run as real processes; a project's own yaml module replaces ours, but no module
// replaces env_var (Bolt's built-in); a Forge-layout Ruby module finds plait's ruby_task_helper; a run whose
// manifest says no `_plugin` never looks at the project (a broken one does not stop it).
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const me = { user: 'root', group: 'root' }

const manifest = `data:
  motd:
    _plugin: env_var
    var: PLAIT_E2E_MOTD
ccm:
  resources:
    - file:
        - /etc/motd:
            content: "{{ lookup('data.motd') }}\\n"
            owner: ${me.user}
            group: ${me.group}
            mode: "0644"
`

describe.concurrent('plugin references', () => {
  it('plan and apply resolve a reference with plait\'s env_var plugin, and the plan holds the value', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const project = tempDir()
    const m = s.manifest(manifest)
    const env = { PLAIT_E2E_MOTD: 'hello from a plugin' }
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--json'], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('hello from a plugin')
    const a = await plait(['apply', m, '--root', s.root, '--project', project], { env })
    expect(a.code, show(a)).toBe(0)
    expect(fs.readFileSync(path.join(s.root, 'etc/motd'), 'utf8')).toBe('hello from a plugin\n')
    const again = await plait(['plan', m, '--root', s.root, '--project', project, '--detailed-exitcode'], { env })
    expect(again.code, show(again)).toBe(0)
  })

  it('a plugin\'s error stops the plan at the reference, exit 1, no stack trace', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest)
    const r = await plait(['plan', m, '--root', s.root, '--project', tempDir()], { env: { PLAIT_E2E_MOTD: undefined } })
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:5: .*_plugin: "env_var": .*PLAIT_E2E_MOTD`))
    expect(r.stderr).not.toMatch(stackFrame)
  })

  it("a project module named yaml replaces plait's own; one named env_var never replaces Bolt's built-in", async ({ expect }) => {
    const s = sandbox()
    const project = tempDir()
    for (const name of ['env_var', 'yaml']) {
      const mod = path.join(project, 'modules', name)
      fs.mkdirSync(path.join(mod, 'tasks'), { recursive: true })
      fs.writeFileSync(path.join(mod, 'bolt_plugin.json'), '{}\n')
      fs.writeFileSync(path.join(mod, 'tasks', 'resolve_reference.sh'), `#!/bin/sh\necho '{"value": "${name} from the project"}'\n`, { mode: 0o755 })
    }
    const both = manifest.replace('    var: PLAIT_E2E_MOTD\n', '    var: PLAIT_E2E_MOTD\n  other:\n    _plugin: yaml\n    filepath: x.yaml\n').replace("lookup('data.motd') }}", "lookup('data.motd') }} {{ lookup('data.other') }}")
    const r = await plait(['compile', s.manifest(both), '--project', project, '--json'], { env: { PLAIT_E2E_MOTD: 'from the built-in' } })
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('from the built-in yaml from the project')
    expect(r.stdout).not.toContain('env_var from the project')
  })

  it('a Forge-layout Ruby module whose task names ruby_task_helper in its files runs with plait\'s helper', async ({ expect }) => {
    const s = sandbox()
    const project = tempDir()
    const mod = path.join(project, 'modules', 'rbdata')
    fs.mkdirSync(path.join(mod, 'tasks'), { recursive: true })
    fs.writeFileSync(path.join(mod, 'bolt_plugin.json'), '{}\n')
    fs.writeFileSync(path.join(mod, 'tasks', 'resolve_reference.json'), JSON.stringify({ input_method: 'stdin', parameters: { word: { type: 'String' } }, files: ['ruby_task_helper/files/task_helper.rb'] }))
    fs.writeFileSync(
      path.join(mod, 'tasks', 'resolve_reference.rb'),
      "#!/usr/bin/env ruby\nrequire_relative '../../ruby_task_helper/files/task_helper.rb'\nclass Shout < TaskHelper\n  def task(word:, **)\n    raise TaskHelper::Error.new('no word', 'rbdata/empty', { 'where' => caller }) if word.empty?\n    { value: word.upcase }\n  end\nend\nShout.run if $PROGRAM_NAME == __FILE__\n",
    )
    const doc = manifest.replace('    _plugin: env_var\n    var: PLAIT_E2E_MOTD\n', '    _plugin: rbdata\n    word: hello\n')
    const r = await plait(['compile', s.manifest(doc), '--project', project, '--json'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('HELLO')
    const bad = await plait(['compile', s.manifest(doc.replace('word: hello', 'word: ""')), '--project', project])
    expect(bad.code, show(bad)).toBe(1)
    expect(bad.stderr).toContain('Error executing plugin rbdata from resolve_reference in rbdata: no word')
    expect(bad.stderr).not.toMatch(/rbdata\/empty|\.rb:\d/)
  })

  it('a manifest without references never reads the project: a broken bolt-project.yaml does not matter', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const project = tempDir()
    fs.writeFileSync(path.join(project, 'bolt-project.yaml'), 'name: [not, a, name\n')
    const plain = manifest.replace(/data:\n {2}motd:\n {4}_plugin: env_var\n {4}var: PLAIT_E2E_MOTD\n/, 'data:\n  motd: plain\n')
    const r = await plait(['plan', s.manifest(plain), '--root', s.root, '--project', project])
    expect(r.code, show(r)).toBe(0)
  })
})

describe.concurrent('plugin results as plan inputs, validate and compile', () => {
  it("the plan records each reference and its value's digest, and applying it runs no plugin", async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const plan = path.join(s.host, 'plan.json')
    const m = s.manifest(manifest)
    const made = await plait(['plan', m, '--root', s.root, '--project', tempDir(), '--out', plan], { env: { PLAIT_E2E_MOTD: 'planned value' } })
    expect(made.code, show(made)).toBe(0)
    const inputs = (JSON.parse(fs.readFileSync(plan, 'utf8')) as { inputs: { plugins: unknown } }).inputs.plugins
    expect(inputs).toEqual([{ plugin: 'env_var', at: `${m}:3:5`, reference: { _plugin: 'env_var', var: 'PLAIT_E2E_MOTD' }, digest: `sha256:${createHash('sha256').update('"planned value"').digest('hex')}` }])
    // The variable is unset at apply: the plugin would fail if it ran.
    const a = await plait(['apply', plan, '--root', s.root], { env: { PLAIT_E2E_MOTD: undefined } })
    expect(a.code, show(a)).toBe(0)
    expect(fs.readFileSync(s.at('etc/motd'), 'utf8')).toBe('planned value\n')
  })

  it('validate runs no plugin unless --resolve, and lists the references it did not resolve', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest)
    const v = await plait(['validate', m, '--project', tempDir()], { env: { PLAIT_E2E_MOTD: undefined } })
    expect(v.code, show(v)).toBe(0)
    expect(v.stdout).toBe(`${m}: valid, 1 resource\nnot resolved (--resolve runs their plugins): _plugin: env_var at ${m}:3:5\n`)
    const resolved = await plait(['validate', m, '--project', tempDir(), '--resolve'], { env: { PLAIT_E2E_MOTD: undefined } })
    expect(resolved.code, show(resolved)).toBe(1)
    expect(resolved.stderr).toContain("env_var plugin requires that the var 'PLAIT_E2E_MOTD' be set")
    const ok = await plait(['validate', m, '--project', tempDir(), '--resolve'], { env: { PLAIT_E2E_MOTD: 'set' } })
    expect(ok.code, show(ok)).toBe(0)
    expect(ok.stdout).toBe(`${m}: valid, 1 resource\n`)
  })

  it("compile shows a secret plugin's value as [sensitive]", async ({ expect }) => {
    const project = tempDir()
    fs.mkdirSync(path.join(project, 'modules/vault/tasks'), { recursive: true })
    fs.writeFileSync(path.join(project, 'modules/vault/bolt_plugin.json'), '{}\n')
    fs.writeFileSync(path.join(project, 'modules/vault/tasks/resolve_reference.sh'), '#!/bin/sh\necho \'{"value": "Compile-Secret-5"}\'\n', { mode: 0o755 })
    fs.writeFileSync(path.join(project, 'modules/vault/tasks/secret_decrypt.sh'), '#!/bin/sh\necho \'{"value": ""}\'\n', { mode: 0o755 })
    const m = sandbox().manifest(manifest.replace('_plugin: env_var\n    var: PLAIT_E2E_MOTD', '_plugin: vault'))
    for (const json of [[], ['--json']]) {
      const r = await plait(['compile', m, '--project', project, ...json])
      expect(r.code, show(r)).toBe(0)
      expect(r.stdout).toContain('[sensitive]')
      expect(r.stdout + r.stderr).not.toContain('Compile-Secret-5')
    }
  })
})

describe('plugin flags with a saved plan', () => {
  it('are refused: a saved plan holds the values its plugins gave and runs no plugin', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const plan = path.join(s.host, 'plan.json')
    const made = await plait(['plan', s.manifest(manifest), '--root', s.root, '--project', tempDir(), '--out', plan], { env: { PLAIT_E2E_MOTD: 'x' } })
    expect(made.code, show(made)).toBe(0)
    const r = await plait(['apply', plan, '--root', s.root, '--modulepath', tempDir()])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('--project and --modulepath apply to a manifest')
    expect(fs.existsSync(s.at('etc/motd'))).toBe(false)
  })
})
