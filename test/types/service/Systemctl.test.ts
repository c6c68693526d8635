// systemctl's output as plait reads it: the spec's is-active and is-enabled tables row by row, the
// batched `systemctl show` answer, and how a systemctl without a running manager reads. The words
// checked against the real tool come from this machine's systemctl: it is installed here, but
// systemd is not PID 1, so only what systemctl can answer offline (is-enabled with --root, and
// the errors it prints when no manager runs) is asked of it; the rest is systemd's documented words.
import { execFileSync, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Systemctl from '../../../src/types/service/Systemctl.js'

const systemdIsPid1 = fs.existsSync('/proc/1/comm') && fs.readFileSync('/proc/1/comm', 'utf8').trim() === 'systemd'
const hasSystemctl = spawnSync('systemctl', ['--version']).status === 0

describe('the is-active table', () => {
  it.each([
    ['active', true],
    ['inactive', false],
    ['failed', false],
    ['activating', false],
  ] as const)('%s reads as running=%s', (word, running) => {
    expect(Systemctl.running(word)).toEqual(E.right(running))
  })

  it.each(['deactivating', 'reloading', 'unknown', '', 'Active', 'active\n'])('any other word (%j) is an error, never a guess', (word) => {
    expect(Systemctl.running(word)).toEqual(E.left(`invalid systemctl is-active output ${JSON.stringify(word)}`))
  })
})

describe('the is-enabled table', () => {
  it.each([
    ['enabled', true],
    ['enabled-runtime', true],
    ['alias', true],
    ['static', true],
    ['indirect', true],
    ['generated', true],
    ['transient', true],
    ['linked', false],
    ['linked-runtime', false],
    ['masked', false],
    ['masked-runtime', false],
    ['disabled', false],
  ] as const)('%s reads as enabled=%s', (word, enabled) => {
    expect(Systemctl.enabled(word)).toEqual(E.right(enabled))
  })

  it('not-found is "service not found"', () => {
    expect(Systemctl.enabled('not-found')).toEqual(E.left('service not found'))
  })

  it.each(['bad', '', 'toString', '__proto__', 'constructor'])('any other word (%j) is an error', (word) => {
    expect(Systemctl.enabled(word)).toEqual(E.left(`invalid systemctl is-enabled output ${JSON.stringify(word)}`))
  })

  it.runIf(hasSystemctl)("reads the real systemctl's is-enabled answers for unit files it can see offline (--root)", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-systemctl-'))
    try {
      const etc = path.join(root, 'etc/systemd/system')
      const lib = path.join(root, 'usr/lib/systemd/system')
      fs.mkdirSync(etc, { recursive: true })
      fs.mkdirSync(lib, { recursive: true })
      fs.mkdirSync(path.join(root, 'etc/systemd/system/multi-user.target.wants'), { recursive: true })
      const unit = '[Unit]\nDescription=plait test\n[Service]\nExecStart=/bin/true\n'
      fs.writeFileSync(path.join(lib, 'plaitdemo.service'), unit + '[Install]\nWantedBy=multi-user.target\n')
      fs.writeFileSync(path.join(lib, 'plaitstatic.service'), unit)
      fs.writeFileSync(path.join(lib, 'plaitmasked.service'), unit + '[Install]\nWantedBy=multi-user.target\n')
      const isEnabled = (u: string): string => spawnSync('systemctl', [`--root=${root}`, 'is-enabled', u], { encoding: 'utf8' }).stdout.trim()
      expect(isEnabled('plaitdemo.service')).toBe('disabled')
      expect(Systemctl.enabled(isEnabled('plaitdemo.service'))).toEqual(E.right(false))
      expect(Systemctl.enabled(isEnabled('plaitstatic.service'))).toEqual(E.right(true))
      execFileSync('systemctl', [`--root=${root}`, 'enable', 'plaitdemo.service'], { stdio: 'ignore' })
      expect(isEnabled('plaitdemo.service')).toBe('enabled')
      expect(Systemctl.enabled(isEnabled('plaitdemo.service'))).toEqual(E.right(true))
      execFileSync('systemctl', [`--root=${root}`, 'mask', 'plaitmasked.service'], { stdio: 'ignore' })
      expect(isEnabled('plaitmasked.service')).toBe('masked')
      expect(Systemctl.enabled(isEnabled('plaitmasked.service'))).toEqual(E.right(false))
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('systemctl show, one answer for a batch of units', () => {
  const block = (u: { id: string; load: string; active: string; unitFile: string }) => `Id=${u.id}\nLoadState=${u.load}\nActiveState=${u.active}\nUnitFileState=${u.unitFile}\n`

  it('gives one unit per block, in the order asked; a unit systemd does not know has no unit file state', () => {
    const out = 'Id=nginx.service\nLoadState=loaded\nActiveState=active\nUnitFileState=enabled\n\nId=nope.service\nLoadState=not-found\nActiveState=inactive\nUnitFileState=\n'
    expect(Systemctl.parseShow(out, 2)).toEqual(
      E.right([
        { load: 'loaded', active: 'active', unitFile: 'enabled' },
        { load: 'not-found', active: 'inactive', unitFile: '' },
      ]),
    )
  })

  it('refuses an answer that describes another number of units than were asked', () => {
    expect(Systemctl.parseShow('Id=a.service\nLoadState=loaded\nActiveState=active\n', 2)).toEqual(E.left('systemctl show described 1 unit where 2 were asked'))
    expect(Systemctl.parseShow('', 1)).toEqual(E.left('systemctl show described 0 units where 1 was asked'))
  })

  it('refuses a line that is not Key=Value, and a block without the states asked', () => {
    expect(Systemctl.parseShow('Id=a.service\nhello\n', 1)).toEqual(E.left('systemctl show printed a line that is not Key=Value: "hello"'))
    expect(Systemctl.parseShow('Id=a.service\nLoadState=loaded\n', 1)).toEqual(E.left('systemctl show printed a unit without its LoadState or ActiveState'))
    expect(E.isLeft(Systemctl.parseShow(`Id=${'x'.repeat(5000)}\nLoadState=loaded\nActiveState=active\n`, 1))).toBe(true)
  })

  const word = fc.stringMatching(/^[a-z-]{0,12}$/)
  const unit = fc.record({ id: fc.stringMatching(/^[a-z0-9._-]{1,20}$/), load: word.filter((w) => w !== ''), active: word.filter((w) => w !== ''), unitFile: word })
  fcTest.prop([fc.array(unit, { minLength: 1, maxLength: 20 })])('reads back what systemctl prints for any units, in order', (units) => {
    const out = units.map(block).join('\n')
    expect(Systemctl.parseShow(out, units.length)).toEqual(E.right(units.map((u) => ({ load: u.load, active: u.active, unitFile: u.unitFile }))))
  })
})

describe('a systemctl that finds no running manager', () => {
  it("reads this machine's real answer (systemd installed, not PID 1) as not running", () => {
    const stderr = "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n"
    expect(Systemctl.failure(stderr)).toEqual({ _tag: 'NotRunning' })
  })

  it.runIf(hasSystemctl && !systemdIsPid1)('is what the real systemctl prints here for show, is-active and is-enabled of a unit', () => {
    for (const args of [['show', '--property=ActiveState', 'cron.service'], ['is-active', '--system', 'cron'], ['is-system-running']]) {
      const r = spawnSync('systemctl', args, { encoding: 'utf8', env: { PATH: process.env['PATH'], LC_ALL: 'C' } })
      expect(r.status).not.toBe(0)
      expect(Systemctl.failure(r.stderr)._tag === 'NotRunning' || r.stdout.trim() === 'offline').toBe(true)
    }
    const show = spawnSync('systemctl', ['show', '--property=ActiveState', 'cron.service'], { encoding: 'utf8' })
    expect(show.stdout).toBe('')
    expect(Systemctl.failure(show.stderr)).toEqual({ _tag: 'NotRunning' })
  })

  it('any other failure keeps its last words, bounded', () => {
    expect(Systemctl.failure('Failed to start x.service: Unit x.service not found.\n')).toEqual({ _tag: 'Failed', detail: 'Failed to start x.service: Unit x.service not found.' })
    expect(Systemctl.failure('')).toEqual({ _tag: 'Failed', detail: 'it printed nothing on stderr' })
    const long = Systemctl.failure('y'.repeat(10_000))
    expect(long._tag === 'Failed' && long.detail.length).toBe(400)
  })
})

