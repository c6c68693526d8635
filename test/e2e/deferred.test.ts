// Deferred values through the built binary: content and source that read a file an earlier
// resource manages are "known after apply" when that resource changes, worked out by the executor
// at their turn, and known at plan time once it changes nothing.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const uid = String(process.getuid?.() ?? 0)
const gid = String(process.getgid?.() ?? 0)
const attrs = `            owner: "${uid}"\n            group: "${gid}"\n            mode: "0644"\n`
/** The manifest lives in the managed tree (/etc), so it reads app/base.conf where file#/etc/app/base.conf writes it. */
const manifest = (port: number, extra = '') => `data:
  greeting: hello
ccm:
  resources:
    - file:
        - /etc/app/base.conf:
            content: "port = ${port}\\n"
${attrs}        - /etc/app/full.conf:
            content: "# {{ lookup('data.greeting') }} at {{ now().Year() }}\\n{{ readFile('app/base.conf') }}"
${attrs}        - /etc/app/copy.conf:
            source: app/base.conf
${attrs}${extra}`

const setup = () => {
  const s = sandbox()
  fs.mkdirSync(s.at('/etc/app'), { recursive: true })
  const write = (text: string) => {
    fs.writeFileSync(s.at('/etc/site.yaml'), text)
    return s.at('/etc/site.yaml')
  }
  return { ...s, write, plan: path.join(s.host, 'plan.json') }
}

describe('deferred values', () => {
  it('are known after apply while their source changes, worked out at their turn, and known once it settles', async () => {
    const s = setup()
    const m = s.write(manifest(8080))
    const p = await plait(['plan', m, '--root', s.root, '--out', s.plan, '--now', '2026-03-04T05:06:07Z'])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('+ file#/etc/app/full.conf\n    was: absent\n    (content known after apply: it reads app/base.conf, managed by file#/etc/app/base.conf)')
    expect(p.stdout).toContain('(content known after apply: its source /etc/app/base.conf is managed by file#/etc/app/base.conf)')
    expect(p.stdout).toContain('Plan: 3 to create')
    const saved = JSON.parse(fs.readFileSync(s.plan, 'utf8')) as { inputs: { clock?: string } }
    expect(saved.inputs.clock).toBe('2026-03-04T05:06:07Z')

    const a = await plait(['apply', s.plan, '--root', s.root, '--state-dir', '/var/lib/plait'])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +file#\/etc\/app\/full\.conf: content worked out after file#\/etc\/app\/base\.conf \(28 bytes\)/)
    expect(fs.readFileSync(s.at('/etc/app/full.conf'), 'utf8')).toBe('# hello at 2026\nport = 8080\n')
    expect(fs.readFileSync(s.at('/etc/app/copy.conf'), 'utf8')).toBe('port = 8080\n')

    // Converged: the source changes nothing, so the values are known now.
    const again = await plait(['plan', m, '--root', s.root, '--now', '2026-03-04T05:06:07Z', '--detailed-exitcode'])
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('No changes.')

    // The source changes again: apply MANIFEST works the values out anew.
    const b = await plait(['apply', s.write(manifest(9090)), '--root', s.root, '--state-dir', '/var/lib/plait', '--now', '2026-03-04T05:06:07Z'])
    expect(b.code, show(b)).toBe(0)
    expect(fs.readFileSync(s.at('/etc/app/full.conf'), 'utf8')).toBe('# hello at 2026\nport = 9090\n')
    expect(fs.readFileSync(s.at('/etc/app/copy.conf'), 'utf8')).toBe('port = 9090\n')
  })

  it('an exec whose command reads a managed file is worked out at its turn, and decided at plan time once that file settles', async () => {
    const s = setup()
    const marker = s.at('/ran')
    const m = s.write(`ccm:
  resources:
    - file:
        - /etc/app/cmd:
            content: "/usr/bin/touch ${marker}"
${attrs}    - exec:
        - from-file:
            command: "{{ readFile('app/cmd') }}"
            creates: /ran
`)
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.stdout).toContain('! exec#from-file\n    (known after apply: its command reads app/cmd, managed by file#/etc/app/cmd)')
    const a = await plait(['apply', m, '--root', s.root, '--state-dir', '/var/lib/plait'])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(new RegExp(`changed +exec#from-file: worked out at its turn: /usr/bin/touch ${marker}\\n +creates /ran does not exist`))
    expect(fs.existsSync(marker)).toBe(true)
    const settled = await plait(['plan', m, '--root', s.root, '--detailed-exitcode'])
    expect(settled.code, show(settled)).toBe(0)
    expect(settled.stdout).toContain('  exec#from-file: skipped: creates /ran exists')
    fs.rmSync(marker)
    const again = await plait(['plan', m, '--root', s.root])
    expect(again.stdout).toContain(`! exec#from-file\n    exec.run (posix): /usr/bin/touch ${marker}\n      would run: creates /ran does not exist`)
  })

  it('does not work a value out from a resource that failed: it is an unmet requirement', async () => {
    const s = setup()
    fs.writeFileSync(s.at('/etc/app/base.conf'), 'old\n')
    const m = s.write(`ccm:
  resources:
    - file:
        - /etc/app/base.conf:
            content: "new\\n"
${attrs}            health_checks:
              - command: /bin/false
        - /etc/app/derived:
            content: "{{ readFile('app/base.conf') }}"
${attrs}`)
    const a = await plait(['apply', m, '--root', s.root, '--state-dir', '/var/lib/plait'])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/failed +file#\/etc\/app\/base\.conf: health check \/bin\/false: WARNING/)
    expect(a.stdout).toMatch(/skipped +file#\/etc\/app\/derived: unmet requirement: file#\/etc\/app\/base\.conf failed/)
    expect(fs.readFileSync(s.at('/etc/app/base.conf'), 'utf8')).toBe('old\n')
    expect(fs.existsSync(s.at('/etc/app/derived'))).toBe(false)
  })

  it('apply --noop says a deferred value would be worked out, and changes nothing', async () => {
    const s = setup()
    const p = await plait(['plan', s.write(manifest(1)), '--root', s.root, '--out', s.plan])
    expect(p.code, show(p)).toBe(0)
    const n = await plait(['apply', s.plan, '--root', s.root, '--noop', '--state-dir', '/var/lib/plait'])
    expect(n.code, show(n)).toBe(0)
    expect(n.stdout).toContain('would be worked out and planned at its turn')
    expect(fs.readdirSync(s.at('/etc/app'))).toEqual([])
  })

  it('fails only that resource, with the reason, when the file it reads is gone at its turn', async () => {
    const s = setup()
    fs.writeFileSync(s.at('/etc/app/base.conf'), 'old\n')
    const text = `ccm:
  resources:
    - file:
        - /etc/app/base.conf:
            ensure: absent
        - /etc/app/full.conf:
            content: "{{ readFile('app/base.conf') }}"
${attrs}        - /etc/app/after.conf:
            content: "still runs\\n"
${attrs}`
    const a = await plait(['apply', s.write(text), '--root', s.root, '--state-dir', '/var/lib/plait'])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/failed +file#\/etc\/app\/full\.conf: cannot work out the deferred content: \/etc\/app\/base\.conf is not a regular file \(it does not exist\)/)
    expect(a.stdout).toMatch(/changed +file#\/etc\/app\/after\.conf/)
    expect(a.stdout + a.stderr).not.toMatch(stackFrame)
    expect(fs.existsSync(s.at('/etc/app/full.conf'))).toBe(false)
  })
})
