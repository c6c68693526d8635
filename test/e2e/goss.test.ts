// goss_rules health checks through the built binary: templates resolved first, the rules checked
// natively against a temp root, real commands and a real HTTP server on 127.0.0.1 started here;
// `plait apply` fails a resource whose rules fail, `plait check` exits with the nagios status.
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as fs from 'node:fs'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, repo, sandbox, show, stackFrame } from './helpers.js'

let server: http.Server
let url: string

beforeAll(async () => {
  await ensureBuilt()
  server = http.createServer((_, res) => res.end('Hello from Acme Inc\n'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await cleanup()
})

const state = ['--state-dir', '/var/lib/plait']
const owner = `            owner: "${process.getuid?.() ?? 0}"\n            group: "${process.getgid?.() ?? 0}"\n            mode: "0644"\n`

const manifest = (greeting: string, expected: string) => `data:
  url: "${url}"
  greeting: ${greeting}
  expected: ${expected}
ccm:
  resources:
    - file:
        - /etc/motd:
            content: "{{ Data.greeting }}\\n"
${owner}            health_checks:
              - name: motd
                goss_rules:
                  file:
                    /etc/motd:
                      exists: true
                      mode: "0644"
                      contents: ["{{ Data.expected }}"]
                  command:
                    "echo ready":
                      exit-status: 0
                      stdout: [ready]
                  http:
                    "{{ Data.url }}":
                      status: 200
                      body: [Acme Inc]
`

describe('goss health checks', () => {
  it('pass after apply and under plait check when every rule holds', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const m = s.manifest(manifest('welcome', 'welcome'))
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/health check motd: OK: goss: 7 checks of 3 rules passed/)
    const c = await plait(['check', m, '--root', s.root])
    expect(c.code, show(c)).toBe(0)
    expect(c.stdout).toContain('OK       file#/etc/motd: health check motd: OK: goss: 7 checks of 3 rules passed')
  })

  it('fail the resource and make plait check CRITICAL, naming the failed rule', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const m = s.manifest(manifest('welcome', 'goodbye'))
    const a = await plait(['apply', m, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(1)
    expect(a.stdout).toContain('health check motd: CRITICAL: goss: 1 of 7 checks failed: file "/etc/motd" contents: expected patterns ["goodbye"], got no match in "welcome\\n"')
    const c = await plait(['check', m, '--root', s.root])
    expect(c.code, show(c)).toBe(2)
    expect(c.stdout).toContain('CRITICAL: 1 health check, 0 OK, 0 WARNING, 1 CRITICAL, 0 UNKNOWN')
    expect(c.stdout + c.stderr).not.toMatch(stackFrame)
  })

  it('travel in a saved plan (valid by the plan schema) and run when it is applied', async () => {
    const s = sandbox()
    fs.mkdirSync(s.at('/etc'))
    const m = s.manifest(manifest('welcome', 'welcome'))
    const out = path.join(s.host, 'plan.json')
    const p = await plait(['plan', m, '--root', s.root, '--out', out])
    expect(p.code, show(p)).toBe(0)
    const plan = JSON.parse(fs.readFileSync(out, 'utf8')) as { resources: { healthChecks?: { goss?: unknown; argv: unknown }[] }[] }
    expect(plan.resources[0]?.healthChecks?.[0]).toMatchObject({ argv: [], goss: { http: { [url]: { status: 200, body: ['Acme Inc'] } }, file: { '/etc/motd': { contents: ['welcome'] } } } })
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(fs.readFileSync(path.join(repo, 'docs', 'schema', 'plan.schema.json'), 'utf8')) as object)
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true)
    const a = await plait(['apply', out, '--root', s.root, ...state])
    expect(a.code, show(a)).toBe(0)
    expect(a.stdout).toMatch(/health check motd: OK: goss: 7 checks of 3 rules passed/)
  })

  it('refuse rules that do not decode at compile time, with the position', async () => {
    const s = sandbox()
    const m = s.manifest('ccm:\n  resources:\n    - exec:\n        - x:\n            command: /bin/true\n            health_checks:\n              - goss_rules:\n                  mount:\n                    /: {exists: true}\n')
    const c = await plait(['check', m, '--root', s.root])
    expect(c.code, show(c)).toBe(3)
    expect(c.stderr).toMatch(/:8:19: .*health_checks\[0\]\.goss_rules: unknown resource kind "mount"/)
  })
})
