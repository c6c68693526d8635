// e2e: the compile-only commands, `plait validate` and `plait compile`, on the built binary. They
// read the manifest (and the facts they are given) and never observe or touch a machine.
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const manifest = `hierarchy:
  order:
    - "env:\${ lookup('facts.env') }"
data:
  greeting: hello
  # @validate isIPv4(value)
  listen: 10.0.0.1
overrides:
  env:prod:
    greeting: good day
ccm:
  resources:
    - file:
        - /etc/motd:
            content: "{{ Data.greeting }}\\n"
            owner: root
            group: root
            mode: "0644"
`

describe.concurrent('validate and compile', () => {
  it('validate: a good manifest is valid, with its resource count', async ({ expect }) => {
    const s = sandbox()
    const r = await plait(['validate', s.manifest(manifest)])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toMatch(/manifest\.yaml: valid, 1 resource\n$/)
  })

  it('validate: a broken annotation and a bad mode are errors with positions, exit 1, no stack trace', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest.replace('listen: 10.0.0.1', 'listen: 10.0.0.999').replace('mode: "0644"', 'mode: "0999"'))
    const r = await plait(['validate', m])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/^error: .*manifest\.yaml:7:\d+: .*listen/m)
    expect(r.stderr).toMatch(/^error: .*manifest\.yaml:18:19: file#\/etc\/motd: invalid mode "0999"/m)
    expect(r.stderr).not.toMatch(stackFrame)
    expect(r.stdout).toBe('')
  })

  it('compile --json: the resolved catalog, with the facts of --facts choosing the override', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest)
    const facts = path.join(s.host, 'facts.json')
    fs.writeFileSync(facts, JSON.stringify({ env: 'prod' }))
    const r = await plait(['compile', m, '--facts', facts, '--json'])
    expect(r.code, show(r)).toBe(0)
    const c = JSON.parse(r.stdout) as { resources: Array<{ id: string; content: { text: string } }> }
    expect(c.resources.map((x) => [x.id, x.content.text])).toEqual([['file#/etc/motd', 'good day\n']])
    const plain = await plait(['compile', m, '--facts', facts, '--fact', 'env=dev'])
    expect(plain.code, show(plain)).toBe(0)
    expect(plain.stdout).toMatch(/file#\/etc\/motd {2}\(.*manifest\.yaml:14:11\) {2}ensure=present owner=root group=root mode=0644 content="hello\\n"/)
  })

  it('compile: a facts file that does not parse is an error naming it', async ({ expect }) => {
    const s = sandbox()
    const facts = path.join(s.host, 'facts.yaml')
    fs.writeFileSync(facts, 'env: [unclosed\n')
    const r = await plait(['compile', s.manifest(manifest), '--facts', facts])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toContain('facts.yaml')
    expect(r.stderr).not.toMatch(stackFrame)
  })

  it('plan reads the facts it is given, records only the ones it read, and applies the override they choose', async ({ expect }) => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const m = s.manifest(manifest)
    const facts = path.join(s.host, 'facts.yaml')
    fs.writeFileSync(facts, 'env: prod\nmemory:\n  free: 12345\n')
    const out = path.join(s.host, 'plan.json')
    const r = await plait(['plan', m, '--root', s.root, '--facts', facts, '--out', out, '--json'])
    expect(r.code, show(r)).toBe(0)
    const plan = JSON.parse(fs.readFileSync(out, 'utf8')) as { inputs: { reads: Array<{ root: string; path: string }> }; resources: Array<{ steps: Array<{ content: { data: string } }> }> }
    expect(plan.inputs.reads.map((x) => `${x.root}:${x.path}`)).toEqual(['facts:env'])
    expect(plan.resources[0]!.steps[0]!.content.data).toBe('good day\n')
    // --fact on top of --facts: another environment, another plan
    const dev = await plait(['plan', m, '--root', s.root, '--facts', facts, '--fact', 'env=dev'])
    expect(dev.stdout).toContain('+hello')
    // a saved plan is applied as reviewed: facts options are refused for it
    const a = await plait(['apply', out, '--root', s.root, '--fact', 'env=dev'])
    expect(a.code, show(a)).toBe(1)
    expect(a.stderr).toContain('--facts, --fact, --hiera, --now and --provider-path apply to a manifest')
    expect(fs.existsSync(s.at('/etc/motd'))).toBe(false)
  })

  it('--hiera deep-merges a data document on top, resolving its own hierarchy with the same facts', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest)
    const hiera = path.join(s.host, 'site.yaml')
    fs.writeFileSync(hiera, `hierarchy:\n  order: [ "env:\${ lookup('facts.env') }" ]\noverrides:\n  env:prod:\n    greeting: site says hi\n`)
    const r = await plait(['compile', m, '--fact', 'env=prod', '--hiera', hiera, '--json'])
    expect(r.code, show(r)).toBe(0)
    expect((JSON.parse(r.stdout) as { resources: Array<{ content: { text: string } }> }).resources[0]!.content.text).toBe('site says hi\n')
    // plan records the hiera document, and the saved plan applies (its hash covers the record)
    fs.mkdirSync(s.at('/etc'))
    const out = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--fact', 'env=prod', '--hiera', hiera, '--out', out])
    expect(p.code, show(p)).toBe(0)
    const saved = JSON.parse(fs.readFileSync(out, 'utf8')) as { inputs: { hiera: { path: string; sha256: string } } }
    expect(saved.inputs.hiera).toEqual({ path: hiera, sha256: createHash('sha256').update(fs.readFileSync(hiera)).digest('hex') })
    const a = await plait(['apply', out, '--root', s.root])
    expect(a.code, show(a)).toBe(0)
    expect(fs.readFileSync(s.at('/etc/motd'), 'utf8')).toBe('site says hi\n')
    fs.writeFileSync(hiera, 'colour: red\n')
    const bad = await plait(['validate', m, '--hiera', hiera])
    expect(bad.code, show(bad)).toBe(1)
    expect(bad.stderr).toMatch(/site\.yaml:1:1: unknown top-level key "colour" in a hiera file/)
  })

  it('an annotation that is ignored is a warning: printed, and the manifest still validates and plans', async ({ expect }) => {
    const s = sandbox()
    const m = s.manifest(manifest.replace('  # @validate isIPv4(value)\n', '  # @validate\n'))
    const r = await plait(['validate', m])
    expect(r.code, show(r)).toBe(0)
    expect(r.stderr).toMatch(/^warning: .*manifest\.yaml:\d+:\d+: data "listen": @validate needs an expression/m)
    fs.mkdirSync(s.at('/etc'))
    const p = await plait(['plan', m, '--root', s.root])
    expect(p.code, show(p)).toBe(0)
    expect(p.stderr).toMatch(/^warning: .*@validate needs an expression/m)
  })
})
