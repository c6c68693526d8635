// e2e: Bolt secrets through the built binary. `plait secret createkeys|encrypt|decrypt` with
// plait's own pkcs7 plugin (lib/bolt/pkcs7, openssl); a manifest that takes a value through
// `_plugin: pkcs7` plans and applies with the value only ever in memory: the plan file, every
// rendering of it, stdout, stderr and the state directory are searched for the clear text. A
// secret plugin of the test's own (a shell module) shows apply refusing a plan whose secret changed;
// a puppet_library hook of our own runs before `apply` when the project configures it, and its failure stops it.
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import * as Cache from '../../src/interpreters/bolt/cache.js'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame, stateRel, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

/** Every file below a directory, with its text. */
const texts = (dir: string): ReadonlyArray<readonly [string, string]> =>
  fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile()).map((f) => [f, fs.readFileSync(f, 'latin1')] as const) : []

const fileManifest = (data: string, content = "password={{ lookup('data.pw') }}\\n", mode = '0600'): string => `data:
  pw:
${data}
ccm:
  resources:
    - file:
        - /etc/app.conf:
            content: "${content}"
            owner: root
            group: root
            mode: "${mode}"
`

/**
 * A Bolt project with two plugins of the test's own: `vault`, a secret plugin whose value is
 * `values[which]` (default `main`) of its values.json, and `wrap`, a plain one that wraps its `token`
 * parameter and counts its runs in runs.txt.
 */
const vaultProject = (values: Readonly<Record<string, string>>): string => {
  const project = tempDir()
  for (const m of ['vault', 'wrap']) {
    fs.mkdirSync(path.join(project, `modules/${m}/tasks`), { recursive: true })
    fs.writeFileSync(path.join(project, `modules/${m}/bolt_plugin.json`), '{}\n')
  }
  fs.writeFileSync(path.join(project, 'values.json'), JSON.stringify(values))
  const python = (body: string): string => `#!/usr/bin/env python3\nimport json, sys\np = json.load(sys.stdin)\n${body}\n`
  fs.writeFileSync(path.join(project, 'modules/vault/tasks/resolve_reference.py'), python('print(json.dumps({"value": json.load(open("values.json"))[p.get("which", "main")]}))'), { mode: 0o755 })
  fs.writeFileSync(path.join(project, 'modules/vault/tasks/secret_decrypt.sh'), '#!/bin/sh\necho \'{"value": ""}\'\n', { mode: 0o755 })
  fs.writeFileSync(path.join(project, 'modules/wrap/tasks/resolve_reference.py'), python('open("runs.txt", "a").write("run\\n")\nprint(json.dumps({"value": "wrapped:" + str(p["token"])}))'), { mode: 0o755 })
  return project
}

describe.concurrent('secrets', () => {
  it('createkeys, encrypt and decrypt with pkcs7, then a manifest whose secret never leaves memory', async ({ expect }) => {
    const secret = 'Nk8-e2e-distinctive-secret'
    const project = tempDir()
    const keys = await plait(['secret', 'createkeys', '--project', project])
    expect(keys.code, show(keys)).toBe(0)
    expect(keys.stdout).toBe(`${path.join(project, 'keys/public_key.pkcs7.pem')}\n${path.join(project, 'keys/private_key.pkcs7.pem')}\n`)
    const again = await plait(['secret', 'createkeys', '--project', project])
    expect(again.code, show(again)).toBe(1)
    expect(again.stderr).toContain("Existing key pairs can be overwritten by setting the 'force' option to true")
    expect((await plait(['secret', 'createkeys', '--force', '--project', project])).code).toBe(0)
    const enc = await plait(['secret', 'encrypt', '--project', project, secret])
    expect(enc.code, show(enc)).toBe(0)
    const cipher = enc.stdout.trim()
    expect(cipher).toMatch(/^ENC\[PKCS7,[A-Za-z0-9+/=]+\]$/)
    const dec = await plait(['secret', 'decrypt', '--project', project, cipher])
    expect(dec.code, show(dec)).toBe(0)
    expect(dec.stdout).toBe(`${secret}\n`)

    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const m = s.manifest(fileManifest(`    _plugin: pkcs7\n    encrypted_value: "${cipher}"`))
    const planFile = path.join(s.host, 'plan.json')
    const outputs: string[] = []
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    outputs.push(p.stdout, p.stderr)
    const planText = fs.readFileSync(planFile, 'utf8')
    expect(planText).toMatch(/⟦sensitive:[0-9a-f]{16}⟧/)
    const plan = JSON.parse(planText) as { inputs: { plugins: ReadonlyArray<Record<string, unknown>> } }
    expect(plan.inputs.plugins).toEqual([{ plugin: 'pkcs7', at: `${m}:3:5`, reference: { _plugin: 'pkcs7', encrypted_value: cipher }, digest: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/), sensitive: true }])
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const r = await plait(['show', planFile, '--format', format])
      expect(r.code, show(r)).toBe(0)
      if (format !== 'github') expect(r.stdout).toMatch(/⟦sensitive:[0-9a-f]{16}⟧/) // annotations name resources, not contents
      outputs.push(r.stdout, r.stderr)
    }
    const a = await plait(['apply', planFile, '--root', s.root, '--project', project, '--json'])
    expect(a.code, show(a)).toBe(0)
    outputs.push(a.stdout, a.stderr)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(`password=${secret}\n`)
    const same = await plait(['plan', m, '--root', s.root, '--project', project, '--detailed-exitcode'])
    expect(same.code, show(same)).toBe(0)
    outputs.push(same.stdout, same.stderr)
    // apply of the manifest itself (plan and apply in one run) changes the file back after a local edit
    fs.writeFileSync(s.at('etc/app.conf'), 'edited\n')
    const direct = await plait(['apply', m, '--root', s.root, '--project', project])
    expect(direct.code, show(direct)).toBe(0)
    outputs.push(direct.stdout, direct.stderr)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(`password=${secret}\n`)
    for (const o of [...outputs, planText]) expect(o).not.toContain(secret)
    for (const [file, text] of texts(s.at(stateRel))) expect(text.includes(secret), file).toBe(false)
  })

  it('a rollback to a generation whose file held a secret lists that file and never shows the secret', async ({ expect }) => {
    const secret = 'Rb7-e2e-rollback-secret'
    const project = tempDir()
    expect((await plait(['secret', 'createkeys', '--project', project])).code).toBe(0)
    const cipher = (await plait(['secret', 'encrypt', '--project', project, secret])).stdout.trim()
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const withSecret = s.manifest(fileManifest(`    _plugin: pkcs7\n    encrypted_value: "${cipher}"`))
    const first = await plait(['apply', withSecret, '--root', s.root, '--project', project])
    expect(first.code, show(first)).toBe(0)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(`password=${secret}\n`)
    // generation 2 overwrites the secret: its before-image holds it
    const plain = s.manifest(fileManifest('    public', 'password=public\\n'))
    const second = await plait(['apply', plain, '--root', s.root])
    expect(second.code, show(second)).toBe(0)
    const planFile = path.join(s.host, 'rollback.json')
    const r = await plait(['rollback', '--to', '1', '--out', planFile, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout + r.stderr).toContain('/etc/app.conf: its content holds a sensitive value')
    for (const text of [r.stdout, r.stderr, fs.readFileSync(planFile, 'utf8')]) expect(text).not.toContain(secret)
  })

  it('refuses a saved plan whose secret changed since it was made, before any change', async ({ expect }) => {
    const project = vaultProject({ main: 'Old-Vault-Secret-41' })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const m = s.manifest(fileManifest('    _plugin: vault'))
    const planFile = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    expect(fs.readFileSync(planFile, 'utf8')).not.toContain('Old-Vault-Secret-41')
    fs.writeFileSync(path.join(project, 'values.json'), JSON.stringify({ main: 'New-Vault-Secret-42' }))
    const a = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).toContain(`${m}:3:5: the sensitive value of _plugin: vault changed since the plan was made (its digest differs); nothing was applied`)
    expect(a.stderr).not.toMatch(stackFrame)
    expect(a.stdout + a.stderr).not.toMatch(/Old-Vault|New-Vault/)
    expect(fs.existsSync(s.at('etc/app.conf'))).toBe(false)
    // the same secret again: the plan applies
    fs.writeFileSync(path.join(project, 'values.json'), JSON.stringify({ main: 'Old-Vault-Secret-41' }))
    const ok = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(ok.code, show(ok)).toBe(0)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe('password=Old-Vault-Secret-41\n')
  })

  it('a file holding a secret: the plan keeps no digest of its new or old content a guess could be checked against; apply compares them keyed', async ({ expect }) => {
    const project = vaultProject({ main: 'Kd4-New-Secret' })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const former = 'password=Kd4-Former-Secret\n'
    fs.writeFileSync(s.at('etc/app.conf'), former, { mode: 0o600 })
    const m = s.manifest(fileManifest('    _plugin: vault'))
    const planFile = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('(old lines not shown: they may hold a sensitive value)')
    const digests = [former, 'password=Kd4-New-Secret\n'].map((t) => createHash('sha256').update(t).digest('hex'))
    const planText = fs.readFileSync(planFile, 'utf8')
    for (const text of [planText, p.stdout, p.stderr]) {
      for (const d of digests) expect(text).not.toContain(d.slice(0, 12))
      expect(text).not.toMatch(/Kd4-(Former|New)-Secret/)
    }
    // a local edit after the plan (it holds the secret too): the keyed observed digest no longer
    // matches, nothing is applied, and the drift quotes what the file holds now keyed
    const edited = 'password=Kd4-New-Secret\n# edited\n'
    fs.writeFileSync(s.at('etc/app.conf'), edited)
    const stale = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(stale.code, show(stale)).toBe(1)
    expect(stale.stderr).toContain('refusing a stale plan: 1 resource changed since it was made')
    expect(stale.stderr).toMatch(/now file 0600 \S+ 33 bytes hmac:[0-9a-f]{12}/)
    expect(stale.stdout + stale.stderr).not.toContain(createHash('sha256').update(edited).digest('hex').slice(0, 12))
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(edited)
    // as it was when planned: the keyed digests match, the file is written and verified
    fs.writeFileSync(s.at('etc/app.conf'), former)
    const ok = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(ok.code, show(ok)).toBe(0)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe('password=Kd4-New-Secret\n')
    for (const d of digests) expect(ok.stdout + ok.stderr).not.toContain(d.slice(0, 12))
    const again = path.join(s.host, 'again.json')
    const same = await plait(['plan', m, '--root', s.root, '--project', project, '--out', again, '--detailed-exitcode'])
    expect(same.code, show(same)).toBe(0)
    for (const d of digests) expect(fs.readFileSync(again, 'utf8')).not.toContain(d.slice(0, 12))
  })

  it('a secret with several lines, spaces or escaped characters is hidden in each form it takes: diff lines, output lines, trimmed excerpts, escapes', async ({ expect }) => {
    const value = '  Ml-First <Line> & co\nMl-Second-Line\n'
    const project = vaultProject({ main: value })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    fs.writeFileSync(s.at('etc/app.conf'), 'old\n', { mode: 0o600 })
    const m = s.manifest(`data:
  pw:
    _plugin: vault
ccm:
  resources:
    - file:
        - /etc/app.conf:
            content: "{{ lookup('data.pw') }}"
            owner: root
            group: root
            mode: "0600"
    - exec:
        - show-it:
            provider: shell
            command: "printf '%s' \\"{{ lookup('data.pw') }}\\"; printf '%s' \\"{{ lookup('data.pw') }}\\" >&2; exit 3"
            logoutput: true
`)
    const planFile = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    const outputs = [p.stdout, p.stderr, fs.readFileSync(planFile, 'utf8')]
    for (const format of ['text', 'json', 'markdown']) outputs.push((await plait(['show', planFile, '--format', format])).stdout)
    outputs.push((await plait(['compile', m, '--project', project])).stdout, (await plait(['compile', m, '--project', project, '--json'])).stdout)
    const a = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(a.code, show(a)).toBe(1) // the command exits 3
    outputs.push(a.stdout, a.stderr)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(value)
    for (const o of outputs) expect(o).not.toMatch(/Ml-First|Ml-Second/)
  })

  it('a secret of 3,000 lines (a certificate bundle) plans, shows and applies, none of its lines shown', async ({ expect }) => {
    // Its lines and their escapes are some 3,000 values to redact: as one regular expression V8 refused them ("too large").
    const lines = Array.from({ length: 3000 }, (_, i) => `Cb${i.toString(36).padStart(4, '0')}${createHash('sha256').update(String(i)).digest('base64').slice(0, 56)}`)
    const value = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
    const project = vaultProject({ main: value })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    fs.writeFileSync(s.at('etc/app.conf'), `${lines.slice(0, 1500).join('\n')}\nold\n`, { mode: 0o600 })
    const m = s.manifest(fileManifest('    _plugin: vault', "{{ lookup('data.pw') }}"))
    const planFile = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--project', project, '--out', planFile])
    expect(p.code, show(p)).toBe(0)
    const outputs = [p.stdout, p.stderr, fs.readFileSync(planFile, 'utf8')]
    for (const format of ['text', 'json']) outputs.push((await plait(['show', planFile, '--format', format])).stdout)
    const a = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(a.code, show(a)).toBe(0)
    outputs.push(a.stdout, a.stderr)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe(value)
    for (const o of outputs) expect(o).not.toMatch(/Cb[0-9a-z]{4}/)
  })

  it('a command holding a secret: its output, a failure and a journal left by a crash never show it', async ({ expect }) => {
    const project = vaultProject({ main: 'Cmd-Secret-63' })
    const s = sandbox()
    const m = s.manifest(`data:
  pw:
    _plugin: vault
ccm:
  resources:
    - exec:
        - use-it:
            provider: shell
            command: "echo using {{ lookup('data.pw') }}; echo also {{ lookup('data.pw') }} >&2; exit 3"
            logoutput: true
`)
    const failed = await plait(['apply', m, '--root', s.root, '--project', project])
    expect(failed.code, show(failed)).toBe(1)
    expect(failed.stdout + failed.stderr).toMatch(/⟦sensitive:[0-9a-f]{16}⟧/)
    const crashed = await plait(['apply', m, '--root', s.root, '--project', project], { env: { PLAIT_CRASH_AT_STEP: '1' } })
    expect(crashed.signal, show(crashed)).toBe('SIGKILL')
    const journal = texts(s.at(stateRel))
    expect(journal.some(([f]) => f.endsWith('journal')), journal.map(([f]) => f).join(' ')).toBe(true)
    for (const [file, text] of journal) expect(text.includes('Cmd-Secret-63'), file).toBe(false)
    for (const o of [failed.stdout, failed.stderr, crashed.stdout, crashed.stderr]) expect(o).not.toContain('Cmd-Secret-63')
  })

  it('an error about a sensitive value never quotes it', async ({ expect }) => {
    const project = vaultProject({ main: 'Mode-Secret-77' })
    const s = sandbox()
    const m = s.manifest(fileManifest('    _plugin: vault', 'x', "{{ lookup('data.pw') }}"))
    const r = await plait(['plan', m, '--root', s.root, '--project', project])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('[sensitive]')
    expect(r.stdout + r.stderr).not.toContain('Mode-Secret-77')
    // in the resource id the error names, too
    const named = s.manifest(`data:\n  pw:\n    _plugin: vault\nccm:\n  resources:\n    - package:\n        - "pkg-{{ lookup('data.pw') }}":\n            ensure: present\n`)
    const n = await plait(['plan', named, '--root', s.root, '--project', project])
    expect(n.code, show(n)).toBe(1)
    expect(n.stderr).toContain('package#pkg-[sensitive]')
    expect(n.stdout + n.stderr).not.toContain('Mode-Secret-77')
  })

  it('names an unknown secret plugin and one without the hook', async ({ expect }) => {
    const project = tempDir()
    const unknown = await plait(['secret', 'encrypt', '--plugin', 'nosuch', '--project', project, 'x'])
    expect(unknown.code, show(unknown)).toBe(1)
    expect(unknown.stderr).toContain('nosuch: no plugin of that name')
    const noHook = await plait(['secret', 'encrypt', '--plugin', 'env_var', '--project', project, 'x'])
    expect(noHook.code, show(noHook)).toBe(1)
    expect(noHook.stderr).toContain('Plugin env_var does not support secret_encrypt')
  })
})

describe.concurrent('apply and the puppet_library hook (plugin-hooks.puppet_library)', () => {
  const withHook = (version: string, key = 'plugin-hooks'): string => {
    const project = tempDir()
    fs.mkdirSync(path.join(project, 'modules/agent/tasks'), { recursive: true })
    fs.writeFileSync(path.join(project, 'modules/agent/bolt_plugin.json'), '{}\n')
    fs.writeFileSync(
      path.join(project, 'modules/agent/tasks/puppet_library.sh'),
      '#!/bin/sh\nif [ "$PT_version" = bad ]; then echo \'{"_error": {"msg": "cannot install the agent", "details": {"backtrace": ["agent.rb:12"]}}}\'; exit 1; fi\necho "$PT_version" >> prepared\necho \'{}\'\n',
      { mode: 0o755 },
    )
    fs.writeFileSync(path.join(project, 'bolt-project.yaml'), `${key}:\n  puppet_library:\n    plugin: agent\n    version: "${version}"\n`)
    return project
  }
  const motd = `ccm:\n  resources:\n    - file:\n        - /etc/motd:\n            content: "hi\\n"\n            owner: root\n            group: root\n            mode: "0644"\n`
  const prepared = (project: string): string => (fs.existsSync(path.join(project, 'prepared')) ? fs.readFileSync(path.join(project, 'prepared'), 'utf8') : '')

  it('runs the configured hook first, without --prepare, for the project given or the one around the working directory', async ({ expect }) => {
    const project = withHook('7.1')
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const r = await plait(['apply', s.manifest(motd), '--root', s.root, '--project', project])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('puppet_library: ran plugin agent')
    expect(prepared(project)).toBe('7.1\n')
    expect(fs.readFileSync(s.at('etc/motd'), 'utf8')).toBe('hi\n')
    // the older key, and the project found from the working directory (a directory below it)
    const older = withHook('6', 'plugin_hooks')
    fs.mkdirSync(path.join(older, 'sub'))
    const around = await plait(['apply', s.manifest(motd), '--root', s.root], { cwd: path.join(older, 'sub') })
    expect(around.code, show(around)).toBe(0)
    expect(prepared(older)).toBe('6\n')
    // --noop changes nothing, and prepares nothing
    const noop = await plait(['apply', s.manifest(motd), '--root', s.root, '--project', project, '--noop'])
    expect(noop.code, show(noop)).toBe(0)
    expect(prepared(project)).toBe('7.1\n')
  })

  it('--no-prepare skips it; --prepare without a configured hook is an error', async ({ expect }) => {
    const project = withHook('bad')
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const skipped = await plait(['apply', s.manifest(motd), '--root', s.root, '--project', project, '--no-prepare'])
    expect(skipped.code, show(skipped)).toBe(0)
    expect(skipped.stdout).not.toContain('puppet_library')
    expect(fs.readFileSync(s.at('etc/motd'), 'utf8')).toBe('hi\n')
    const none = tempDir()
    fs.writeFileSync(path.join(none, 'bolt-project.yaml'), 'name: none\n')
    const r = await plait(['apply', s.manifest(motd), '--root', s.root, '--project', none, '--prepare'])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('--prepare: no puppet_library hook is configured: give plugin-hooks.puppet_library ({plugin: NAME, ...}) in bolt-project.yaml or bolt-defaults.yaml; nothing was applied')
  })

  it("stops the apply with the plugin's message (its msg only) before any change, for a manifest and a saved plan", async ({ expect }) => {
    const project = withHook('bad')
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const m = s.manifest(motd)
    const r = await plait(['apply', m, '--root', s.root, '--project', project])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('puppet_library agent: Error executing plugin agent from puppet_library in agent: cannot install the agent; nothing was applied')
    expect(r.stderr).not.toMatch(stackFrame)
    expect(r.stderr).not.toContain('agent.rb')
    expect(fs.existsSync(s.at('etc/motd'))).toBe(false)
    const planFile = path.join(s.host, 'plan.json')
    expect((await plait(['plan', m, '--root', s.root, '--out', planFile])).code).toBe(0)
    const a = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).toContain('cannot install the agent; nothing was applied')
    expect(fs.existsSync(s.at('etc/motd'))).toBe(false)
    // the hook fixed: the saved plan applies after it, its --project now meaningful
    fs.writeFileSync(path.join(project, 'bolt-project.yaml'), 'plugin-hooks:\n  puppet_library:\n    plugin: agent\n    version: "8"\n')
    const ok = await plait(['apply', planFile, '--root', s.root, '--project', project])
    expect(ok.code, show(ok)).toBe(0)
    expect(prepared(project)).toBe('8\n')
    expect(fs.readFileSync(s.at('etc/motd'), 'utf8')).toBe('hi\n')
  })
})

describe.concurrent("the pkcs7 plugin's deprecated keys", () => {
  it('private-key and public-key in plugins.pkcs7 are read as private_key and public_key, with one warning per run', async ({ expect }) => {
    const project = tempDir()
    fs.writeFileSync(path.join(project, 'bolt-project.yaml'), 'plugins:\n  pkcs7:\n    private-key: secret/priv.pem\n    public-key: secret/pub.pem\n')
    const keys = await plait(['secret', 'createkeys', '--project', project])
    expect(keys.code, show(keys)).toBe(0)
    expect(keys.stdout).toBe(`${path.join(project, 'secret/pub.pem')}\n${path.join(project, 'secret/priv.pem')}\n`)
    const warning = "warning: the pkcs7 keys 'private-key' and 'public-key' are deprecated, as in Bolt; they are read as 'private_key' and 'public_key': use those\n"
    expect(keys.stderr).toBe(warning)
    const cipher = (await plait(['secret', 'encrypt', '--project', project, 'Dp2-deprecated'])).stdout.trim()
    const s = sandbox()
    const m = s.manifest(fileManifest(`    _plugin: pkcs7\n    encrypted_value: "${cipher}"\n  again:\n    _plugin: pkcs7\n    encrypted_value: "${cipher}"`, "{{ lookup('data.pw') }} {{ lookup('data.again') }}"))
    const r = await plait(['compile', m, '--project', project])
    expect(r.code, show(r)).toBe(0)
    expect(r.stderr).toBe(warning)
    expect(r.stdout + r.stderr).not.toContain('Dp2-deprecated')
  })
})

describe.concurrent('secrets: what compile and check print, the plugin cache and rollback plans', () => {
  /** A project whose secret plugin `vault` gives values[which] (default `main`), and whose plain plugin `wrap` gives `wrapped:` and its token, noting each run in runs.txt. */
  it('compile, text and --json, hides a secret before a long content is cut short or escaped: no start of it shows', async ({ expect }) => {
    const long = 'Lg7-abcdefghijklmnopqrstuvwxyz-0123456789-LongSecret'
    const escaped = 'Qb5"\u202eBidi\\Secret'
    const project = vaultProject({ main: long, esc: escaped })
    const s = sandbox()
    const m = s.manifest(`data:
  long:
    _plugin: vault
  esc:
    _plugin: vault
    which: esc
ccm:
  resources:
    - file:
        - /etc/l.conf:
            content: "key={{ lookup('data.long') }}\\n"
            owner: root
            group: root
            mode: "0600"
        - /etc/e.conf:
            content: "abcdefghijklmnopqrstuvwxyz0123456789{{ lookup('data.esc') }}\\n"
            owner: root
            group: root
            mode: "0600"
        - "/etc/{{ lookup('data.esc') }}.conf":
            content: "x\\n"
            owner: root
            group: root
            mode: "0600"
`)
    for (const json of [false, true]) {
      const r = await plait(['compile', m, '--project', project, ...(json ? ['--json'] : [])])
      expect(r.code, show(r)).toBe(0)
      expect(r.stdout).toContain('[sensitive]')
      expect(r.stdout + r.stderr).not.toMatch(/Lg7|Qb5|Bidi/)
    }
  })

  it('check, text and --json, never shows a secret: not in a check command, its output, a goss rule, nor a start of one that goss cut short', async ({ expect }) => {
    const secret = 'Ck3-health-check-secret-abcdefghijklmnop'
    const project = vaultProject({ main: secret })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    // goss shows at most 200 characters of what a file holds: this one's secret starts 186 characters in
    fs.writeFileSync(s.at('etc/g.conf'), `${'p'.repeat(185)}${secret}\n`)
    const m = s.manifest(`data:
  pw:
    _plugin: vault
ccm:
  resources:
    - file:
        - /etc/g.conf:
            content: "${'p'.repeat(185)}{{ lookup('data.pw') }}\\n"
            owner: root
            group: root
            mode: "0600"
            health_checks:
              - command: "/bin/echo checking {{ lookup('data.pw') }}"
              - name: "goss-{{ lookup('data.pw') }}"
                goss_rules:
                  file:
                    /etc/g.conf:
                      contents: ["nomatch"]
                    /etc/none.conf:
                      contents: ["{{ lookup('data.pw') }}"]
`)
    for (const json of [false, true]) {
      const r = await plait(['check', m, '--root', s.root, '--project', project, ...(json ? ['--json'] : [])])
      expect(r.code, show(r)).toBe(2)
      expect(r.stdout).toContain('checking [sensitive]')
      expect(r.stdout).toContain('…')
      expect(r.stdout + r.stderr).not.toContain('Ck3')
    }
  })

  it('a cached reference whose parameters hold a secret is never cached: it runs every time and the cache holds neither its key nor its value', async ({ expect }) => {
    const secret = 'Cq8-cached-secret'
    const project = vaultProject({ main: secret })
    const cache = tempDir()
    const s = sandbox()
    const m = s.manifest(`data:
  derived:
    _plugin: wrap
    token:
      _plugin: vault
    _cache:
      ttl: 60
  plain:
    _plugin: wrap
    token: public
    _cache:
      ttl: 60
ccm:
  resources:
    - file:
        - /etc/c.conf:
            content: "d={{ lookup('data.derived') }} p={{ lookup('data.plain') }}\\n"
            owner: root
            group: root
            mode: "0600"
`)
    const cacheFile = path.join(cache, 'plait/bolt-plugin-cache.json')
    for (const runs of [2, 3]) {
      const r = await plait(['compile', m, '--project', project], { env: { XDG_CACHE_HOME: cache } })
      expect(r.code, show(r)).toBe(0)
      // the plain reference is cached: only the one holding the secret runs again
      expect(fs.readFileSync(cacheFile, 'utf8')).not.toContain('Cq8')
      const kept = Cache.parse(fs.readFileSync(cacheFile, 'utf8')).entries
      expect([...kept.values()].map((e) => e.value)).toEqual(['wrapped:public'])
      expect(fs.readFileSync(path.join(project, 'runs.txt'), 'utf8')).toBe('run\n'.repeat(runs))
      expect(r.stdout).toContain('d=[sensitive] p=wrapped:public')
    }
  })

  it('a rollback plan keeps no clear digest of a file that holds a secret now, and never carries bytes from before plait that a secret was written over', async ({ expect }) => {
    const secret = 'Rk6-rollback-secret'
    const project = vaultProject({ main: secret })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    const plain = s.manifest(fileManifest('    public', 'password=public\\n'), 'plain.yaml')
    const withSecret = s.manifest(fileManifest('    _plugin: vault'), 'secret.yaml')
    expect((await plait(['apply', plain, '--root', s.root])).code).toBe(0)
    const second = await plait(['apply', withSecret, '--root', s.root, '--project', project])
    expect(second.code, show(second)).toBe(0)
    const now = createHash('sha256').update(`password=${secret}\n`).digest('hex')
    const planFile = path.join(s.host, 'rollback.json')
    for (const json of [false, true]) {
      const r = await plait(['rollback', '--to', '1', '--out', planFile, '--root', s.root, ...(json ? ['--json'] : [])])
      expect(r.code, show(r)).toBe(0)
      const planText = fs.readFileSync(planFile, 'utf8')
      expect(r.stdout).toMatch(/content differs \(hmac:[0-9a-f]{12} → hmac:[0-9a-f]{12}\)/)
      for (const text of [r.stdout, r.stderr, planText]) {
        expect(text).not.toContain(now.slice(0, 12))
        expect(text).not.toContain(secret)
      }
    }

    // a file that held a secret before plait wrote one over it: a rollback to before plait lists it, and its plan carries none of its bytes
    const t = sandbox()
    fs.mkdirSync(t.at('etc'))
    fs.writeFileSync(t.at('etc/app.conf'), 'password=Pp2-pre-plait-secret\n', { mode: 0o600 })
    const m = t.manifest(fileManifest('    _plugin: vault'))
    expect((await plait(['apply', m, '--root', t.root, '--project', project])).code).toBe(0)
    const toZero = path.join(t.host, 'rollback0.json')
    const r = await plait(['rollback', '--to', '0', '--out', toZero, '--root', t.root])
    expect(r.code, show(r)).toBe(0)
    for (const text of [r.stdout, r.stderr, fs.readFileSync(toZero, 'utf8')]) expect(text).not.toMatch(/Pp2-pre-plait|cGFzc3dvcmQ9UHAy/)
    expect(r.stdout).toContain('/etc/app.conf: its content from before plait changed it may hold a sensitive value (generation 1 wrote one over it)')
  })

  it('a rollback plan with keyed digests applies with the host key, and refuses when the file changed since', async ({ expect }) => {
    const secret = 'Ra9-rollback-secret'
    const project = vaultProject({ main: secret })
    const s = sandbox()
    fs.mkdirSync(s.at('etc'))
    expect((await plait(['apply', s.manifest(fileManifest('    public', 'password=public\\n'), 'plain.yaml'), '--root', s.root])).code).toBe(0)
    expect((await plait(['apply', s.manifest(fileManifest('    _plugin: vault'), 'secret.yaml'), '--root', s.root, '--project', project])).code).toBe(0)
    const planFile = path.join(s.host, 'rollback.json')
    expect((await plait(['rollback', '--to', '1', '--out', planFile, '--root', s.root])).code).toBe(0)
    fs.writeFileSync(s.at('etc/app.conf'), `password=${secret}\n# edited\n`)
    const stale = await plait(['apply', planFile, '--root', s.root])
    expect(stale.code, show(stale)).toBe(1)
    expect(stale.stderr).toContain('refusing a stale plan')
    expect(stale.stdout + stale.stderr).not.toContain(createHash('sha256').update(`password=${secret}\n# edited\n`).digest('hex').slice(0, 12))
    fs.writeFileSync(s.at('etc/app.conf'), `password=${secret}\n`)
    const a = await plait(['apply', planFile, '--root', s.root])
    expect(a.code, show(a)).toBe(0)
    expect(fs.readFileSync(s.at('etc/app.conf'), 'utf8')).toBe('password=public\n')
    expect(a.stdout + a.stderr).not.toContain(secret)
  })
})
