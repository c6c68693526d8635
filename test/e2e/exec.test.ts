// exec resources through the built binary, with real commands (posix and shell providers) under a
// temp root: the decision table at plan and again at apply, exits against returns, logoutput, and
// a timeout that kills the command's whole process group.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const state = ['--state-dir', '/var/lib/plait']

describe('exec', () => {
  it('plans each command with its reason, runs them, and skips what creates and guards settle', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/tmp'))
    const marker = s.at('/tmp/marker')
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - make-marker:
            command: /usr/bin/touch ${marker}
            creates: /tmp/marker
        - 'echo "it''s $HOME"':
            logoutput: true
        - pipeline:
            provider: shell
            command: "echo one | tr a-z A-Z; exit 3"
            returns: [3]
            logoutput: true
        - guarded:
            command: /usr/bin/touch ${s.at('/tmp/guarded')}
            onlyif: test -e ${marker}
        - unlessed:
            command: /usr/bin/touch ${s.at('/tmp/unlessed')}
            unless: test -e ${marker}
        - in-cwd:
            provider: shell
            command: pwd > here; echo "$GREETING" >> here
            cwd: /tmp
            environment: [GREETING=hi there]
`)
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stdout).toContain(`! exec#make-marker\n    exec.run (posix): /usr/bin/touch ${marker}\n      would run: creates /tmp/marker does not exist`)
    expect(p.stdout).toContain('  exec#guarded: skipped: onlyif guard exited non-zero')
    expect(p.stdout).toContain('! exec#unlessed')
    expect(p.stdout).toContain('Plan: 0 to create, 0 to change, 0 to delete, 5 to run, 1 unchanged.')
    expect(fs.existsSync(marker)).toBe(false)

    // make-marker runs first, so at their turns the guards answer differently than at plan time.
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +exec#echo "it's \$HOME": no creates or guards: it runs every time\n +output: it's \$HOME/)
    expect(a.stdout).toMatch(/changed +exec#pipeline: .*\n +output: ONE/)
    expect(a.stdout).toMatch(/stable +exec#unlessed: not run: unless guard exited 0 now; when the plan was made it would have run/)
    expect(a.stdout).toMatch(/changed +exec#guarded: runs now: when the plan was made it was skipped: onlyif guard exited non-zero; its guards say otherwise at its turn/)
    expect(fs.existsSync(s.at('/tmp/guarded'))).toBe(true)
    expect(a.stdout).toContain('Ran and cannot be undone:\n  exec#make-marker: run /usr/bin/touch')
    expect(fs.existsSync(marker)).toBe(true)
    expect(fs.existsSync(s.at('/tmp/unlessed'))).toBe(false)
    expect(fs.readFileSync(s.at('/tmp/here'), 'utf8')).toBe(`${s.at('/tmp')}\nhi there\n`)

    const again = await plait(['plan', m, '--root', s.root])
    expect(again.stdout).toContain('  exec#make-marker: skipped: creates /tmp/marker exists')
  })

  it('runs a command its creates skipped at plan time when an earlier resource removed the creates file', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/opt'))
    fs.writeFileSync(s.at('/opt/installed'), 'yes\n')
    const m = s.manifest(`ccm:
  resources:
    - file:
        - /opt/installed:
            ensure: absent
    - exec:
        - install:
            command: /usr/bin/touch ${s.at('/opt/installed')}
            creates: /opt/installed
`)
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.stdout).toContain('  exec#install: skipped: creates /opt/installed exists')
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/changed +exec#install: runs now: when the plan was made it was skipped: creates \/opt\/installed exists; its guards say otherwise at its turn/)
    expect(fs.existsSync(s.at('/opt/installed'))).toBe(true)
  })

  it('fails a command whose exit is not accepted, with its stderr, and goes on with the rest', async () => {
    const s = sandbox()
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - failing:
            provider: shell
            command: "echo broken >&2; exit 4"
        - missing:
            command: /no/such/program
        - after:
            command: /bin/true
`)
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toMatch(/failed +exec#failing: run echo broken >&2; exit 4 failed: .*exit code 4 is not one of the accepted returns \[0\]; stderr: broken/)
    expect(a.stdout).toMatch(/failed +exec#missing: run \/no\/such\/program failed: .*could not start: no such file/)
    expect(a.stdout).toMatch(/changed +exec#after/)
    expect(a.stdout + a.stderr).not.toMatch(stackFrame)
  })

  it('kills a command that outlives its timeout with its whole process group', async () => {
    const s = sandbox()
    const pidFile = path.join(s.host, 'grandchild.pid')
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - slow:
            provider: shell
            command: "sleep 60 & echo $! > ${pidFile}; wait"
            timeout: 1s
`)
    const started = Date.now()
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(a.stdout).toMatch(/failed +exec#slow: .*ran longer than 1 s and was killed with its process group/)
    const pid = Number(fs.readFileSync(pidFile, 'utf8'))
    await new Promise((r) => setTimeout(r, 200))
    const alive = (() => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
        return !/\) Z /.test(stat) // a zombie waiting for its reaper is dead
      } catch {
        return false
      }
    })()
    expect(alive, `the grandchild ${pid} still runs`).toBe(false)
  })

  it('a guard that cannot run is a plan error naming the resource', async () => {
    const s = sandbox()
    const p = await plait(['plan', s.manifest(`ccm:\n  resources:\n    - exec:\n        - x:\n            command: /bin/true\n            onlyif: /no/such/guard\n`), '--root', s.root])
    expect(p.code, show(p)).toBe(1)
    expect(p.stderr).toMatch(/manifest\.yaml:4:11: exec#x: the onlyif guard could not run: .*no such file/)
  })
})
