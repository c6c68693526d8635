// service resources through the built binary, under a temp root. systemd cannot run here (it is
// installed but not PID 1), so these tests put a stand-in systemctl first on PATH: a small script
// (test/support/systemctl.ts) that keeps unit state in a temp directory and answers as systemctl
// does. Without it, the real systemctl of this machine is asked, and plait says why it cannot
// manage services instead of misreading the answer.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeSystemctl } from '../support/systemctl.js'
import { cleanup, ensureBuilt, plait, sandbox, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const state = ['--state-dir', '/var/lib/plait']
const systemdIsPid1 = fs.existsSync('/proc/1/comm') && fs.readFileSync('/proc/1/comm', 'utf8').trim() === 'systemd'

const setup = () => {
  const s = sandbox()
  const fake = fakeSystemctl(tempDir('plait-systemctl-'))
  const env = { PATH: fake.path }
  return { s, fake, env }
}

const conf = (text: string) => `    - file:
        - /etc/web.conf:
            ensure: present
            content: "${text}"
            owner: root
            group: root
            mode: "0644"
`

describe('service', () => {
  it('plans, applies and converges: start and enable, stop and disable, leave the boot state alone', async () => {
    const { s, fake, env } = setup()
    fake.unit('web', { active: 'inactive', unitFile: 'disabled' })
    fake.unit('old', { active: 'active', unitFile: 'enabled' })
    fake.unit('cron', { active: 'active', unitFile: 'static' })
    const m = s.manifest(`ccm:
  resources:
    - service:
        - web:
            ensure: running
            enable: true
        - old:
            ensure: stopped
            enable: false
        - cron: {}
`)
    const p = await plait(['plan', m, '--root', s.root], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('~ service#web\n    was: stopped (inactive), disabled at boot (disabled)\n    service.start: it is stopped (inactive)\n    service.enable: it is disabled at boot (disabled)')
    expect(p.stdout).toContain('~ service#old\n    was: running (active), enabled at boot (enabled)\n    service.stop: it is running (active)\n    service.disable: it is enabled at boot (enabled)')
    expect(p.stdout).toContain('Plan: 0 to create, 2 to change, 0 to delete, 1 unchanged.')
    // Planning asked one systemctl for all three services, and changed nothing.
    expect(fake.calls()).toEqual(['show --system --property=Id,LoadState,ActiveState,UnitFileState -- web old cron'])
    expect(fake.units()['web']).toMatchObject({ active: 'inactive', unitFile: 'disabled' })

    const a = await plait(['apply', m, '--root', s.root, ...state], { env })
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +service#web: it is stopped \(inactive\)/)
    expect(a.stdout).toContain('Ran and cannot be undone:\n  service#web: start service web\n  service#web: enable service web\n  service#old: stop service old\n  service#old: disable service old')
    expect(fake.units()).toMatchObject({ web: { active: 'active', unitFile: 'enabled' }, old: { active: 'inactive', unitFile: 'disabled' }, cron: { active: 'active', unitFile: 'static' } })
    const verbs = fake.calls().filter((c) => !c.startsWith('show'))
    expect(verbs).toEqual(['daemon-reload --system', 'start --system -- web', 'enable --system -- web', 'stop --system -- old', 'disable --system -- old'])

    const again = await plait(['plan', m, '--root', s.root], { env })
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 3 unchanged.')
  })

  it('restarts a running service when a file it subscribes to changes, starts a stopped one instead, and leaves one that should stop', async () => {
    const { s, fake, env } = setup()
    fake.unit('web', { active: 'active', unitFile: 'enabled' })
    fake.unit('worker', { active: 'inactive', unitFile: 'enabled' })
    fake.unit('batch', { active: 'inactive', unitFile: 'disabled' })
    fs.mkdirSync(s.at('/etc'))
    const manifest = (text: string) =>
      s.manifest(`ccm:
  resources:
${conf(text)}    - service:
        - web:
            subscribe: [file#/etc/web.conf]
        - worker:
            subscribe: [file#/etc/web.conf]
        - batch:
            ensure: stopped
            subscribe: [file#/etc/web.conf]
`)
    const m = manifest('one')
    const p = await plait(['plan', m, '--root', s.root], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('~ service#web\n    was: running (active), enabled at boot (enabled)\n    service.restart: refresh: file#/etc/web.conf changes (runs only if file#/etc/web.conf changes)')
    expect(p.stdout).toContain('~ service#worker\n    was: stopped (inactive), enabled at boot (enabled)\n    service.start: it is stopped (inactive)')
    const a = await plait(['apply', m, '--root', s.root, ...state], { env })
    expect(a.code, show(a)).toBe(0)
    expect(fake.calls().filter((c) => !c.startsWith('show'))).toEqual(['daemon-reload --system', 'restart --system -- web', 'start --system -- worker'])
    expect(fake.units()['batch']).toMatchObject({ active: 'inactive' })

    // Nothing changed: no restart.
    const same = await plait(['apply', m, '--root', s.root, ...state], { env })
    expect(same.code, show(same)).toBe(0)
    expect(fake.calls().filter((c) => c.startsWith('restart'))).toHaveLength(1)
    // The file changes: a restart again.
    const changed = await plait(['apply', manifest('two'), '--root', s.root, ...state], { env })
    expect(changed.code, show(changed)).toBe(0)
    expect(changed.stdout).toMatch(/changed +service#web: refresh: file#\/etc\/web\.conf changes/)
    // worker runs now, so it is restarted too; batch should stay stopped and is left alone.
    expect(fake.calls().filter((c) => c.startsWith('restart'))).toEqual(['restart --system -- web', 'restart --system -- web', 'restart --system -- worker'])
    expect(fake.units()['batch']).toMatchObject({ active: 'inactive' })
  })

  it('with --noop, says what it would have done and does nothing', async () => {
    const { s, fake, env } = setup()
    fake.unit('web', { active: 'inactive', unitFile: 'disabled' })
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - web:\n            enable: true\n')
    const n = await plait(['apply', m, '--root', s.root, '--noop', ...state], { env })
    expect(n.code, show(n)).toBe(0)
    expect(n.stdout).toMatch(/changed +service#web: Would have started\n +Would have enabled\n/)
    expect(n.stdout).toContain('Apply (noop): 1 would change, 0 stable, 0 failed, 0 skipped.')
    expect(fake.units()['web']).toMatchObject({ active: 'inactive', unitFile: 'disabled' })
    expect(fake.calls().every((c) => c.startsWith('show'))).toBe(true)
  })

  it('refuses a saved plan when a service changed since it was made', async () => {
    const { s, fake, env } = setup()
    fake.unit('web', { active: 'inactive', unitFile: 'disabled' })
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - web: {}\n')
    const planFile = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--out', planFile], { env })
    expect(p.code, show(p)).toBe(0)
    fake.unit('web', { active: 'active', unitFile: 'disabled' })
    const a = await plait(['apply', planFile, '--root', s.root, ...state], { env })
    expect(a.code).not.toBe(0)
    expect(a.stderr).toContain('service#web: was stopped (inactive), disabled at boot (disabled), now running (active), disabled at boot (disabled)')
    expect(a.stderr).toContain('refusing a stale plan: 1 resource changed since it was made')
    expect(fake.calls().filter((c) => !c.startsWith('show'))).toEqual([])
  })

  it('fails verification when the unit does not stay up after systemctl start succeeds, and a start that fails fails its step', async () => {
    const { s, fake, env } = setup()
    fake.unit('flaky', { active: 'inactive', unitFile: 'disabled', behaviour: 'dies' })
    fake.unit('broken', { active: 'inactive', unitFile: 'disabled', behaviour: 'fails' })
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - flaky: {}\n        - broken: {}\n')
    const a = await plait(['apply', m, '--root', s.root, ...state], { env })
    expect(a.code).not.toBe(0)
    expect(a.stdout + a.stderr).toMatch(/service#flaky: did not reach the desired state: service flaky is stopped \(inactive\), not running/)
    expect(a.stdout + a.stderr).toMatch(/service#broken: start service broken failed: systemctl start exited 1: Job for broken\.service failed because the control process exited with error code\./)
  })

  it('refuses a service that systemd does not know, at plan time', async () => {
    const { s, env } = setup()
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - nothere: {}\n')
    const p = await plait(['plan', m, '--root', s.root], { env })
    expect(p.code).not.toBe(0)
    expect(p.stderr).toContain('service#nothere: service not found')
  })

  it('plans a start for a unit an earlier resource of the run installs, and starts it at its turn', async () => {
    const { s, fake, env } = setup()
    const unit = path.join(fake.state, 'units', 'web')
    // The exec stands in for a package that installs the unit.
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - install-web:
            provider: shell
            command: mkdir -p ${unit} && echo inactive > ${unit}/active && echo disabled > ${unit}/unitFile
    - service:
        - web:
            enable: true
            require: [exec#install-web]
`)
    const p = await plait(['plan', m, '--root', s.root], { env })
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain('~ service#web\n    was: not found\n    service.start: it is not found now; an earlier resource of this run may install it\n    service.enable: it is not found now')
    const a = await plait(['apply', m, '--root', s.root, ...state], { env })
    expect(a.code, show(a)).toBe(0)
    expect(fake.units()['web']).toMatchObject({ active: 'active', unitFile: 'enabled' })
  })

  it('fails every service at plan time with "no suitable provider: systemd is not running" when no manager answers, once', async () => {
    const { s, fake, env } = setup()
    fake.down(true)
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - web: {}\n        - db: {}\n')
    const p = await plait(['plan', m, '--root', s.root], { env })
    expect(p.code).not.toBe(0)
    expect(p.stderr.match(/no suitable provider: systemd is not running/g)).toHaveLength(1)
  })

  it.runIf(!systemdIsPid1)("says the same with this machine's real systemctl (systemd installed, not PID 1)", async () => {
    const s = sandbox()
    const m = s.manifest('ccm:\n  resources:\n    - service:\n        - cron: {}\n')
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code).not.toBe(0)
    expect(p.stderr).toMatch(/service#cron: no suitable provider: (systemd is not running|systemctl was not found)/)
  })
})
