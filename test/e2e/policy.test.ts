// e2e: policies through the built binary: `plait policy check` prints every finding at the
// manifest line of the offending resource in each format (text, json, markdown, github, sarif),
// a soft rule is overridden with a recorded reason, a hard one always fails (exit 1), a malformed
// policy is refused at file:line:col, and `plait apply --policy` refuses before any change.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, put, read, sandbox, show, snapshot, stackFrame, type Run, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

// Line numbers of the resources below: old.conf at 8, new.conf at 10, hostile.conf at 12, keep.conf at 14.
const manifest = `ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/old.conf:
            ensure: absent
        - /etc/app/new.conf:
            content: "new\\n"
        - /etc/app/hostile.conf:
            content: "a\\e[2J\\e]0;pwned\\abc\\n"
        - /etc/app/keep.conf:
            content: "keep\\n"
`

const policyText = `rules:
  - name: no-removal
    level: hard
    message: "{{ item.name }} would be removed"
    deny: any(resources, {.type == "file" && .action == "delete"})
  - name: few-changes
    level: soft
    message: "{{ summary.changes }} resources change (at most 2 without an override)"
    assert: summary.changes <= 2
  - name: new-files
    level: advisory
    each: resources
    deny: .action == "create"
    message: "creates {{ item.name }}"
`

/** A root with old.conf to delete, keep.conf as it should be, the manifest, its saved plan, and policies beside it. */
const planned = async (): Promise<{ s: Sandbox; m: string; plan: string; policy: string; soft: string }> => {
  const s = sandbox()
  put(s.at('/etc/app/old.conf'), 'old\n')
  put(s.at('/etc/app/keep.conf'), 'keep\n')
  const m = s.manifest(manifest)
  const plan = path.join(s.host, 'plan.json')
  const r = await plait(['plan', m, '--root', s.root, '--out', plan])
  expect(r.code, show(r)).toBe(0)
  const policy = path.join(s.host, 'policy.yaml')
  fs.writeFileSync(policy, policyText)
  const soft = path.join(s.host, 'soft.yaml')
  fs.writeFileSync(soft, policyText.replace('level: hard', 'level: advisory'))
  return { s, m, plan, policy, soft }
}

const failed = (r: Run): void => {
  expect(r.code, show(r)).toBe(1)
  expect(r.stderr).not.toMatch(stackFrame)
}

describe('plait policy check', () => {
  it('prints every finding at the manifest line of the offending resource, and exits 1 on a hard finding', async () => {
    const { m, plan, policy } = await planned()
    const r = await plait(['policy', 'check', plan, '--policy', policy])
    failed(r)
    expect(r.stdout.split('\n')).toEqual([
      `${m}:8:11: hard: no-removal: /etc/app/old.conf would be removed [file#/etc/app/old.conf]`,
      `${m}:1:1: soft: few-changes: 3 resources change (at most 2 without an override)`,
      `${m}:10:11: advisory: new-files: creates /etc/app/new.conf [file#/etc/app/new.conf]`,
      `${m}:12:11: advisory: new-files: creates /etc/app/hostile.conf [file#/etc/app/hostile.conf]`,
      'policy failed: 1 hard, 1 soft (0 overridden), 2 advisory findings',
      '',
    ])
  })

  it('passes a soft rule overridden with a reason, printing the override and keeping it in the JSON report', async () => {
    const { plan, soft } = await planned()
    failed(await plait(['policy', 'check', plan, '--policy', soft]))
    const r = await plait(['policy', 'check', plan, '--policy', soft, '--override', 'few-changes=release week, approved in #42'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('soft (overridden): few-changes')
    expect(r.stdout).toContain('override: few-changes (soft): release week, approved in #42\n')
    expect(r.stdout).toMatch(/^policy passed: 0 hard, 1 soft \(1 overridden\), 3 advisory findings$/m)
    const j = await plait(['policy', 'check', plan, '--policy', soft, '--override', 'few-changes=release week', '--format', 'json'])
    expect(j.code, show(j)).toBe(0)
    const report = JSON.parse(j.stdout) as { passed: boolean; overrides: unknown[]; findings: Array<{ rule: string; line: number; overridden: string | null }> }
    expect(report.passed).toBe(true)
    expect(report.overrides).toEqual([{ rule: 'few-changes', reason: 'release week', used: true }])
    expect(report.findings.map((f) => [f.rule, f.line, f.overridden])).toEqual([
      ['no-removal', 8, null],
      ['few-changes', 1, 'release week'],
      ['new-files', 10, null],
      ['new-files', 12, null],
    ])
  })

  it('refuses to override a hard rule, and an override without a reason', async () => {
    const { plan, policy } = await planned()
    const hard = await plait(['policy', 'check', plan, '--policy', policy, '--override', 'no-removal=please'])
    failed(hard)
    expect(hard.stderr).toContain('--override no-removal=please: rule no-removal is hard: only soft rules can be overridden')
    const bare = await plait(['policy', 'check', plan, '--policy', policy, '--override', 'few-changes'])
    failed(bare)
    expect(bare.stderr).toContain('expected RULE=REASON with a reason')
  })

  it('writes the findings as SARIF 2.1.0, GitHub annotations and Markdown, each at the manifest lines', async () => {
    const { m, plan, policy } = await planned()
    const sarif = await plait(['policy', 'check', plan, '--policy', policy, '--format', 'sarif'])
    failed(sarif)
    const log = JSON.parse(sarif.stdout) as { version: string; runs: Array<{ tool: { driver: { rules: Array<{ id: string }> } }; results: Array<{ ruleId: string; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }> }> }> }
    expect(log.version).toBe('2.1.0')
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toEqual(['no-removal', 'few-changes', 'new-files'])
    expect(log.runs[0]!.results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.region.startLine])).toEqual([
      ['no-removal', 'error', 8],
      ['few-changes', 'warning', 1],
      ['new-files', 'note', 10],
      ['new-files', 'note', 12],
    ])
    expect(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`file://${m}`)

    const gh = await plait(['policy', 'check', plan, '--policy', policy, '--format', 'github'])
    failed(gh)
    expect(gh.stdout).toContain(`::error file=${m},line=8,title=plait policy%3A no-removal::no-removal (hard): /etc/app/old.conf would be removed\n`)
    expect(gh.stdout).toContain(`::notice file=${m},line=12,title=plait policy%3A new-files::`)

    const md = await plait(['policy', 'check', plan, '--policy', policy, '--format', 'markdown', '--max-bytes', '2048'])
    failed(md)
    expect(Buffer.byteLength(md.stdout)).toBeLessThanOrEqual(2048)
    expect(md.stdout).toMatch(/^### plait policy <code>.*<\/code>: \*\*failed\*\*/)
    expect(md.stdout).toMatch(/^\| hard \(fails\) \| <code>no&#45;removal<\/code> \| <code>.*manifest\.yaml&#58;8<\/code> \|/m)
  })

  it('refuses a malformed policy with file:line:col errors, and a bad plan file', async () => {
    const { s, plan } = await planned()
    const bad = path.join(s.host, 'bad.yaml')
    fs.writeFileSync(bad, 'rules:\n  - name: x\n    level: severe\n    message: m\n    deny: any(resources, {.type == })\n')
    const r = await plait(['policy', 'check', plan, '--policy', bad])
    failed(r)
    expect(r.stderr).toContain(`${bad}:3:12: level "severe": expected advisory, soft or hard`)
    expect(r.stderr).toContain(`${bad}:5:36: unexpected token Bracket("}")`)
    const missing = await plait(['policy', 'check', plan, '--policy', path.join(s.host, 'nope.yaml')])
    failed(missing)
    expect(missing.stderr).toContain('cannot read policy')
    fs.writeFileSync(path.join(s.host, 'broken.json'), '{')
    failed(await plait(['policy', 'check', path.join(s.host, 'broken.json'), '--policy', bad]))
  })

  it('escapes hostile text from the manifest and the policy on a terminal', async () => {
    const { s, plan } = await planned()
    const hostile = path.join(s.host, 'hostile.yaml')
    fs.writeFileSync(hostile, 'rules:\n  - name: r\n    level: advisory\n    message: "\\e[2J{{ item.name }}\\e]0;pwned\\a"\n    deny: any(resources, {.action == "create"})\n')
    const r = await plait(['policy', 'check', plan, '--policy', hostile])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).not.toContain('\x1b')
    expect(r.stdout).toContain('\\x1b[2J/etc/app/new.conf')
  })
})

describe('plait apply --policy', () => {
  it('checks the plan before the first change: a failing policy touches nothing, a passing one applies', async () => {
    const { s, m, plan, policy, soft } = await planned()
    const before = snapshot(s.root)
    const r = await plait(['apply', plan, '--root', s.root, '--policy', policy])
    failed(r)
    expect(r.stderr).toContain(`${m}:8:11: hard: no-removal: /etc/app/old.conf would be removed`)
    expect(r.stderr).toContain('the plan fails the policy')
    expect(snapshot(s.root)).toEqual(before) // no lock, no state directory, no file changed

    const fromManifest = await plait(['apply', m, '--root', s.root, '--policy', soft])
    failed(fromManifest)
    expect(fromManifest.stderr).toContain('few-changes: 3 resources change')
    expect(snapshot(s.root)).toEqual(before)

    failed(await plait(['apply', plan, '--root', s.root, '--override', 'few-changes=x']))
    expect(snapshot(s.root)).toEqual(before)

    const ok = await plait(['apply', plan, '--root', s.root, '--policy', soft, '--override', 'few-changes=approved'])
    expect(ok.code, show(ok)).toBe(0)
    expect(ok.stderr).toContain('override: few-changes (soft): approved')
    expect(read(s.at('/etc/app/new.conf'))).toBe('new\n')
    expect(read(s.at('/etc/app/old.conf'))).toBeUndefined()
  })
})
