// Holo entities in plans, through the built command, below temporary roots (Holo's test mode:
// $HOLO_ROOT_DIR is the root, so no plugin touches anything outside it). The plugins are real
// processes: two of the test's own in sh (`greet`, which keeps a provisioned copy and says when a
// greeting is up to date; `plain`, which never says so and always answers "not changed") and the
// two plait ships (lib/holo: settings and oneshot).
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Plan from '../../src/core/Plan.js'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import { cleanup, ensureBuilt, plait, read, repo, sandbox, show, type Sandbox } from './helpers.js'

/** A plugin: greetings from usr/share/holo/greet/NAME written to etc/greet/NAME, with Holo's provisioned-copy semantics. */
const greet = `#!/bin/sh
set -u
case "$1" in
info) echo MIN_API_VERSION=3; echo MAX_API_VERSION=3 ;;
scan)
  for f in "$HOLO_RESOURCE_DIR"/*; do
    [ -f "$f" ] || continue
    n=\${f##*/}; t="$HOLO_ROOT_DIR/etc/greet/$n"; p="$HOLO_STATE_DIR/$n"
    echo "ENTITY: greeting:$n"
    if [ ! -f "$p" ]; then echo "ACTION: Greeting (never greeted)"; elif ! cmp -s "$f" "$p"; then echo "ACTION: Greeting (text changed)"; fi
    echo "SOURCE: $f"
    if [ -f "$p" ] && cmp -s "$f" "$p" && [ -f "$t" ] && cmp -s "$p" "$t"; then echo "state: up to date"; fi
  done ;;
apply|force-apply)
  n=\${2#greeting:}; f="$HOLO_RESOURCE_DIR/$n"; t="$HOLO_ROOT_DIR/etc/greet/$n"; p="$HOLO_STATE_DIR/$n"
  if [ "$1" = apply ] && [ -f "$p" ] && [ ! -f "$t" ]; then echo "requires --force to restore" >&3; exit 0; fi
  if [ "$1" = apply ] && [ -f "$p" ] && ! cmp -s "$p" "$t"; then echo "requires --force to overwrite" >&3; exit 0; fi
  if [ -f "$t" ] && cmp -s "$f" "$t"; then cp "$f" "$p"; echo "not changed" >&3; exit 0; fi
  mkdir -p "$HOLO_ROOT_DIR/etc/greet" && cp "$f" "$t" && cp "$f" "$p" && echo "greeted $n" ;;
diff) n=\${2#greeting:}; printf '%s\\0%s\\0' "$HOLO_STATE_DIR/$n" "$HOLO_ROOT_DIR/etc/greet/$n" >&3 ;;
*) echo "unknown operation $1" >&2; exit 1 ;;
esac
`

/** A plugin that never says an entity is up to date, and always answers "not changed". */
const plainPlugin = `#!/bin/sh
case "$1" in
info) echo MIN_API_VERSION=3; echo MAX_API_VERSION=3 ;;
scan) echo "ENTITY: plain:one"; echo "found: nowhere" ;;
apply|force-apply) echo "not changed" >&3 ;;
diff) ;;
esac
`

/** A plugin whose scan hangs: it records its process group in $HOLO_ROOT_DIR/hang.pgid and sleeps, with a child, for a minute. */
const hangPlugin = `#!/bin/sh
case "$1" in
info) echo MIN_API_VERSION=3; echo MAX_API_VERSION=3 ;;
scan) ps -o pgid= -p $$ | tr -d ' ' > "$HOLO_ROOT_DIR/hang.pgid"; sleep 60; echo "ENTITY: hang:one" ;;
*) exit 1 ;;
esac
`

/** A plugin that logs each operation to $HOLO_ROOT_DIR/ops.log: one entity per file of its resources, up to date once applied. */
const countPlugin = `#!/bin/sh
echo "$1 \${2-}" >> "$HOLO_ROOT_DIR/ops.log"
case "$1" in
info) echo MIN_API_VERSION=3; echo MAX_API_VERSION=3 ;;
scan)
  for f in "$HOLO_RESOURCE_DIR"/*; do
    [ -f "$f" ] || continue
    n=\${f##*/}; echo "ENTITY: count:$n"
    if [ -f "$HOLO_STATE_DIR/$n" ]; then echo "state: up to date"; else echo "ACTION: Counting (never counted)"; fi
  done ;;
apply|force-apply) : > "$HOLO_STATE_DIR/\${2#count:}" ;;
diff) ;;
esac
`

/** The live processes of a process group, from /proc (a killed process whose parent has not reaped it yet, a zombie, is not alive). */
const liveInGroup = (pgid: number): ReadonlyArray<string> =>
  fs.readdirSync('/proc').flatMap((pid) => {
    if (!/^\d+$/.test(pid)) return []
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      return []
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(pgrp) === pgid && state !== 'Z' ? [stat.slice(0, stat.lastIndexOf(')') + 1)] : []
  })

interface World extends Sandbox {
  readonly plan: (manifest: string, ...more: string[]) => ReturnType<typeof plait>
  readonly apply: (manifest: string, ...more: string[]) => ReturnType<typeof plait>
}

/** A root with etc/holorc naming the given plugins, run/ for Holo's lock, and the resources of each. */
const world = (plugins: ReadonlyArray<'greet' | 'plain' | 'hang' | 'settings' | 'oneshot' | 'count'>): World => {
  const s = sandbox()
  const write = (rel: string, text: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(s.at(rel)), { recursive: true })
    fs.writeFileSync(s.at(rel), text, { mode })
  }
  const bins = path.join(s.host, 'plugins')
  fs.mkdirSync(bins)
  const binary = (id: string): string => {
    if (id === 'settings' || id === 'oneshot') return path.join(repo, 'lib', 'holo', id, `holo-${id}`)
    const b = path.join(bins, `holo-${id}`)
    fs.writeFileSync(b, id === 'greet' ? greet : id === 'hang' ? hangPlugin : id === 'count' ? countPlugin : plainPlugin, { mode: 0o755 })
    return b
  }
  write('etc/holorc', plugins.map((p) => `plugin ${p}=${binary(p)}\n`).join(''))
  fs.mkdirSync(s.at('run'))
  for (const p of plugins) fs.mkdirSync(s.at(`usr/share/holo/${p}`), { recursive: true })
  if (plugins.includes('greet')) write('usr/share/holo/greet/hello', 'hello, world\n')
  if (plugins.includes('settings')) {
    write('etc/app.conf', '# app\nport = 80\n')
    write('usr/share/holo/settings/10-app/etc/app.conf', 'port=8080\n')
  }
  if (plugins.includes('count')) for (const n of ['a', 'b', 'c']) write(`usr/share/holo/count/${n}`, '')
  if (plugins.includes('oneshot')) write('usr/share/holo/oneshot/10-motd', '#!/bin/sh\necho "provisioned" > etc/motd\n', 0o755)
  return {
    ...s,
    plan: (manifest, ...more) => plait(['plan', manifest, '--root', s.root, ...more]),
    apply: (manifest, ...more) => plait(['apply', manifest, '--root', s.root, ...more]),
  }
}

const manifest = (entries: ReadonlyArray<string>): string => `ccm:\n  resources:\n    - holo:\n${entries.map((e) => `        - ${e}: {}\n`).join('')}`

beforeAll(() => ensureBuilt(), 600_000)
afterAll(cleanup)

describe('holo resources in plans', () => {
  it('plans each entity with the ACTION verb and reason of its scan, applies them, and then plans nothing', async () => {
    const w = world(['greet', 'settings', 'oneshot'])
    const m = w.manifest(manifest(['greeting:hello', 'settings', 'oneshot:10-motd']))
    const plan = await w.plan(m)
    expect(plan.code, show(plan)).toBe(0)
    expect(plan.stdout).toContain('~ holo#greeting:hello\n')
    expect(plan.stdout).toContain('holo.apply (greet): Greeting greeting:hello (never greeted)')
    expect(plan.stdout).toContain('holo.apply (settings): Applying settings:/etc/app.conf (never applied)')
    expect(plan.stdout).toContain('holo.apply (oneshot): Running oneshot:10-motd (never ran)')
    expect(plan.stdout).toContain('Plan: 0 to create, 3 to change, 0 to delete, 0 unchanged.')
    // planning ran scan and diff only: nothing was provisioned
    expect(read(w.at('etc/greet/hello'))).toBeUndefined()
    expect(read(w.at('etc/app.conf'))).toBe('# app\nport = 80\n')

    const applied = await w.apply(m)
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stdout).toContain('changed  holo#greeting:hello: never greeted')
    expect(applied.stdout).toContain('greeted hello')
    expect(applied.stdout).toContain('Apply: 3 changed, 0 stable, 0 failed, 0 skipped.')
    expect(read(w.at('etc/greet/hello'))).toBe('hello, world\n')
    expect(read(w.at('etc/app.conf'))).toBe('# app\nport = 8080\n')
    expect(read(w.at('etc/motd'))).toBe('provisioned\n')

    const again = await w.plan(m, '--detailed-exitcode')
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('No changes.')
    expect(again.stdout).toContain('3 unchanged')
  }, 120_000)

  it('shows a local modification with its diff and says --force is needed; apply refuses it with the diff, apply --force overwrites it', async () => {
    const w = world(['greet', 'settings'])
    const m = w.manifest(manifest(['greeting:hello', 'settings:/etc/app.conf']))
    expect((await w.apply(m)).code).toBe(0)
    fs.writeFileSync(w.at('etc/greet/hello'), 'hello, edited by hand\n')
    fs.appendFileSync(w.at('etc/app.conf'), 'extra = 1\n')

    const plan = await w.plan(m)
    expect(plan.code, show(plan)).toBe(0)
    expect(plan.stdout).toContain('local modification: modified since it was last applied; plait apply --force overwrites it (plain apply refuses)')
    expect(plan.stdout).toContain('-hello, world')
    expect(plan.stdout).toContain('+hello, edited by hand')
    expect(plan.stdout).toContain('+extra = 1')
    expect(plan.stdout).toContain('holo.apply (settings): Overwriting settings:/etc/app.conf (target was changed locally)')

    const refused = await w.apply(m)
    expect(refused.code, show(refused)).toBe(1)
    expect(refused.stdout).toContain('failed   holo#greeting:hello: holo apply greeting:hello (greet) failed: greeting:hello was modified locally since it was last applied; plait apply --force overwrites it')
    expect(refused.stdout).toContain('+hello, edited by hand')
    expect(refused.stdout).toContain('+extra = 1')
    expect(read(w.at('etc/greet/hello'))).toBe('hello, edited by hand\n')
    expect(read(w.at('etc/app.conf'))).toBe('# app\nport = 8080\nextra = 1\n')

    const forced = await w.apply(m, '--force')
    expect(forced.code, show(forced)).toBe(0)
    expect(forced.stdout).toContain('holo force-apply greeting:hello (greet)')
    expect(read(w.at('etc/greet/hello'))).toBe('hello, world\n')
    expect(read(w.at('etc/app.conf'))).toBe('# app\nport = 8080\n')
    expect((await w.plan(m)).stdout).toContain('No changes.')
  }, 120_000)

  it('shows an entity deleted by hand as needing --force to restore it, and apply --force restores it', async () => {
    const w = world(['greet'])
    const m = w.manifest(manifest(['greeting:hello']))
    expect((await w.apply(m)).code).toBe(0)
    fs.rmSync(w.at('etc/greet/hello'))
    const plan = await w.plan(m)
    expect(plan.stdout).toContain('local modification: deleted since it was last applied; plait apply --force restores it')
    const refused = await w.apply(m)
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('greeting:hello was deleted locally since it was last applied; plait apply --force restores it')
    expect((await w.apply(m, '--force')).code).toBe(0)
    expect(read(w.at('etc/greet/hello'))).toBe('hello, world\n')
  }, 120_000)

  it('applies an entity whose plugin cannot say it is up to date every time, and reports it stable when the plugin answers "not changed"', async () => {
    const w = world(['plain'])
    const m = w.manifest(manifest(['plain']))
    const plan = await w.plan(m)
    expect(plan.stdout).toContain('holo.apply (plain): Working on plain:one')
    expect(plan.stdout).toContain('Holo has no dry run: only applying it tells whether it changes')
    const applied = await w.apply(m)
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stdout).toContain('stable   holo#plain')
    expect(applied.stdout).toContain('Apply: 0 changed, 1 stable, 0 failed, 0 skipped.')
  }, 120_000)

  it('scans again at its turn when an earlier resource writes a plugin resource, and applies what that resource says', async () => {
    const w = world(['settings'])
    const m = w.manifest(`ccm:
  resources:
    - file:
        - /usr/share/holo/settings/10-app/etc/app.conf:
            ensure: present
            content: "port=9090\\n"
            owner: root
            group: root
            mode: "0644"
    - holo:
        - settings:/etc/app.conf: {}
`)
    const plan = await w.plan(m)
    expect(plan.code, show(plan)).toBe(0)
    expect(plan.stdout).toContain('(the plugins are scanned again at its turn if file#/usr/share/holo/settings/10-app/etc/app.conf changes first)')
    const applied = await w.apply(m)
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stdout).toContain('scanned again at its turn: file#/usr/share/holo/settings/10-app/etc/app.conf changed')
    expect(read(w.at('etc/app.conf'))).toBe('# app\nport = 9090\n')
    const again = await w.plan(m)
    expect(again.stdout, show(again)).toContain('No changes.')
  }, 120_000)

  it('opens one Holo host for an apply: info once, a scan per verification, and a new host after a step of another kind', async () => {
    const w = world(['count'])
    const resources = (between: string) => `ccm:
  resources:
    - holo:
        - count:a: {}
        - count:b: {}
${between}    - holo:
        - count:c: {}
`
    const ops = (): ReadonlyArray<string> => (read(w.at('ops.log')) ?? '').split('\n').filter((l) => l !== '').map((l) => l.trim())
    const saved = path.join(w.host, 'plan.json')
    const plan = await plait(['plan', w.manifest(resources('')), '--root', w.root, '--out', saved])
    expect(plan.code, show(plan)).toBe(0)
    fs.rmSync(w.at('ops.log'))
    const applied = await plait(['apply', saved, '--root', w.root])
    expect(applied.code, show(applied)).toBe(0)
    expect(applied.stdout).toContain('Apply: 3 changed, 0 stable, 0 failed, 0 skipped.')
    // the staleness check, the steps' one scan, then each entity applied and verified, on one host: info ran once, and Holo's lock is gone
    expect(ops()).toEqual(['info', 'scan', 'diff count:a', 'diff count:b', 'diff count:c', 'scan', 'apply count:a', 'scan', 'diff count:a', 'apply count:b', 'scan', 'diff count:b', 'apply count:c', 'scan', 'diff count:c'])
    expect(fs.existsSync(w.at('run/holo.pid'))).toBe(false)

    // a file step between two holo resources may change what Holo reads: the next holo resource opens a new host
    for (const n of ['a', 'b', 'c']) fs.rmSync(w.at(`var/lib/holo/count/${n}`))
    fs.rmSync(w.at('ops.log'))
    const file = `    - file:\n        - /var/tmp/between:\n            ensure: present\n            content: "x"\n            owner: root\n            group: root\n            mode: "0644"\n`
    fs.mkdirSync(w.at('var/tmp'), { recursive: true })
    const again = await w.apply(w.manifest(resources(file)))
    expect(again.code, show(again)).toBe(0)
    expect(again.stdout).toContain('Apply: 4 changed, 0 stable, 0 failed, 0 skipped.')
    expect(ops().filter((o) => o === 'info')).toHaveLength(3) // the plan's host, the apply's, and the apply's after the file
    expect(fs.existsSync(w.at('run/holo.pid'))).toBe(false)
  }, 120_000)

  it("takes every entity of every configured plugin with '*'", async () => {
    const w = world(['greet', 'plain', 'oneshot'])
    const plan = await w.plan(w.manifest(manifest(["'*'"])))
    expect(plan.code, show(plan)).toBe(0)
    for (const line of ['Greeting greeting:hello', 'Working on plain:one', 'Running oneshot:10-motd']) expect(plan.stdout).toContain(line)
    expect(plan.stdout.indexOf('greeting:hello')).toBeLessThan(plan.stdout.indexOf('plain:one'))
  }, 120_000)

  it('refuses a saved plan when a plugin reports something else of an entity since it was made', async () => {
    const w = world(['oneshot'])
    const m = w.manifest(manifest(['oneshot']))
    const out = path.join(w.host, 'plan.json')
    expect((await w.plan(m, '--out', out)).code).toBe(0)
    // the saved plan is what docs/schema/plan.schema.json describes
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(fs.readFileSync(path.join(repo, 'docs', 'schema', 'plan.schema.json'), 'utf8')) as object)
    expect(validate(JSON.parse(fs.readFileSync(out, 'utf8'))), JSON.stringify(validate.errors)).toBe(true)
    fs.writeFileSync(w.at('usr/share/holo/oneshot/10-motd'), '#!/bin/sh\necho "another script" > etc/motd\n', { mode: 0o755 })
    const applied = await plait(['apply', out, '--root', w.root])
    expect(applied.code, show(applied)).not.toBe(0)
    expect(applied.stderr).toMatch(/stale/)
    expect(read(w.at('etc/motd'))).toBeUndefined()
  }, 120_000)

  it('refuses a saved plan whose holo step was edited to name an entity no scan could report', async () => {
    const w = world(['oneshot'])
    const out = path.join(w.host, 'plan.json')
    expect((await w.plan(w.manifest(manifest(['oneshot'])), '--out', out)).code).toBe(0)
    // edited and sealed again, so that its hash holds and only the step check can refuse it
    const { hash: _hash, ...body } = JSON.parse(fs.readFileSync(out, 'utf8')) as Plan.Plan
    const edited = { ...body, resources: body.resources.map((r) => ({ ...r, steps: r.steps.map((st) => ({ ...st, entity: '/etc/shadow' })) })) }
    fs.writeFileSync(out, PlanFile.serialize(PlanFile.seal(edited)))
    const applied = await plait(['apply', out, '--root', w.root])
    expect(applied.code, show(applied)).not.toBe(0)
    expect(applied.stderr).toContain('"/etc/shadow" is not a Holo entity ID')
    expect(read(w.at('etc/motd'))).toBeUndefined()
  }, 120_000)

  it('refuses at plan time an entity no plugin reports and a plugin that is not configured, naming the configured plugins', async () => {
    const w = world(['greet'])
    const missing = await w.plan(w.manifest(manifest(['greeting:nobody', 'files'])))
    expect(missing.code, show(missing)).not.toBe(0)
    expect(missing.stderr).toContain('no configured Holo plugin reports the entity greeting:nobody (configured: greet)')
    expect(missing.stderr).toContain('the Holo plugin files is not configured in etc/holorc or etc/holorc.d (configured: greet)')
  }, 120_000)

  it('kills a hung plugin after --plugin-timeout with its process group, fails only the resources that need it, and plans the others', async () => {
    const w = world(['greet', 'hang'])
    const m = w.manifest(manifest(['greeting:hello', 'hang']))
    for (const command of ['plan', 'apply'] as const) {
      fs.rmSync(w.at('hang.pgid'), { force: true })
      const started = Date.now()
      const run = await (command === 'plan' ? w.plan(m, '--plugin-timeout', '2') : w.apply(m, '--plugin-timeout', '2'))
      const took = Date.now() - started
      expect(run.code, show(run)).toBe(1)
      // two seconds of the hung scan, not the 60 s it sleeps nor the 300 s default
      expect(took).toBeLessThan(30_000)
      expect(run.stderr).toContain('scan with plugin hang failed: ran longer than 2 s and was killed with its process group')
      expect(run.stdout + run.stderr).toContain('holo#hang')
      const pgid = Number(fs.readFileSync(w.at('hang.pgid'), 'utf8'))
      expect(pgid).toBeGreaterThan(1)
      expect(liveInGroup(pgid)).toEqual([])
      // the greeting, which another plugin reports, planned (and under apply, applied) normally
      if (command === 'plan') expect(run.stdout).toContain('holo.apply (greet): Greeting greeting:hello (never greeted)')
      else expect(read(w.at('etc/greet/hello'))).toBe('hello, world\n')
    }
  }, 120_000)

  it('refuses a name that is a path, and properties, when it compiles the manifest', async () => {
    const w = world(['greet'])
    const bad = await w.plan(w.manifest('ccm:\n  resources:\n    - holo:\n        - /etc/greet/hello: {}\n        - greeting:hello:\n            ensure: present\n'))
    expect(bad.code, show(bad)).not.toBe(0)
    expect(bad.stderr).toContain('"/etc/greet/hello" is not a Holo entity ID')
    expect(bad.stderr).toContain('unknown property "ensure" for a holo resource')
  }, 120_000)
})
