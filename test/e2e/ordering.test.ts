// require, subscribe, control, health checks and `plait check` through the built binary, with
// real commands under a temp root.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const state = ['--state-dir', '/var/lib/plait']
const owner = `            owner: "${process.getuid?.() ?? 0}"\n            group: "${process.getgid?.() ?? 0}"\n            mode: "0644"\n`

describe('ordering and health', () => {
  it('refreshes a subscriber only when its file changes, skips on unmet requirements and control, and says so in the plan', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const reloaded = s.at('/reloaded')
    const manifest = (v: number) =>
      s.manifest(`ccm:
  resources:
    - file:
        - /etc/app.conf:
            content: "v${v}\\n"
${owner}            alias: appconf
    - exec:
        - reload:
            provider: shell
            command: "echo x >> ${reloaded}"
            refresh_only: true
            subscribe: [appconf]
        - never:
            command: /bin/true
            control:
              if: Facts.os == "plan9"
        - boom:
            command: /bin/false
        - after-boom:
            command: /bin/true
            require: [exec#boom]
`)
    const p = await plait(['plan', manifest(1), '--root', s.root, '--fact', 'os=linux'])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('! exec#reload\n    exec.run (shell): echo x >> ')
    expect(p.stdout).toContain('would run if file#/etc/app.conf changes (a subscribe refresh); otherwise skipped: refresh_only, and no subscribed resource changes')
    expect(p.stdout).toContain('  exec#never: skipped: control: the if expression (Facts.os == "plan9") is false')

    const a = await plait(['apply', manifest(1), '--root', s.root, '--fact', 'os=linux', ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/changed +exec#reload: refreshed: file#\/etc\/app\.conf changed/)
    expect(a.stdout).toMatch(/skipped +exec#never: control: the if expression/)
    expect(a.stdout).toMatch(/failed +exec#boom: run \/bin\/false failed: exit code 1/)
    expect(a.stdout).toMatch(/skipped +exec#after-boom: unmet requirement: exec#boom failed/)
    expect(fs.readFileSync(reloaded, 'utf8')).toBe('x\n')

    // Unchanged file: no refresh.
    const b = await plait(['apply', manifest(1), '--root', s.root, '--fact', 'os=linux', ...state])
    expect(b.stdout).toMatch(/stable +exec#reload/)
    expect(fs.readFileSync(reloaded, 'utf8')).toBe('x\n')
    // Changed again: one more refresh.
    await plait(['apply', manifest(2), '--root', s.root, '--fact', 'os=linux', ...state])
    expect(fs.readFileSync(reloaded, 'utf8')).toBe('x\nx\n')
  })

  it('refreshes a subscriber of a command that runs only at apply, and lists a failed command as run', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/tmp'))
    fs.writeFileSync(s.at('/tmp/marker'), '')
    const m = s.manifest(`ccm:
  resources:
    - file:
        - /tmp/marker:
            ensure: absent
    - exec:
        - make-marker:
            command: /usr/bin/touch ${s.at('/tmp/marker')}
            creates: /tmp/marker
        - on-marker:
            command: /usr/bin/touch ${s.at('/tmp/refreshed')}
            refresh_only: true
            subscribe: [exec#make-marker]
        - broken:
            command: /bin/false
`)
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.stdout).toContain('would run if exec#make-marker changes (a subscribe refresh)')
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/changed +exec#make-marker: runs now: when the plan was made it was skipped: creates \/tmp\/marker exists/)
    expect(a.stdout).toMatch(/changed +exec#on-marker: refreshed: exec#make-marker changed/)
    expect(fs.existsSync(s.at('/tmp/refreshed'))).toBe(true)
    expect(a.stdout).toMatch(/failed +exec#broken: run \/bin\/false failed: exit code 1 is not one of the accepted returns \[0\]\n/)
    expect(a.stdout).not.toContain('cannot undo')
    expect(a.stdout).toContain('  exec#broken: run /bin/false (it failed)')
  })

  it('fails a resource whose health check is not OK, and plait check exits with the nagios status', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const counter = path.join(s.host, 'tries')
    const m = s.manifest(`ccm:
  resources:
    - file:
        - /etc/motd:
            content: "hi\\n"
${owner}            health_checks:
              - name: readable
                command: /usr/bin/test -r ${s.at('/etc/motd')}
              - name: flaky
                command: /bin/sh -c "echo try >> ${counter}; test $(wc -l < ${counter}) -ge 2 && echo fine"
                tries: 3
                try_sleep: 10ms
    - exec:
        - warn-only:
            command: /bin/true
            health_checks:
              - name: disk
                command: /bin/sh -c "echo DISK WARNING - 91% used; exit 1"
`)
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/changed +file#\/etc\/motd: file does not exist\n +health check readable: OK\n +health check flaky: OK: fine \(after 2 tries\)/)
    expect(a.stdout).toMatch(/failed +exec#warn-only: health check disk: WARNING: DISK WARNING - 91% used/)

    const c = await plait(['check', m, '--root', s.root])
    expect(c.code, show(c)).toBe(1)
    expect(c.stdout).toContain('OK       file#/etc/motd: health check readable: OK')
    expect(c.stdout).toContain('WARNING  exec#warn-only: health check disk: WARNING: DISK WARNING - 91% used')
    expect(c.stdout).toContain('WARNING: 3 health checks, 2 OK, 1 WARNING, 0 CRITICAL, 0 UNKNOWN')
    expect(c.stdout + c.stderr).not.toMatch(stackFrame)

    const bad = await plait(['check', s.manifest('ccm: [', 'bad.yaml')])
    expect(bad.code, show(bad)).toBe(3)
    expect(bad.stdout).toBe('UNKNOWN: the manifest does not compile\n')
  })
})
