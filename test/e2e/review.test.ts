// e2e: plans for people through the built binary: colour on a terminal and never when piped, the
// progress of an apply on a terminal only, markdown within a byte budget, GitHub annotations,
// show --detailed-exitcode, apply --expect (refused before anything is touched) and show --against.
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binary, cleanup, ensureBuilt, plait, put, read, repo, sandbox, show, snapshot, stackFrame, type Run, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const ESC = '\x1b'

const manifest = (n: number): string => `ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/old.conf:
            ensure: absent
        - /etc/app/hostile.conf:
            content: "a\\e[2J\\e]0;pwned\\abc\\n"
${Array.from({ length: n }, (_, i) => `        - /etc/app/f${i}.conf:\n            content: "line ${i} \`\`\`\`\\n"\n`).join('')}`

/** A root with one file to delete and one to change, a manifest of `n` more files, and its saved plan. */
const planned = async (n = 3): Promise<{ s: Sandbox; m: string; plan: string }> => {
  const s = sandbox()
  put(s.at('/etc/app/old.conf'), 'old\n')
  put(s.at('/etc/app/hostile.conf'), 'before\n')
  const m = s.manifest(manifest(n))
  const plan = path.join(s.host, 'plan.json')
  const r = await plait(['plan', m, '--root', s.root, '--out', plan])
  expect(r.code, show(r)).toBe(0)
  return { s, m, plan }
}

const refused = (r: Run, says: RegExp): void => {
  expect(r.code, show(r)).toBe(1)
  expect(r.stderr, show(r)).toMatch(says)
  expect(r.stderr).not.toMatch(stackFrame)
}

/** Runs the binary on a pseudo-terminal (util-linux `script`): stdout and stderr are a TTY, as a person's. */
const onTerminal = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve, reject) => {
    const quoted = [process.execPath, binary, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
    const e: Record<string, string | undefined> = { ...process.env, TERM: 'xterm', COLUMNS: '120' }
    delete e['FORCE_COLOR']
    delete e['NO_COLOR']
    Object.assign(e, env)
    const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { cwd: repo, env: e, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })

describe('colour', () => {
  it('is off when piped, on with FORCE_COLOR, off with FORCE_COLOR=0 or NO_COLOR; hostile content stays escaped either way', async () => {
    const { plan } = await planned()
    const piped = await plait(['show', plan])
    expect(piped.stdout).not.toContain(ESC)
    const forced = await plait(['show', plan], { env: { FORCE_COLOR: '1' } })
    expect(forced.code, show(forced)).toBe(0)
    expect(forced.stdout).toContain(`${ESC}[31m-${ESC}[0m ${ESC}[1mfile#/etc/app/old.conf`)
    expect(forced.stdout).toContain(`${ESC}[32m+a\\x1b[2J\\x1b]0;pwned\\x07bc${ESC}[0m`)
    // the only escape sequences are colour's own: without them the text is the uncoloured text, byte for byte
    // eslint-disable-next-line no-control-regex -- taking colour's sequences out is the point
    expect(forced.stdout.replace(/\x1b\[[0-9]+m/g, '')).toBe(piped.stdout)
    for (const env of [{ FORCE_COLOR: '0' }, { NO_COLOR: '1' }]) expect((await plait(['show', plan], { env })).stdout).toBe(piped.stdout)
  })

  it('colours a terminal, and not one with NO_COLOR', async () => {
    const { plan } = await planned()
    const tty = await onTerminal(['show', plan])
    expect(tty.code).toBe(0)
    expect(tty.output).toContain(`${ESC}[33m~${ESC}[0m`)
    expect((await onTerminal(['show', plan], { NO_COLOR: '1' })).output).not.toContain(`${ESC}[`)
  })

  it('colours an error red on a terminal', async () => {
    const tty = await onTerminal(['show', '/nonexistent/plan.json'])
    expect(tty.code).toBe(1)
    expect(tty.output).toContain(`${ESC}[31merror${ESC}[0m: cannot read plan`)
  })
})

describe('progress', () => {
  it('shows "resource N of M" on a terminal, and never when piped or with --json', async () => {
    const { s, plan } = await planned(4)
    const tty = await onTerminal(['apply', plan, '--root', s.root])
    expect(tty.code, tty.output).toBe(0)
    for (let i = 1; i <= 6; i++) expect(tty.output).toContain(`resource ${i} of 6: `)
    expect(tty.output).toContain('Apply: 6 changed')
    expect(read(s.at('/etc/app/f3.conf'))).toBe('line 3 ````\n')

    const again = await planned(4)
    const piped = await plait(['apply', again.plan, '--root', again.s.root])
    expect(piped.code, show(piped)).toBe(0)
    expect(piped.stdout + piped.stderr).not.toMatch(/resource [0-9]+ of/)
    const third = await planned(4)
    const json = await onTerminal(['apply', third.plan, '--root', third.s.root, '--json'])
    expect(json.code, json.output).toBe(0)
    expect(json.output).not.toMatch(/resource [0-9]+ of/)
  })
})

describe('show --format markdown', () => {
  it('fits --max-bytes, cut at a resource boundary with the "more" line', async () => {
    const { plan } = await planned(60)
    const r = await plait(['show', plan, '--format', 'markdown', '--max-bytes', '4000'])
    expect(r.code, show(r)).toBe(0)
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(4000)
    const more = /^([0-9]+) more resources, see the plan artifact\.$/m.exec(r.stdout)
    expect(more).not.toBeNull()
    const sections = r.stdout.split('<details>').length - 1
    expect(sections + Number(more![1])).toBe(62)
    expect(r.stdout).toMatch(/^### plait plan of <code>/)
    expect(r.stdout).toContain('#### Destructive steps (1)')
    expect(r.stdout).toMatch(/<code>file&#35;\/etc\/app\/old\.conf<\/code> at <code>[^<]*manifest\.yaml&#58;8<\/code>: <code>file\.remove<\/code> file exists/)

    const whole = await plait(['show', plan, '--format', 'markdown'])
    expect(whole.stdout).not.toMatch(/more resources?, see the plan artifact/)
    expect(whole.stdout.split('<details>').length - 1).toBe(62)
    expect(whole.stdout).toContain('`````diff') // content holds a run of four backticks
  })

  it('refuses a budget below the minimum, a bad number, and --max-bytes without markdown', async () => {
    const { plan } = await planned()
    refused(await plait(['show', plan, '--format', 'markdown', '--max-bytes', '100']), /--max-bytes 100: expected a whole number of bytes from 2048/)
    refused(await plait(['show', plan, '--format', 'markdown', '--max-bytes', '12k']), /--max-bytes 12k: expected a whole number/)
    refused(await plait(['show', plan, '--max-bytes', '5000']), /--max-bytes applies to --format markdown only/)
    refused(await plait(['show', plan, '--format', 'yaml']), /argument 'yaml' is invalid/)
    refused(await plait(['show', plan, '--json', '--format', 'markdown']), /ask for two formats/)
  })
})

describe('show --format github', () => {
  it('writes a warning at the deletion and notices at the changes, at their manifest lines', async () => {
    const { plan } = await planned(20)
    const r = await plait(['show', plan, '--format', 'github'])
    expect(r.code, show(r)).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    const m = path.join(path.dirname(plan), 'manifest.yaml')
    expect(lines.filter((l) => l.startsWith('::warning'))).toEqual([`::warning file=${m},line=8,title=plait%3A destructive change::- file#/etc/app/old.conf%0Afile.remove: file exists`])
    const notices = lines.filter((l) => l.startsWith('::notice'))
    expect(notices.length).toBe(10)
    expect(notices[0]).toMatch(/^::notice file=[^,]*manifest\.yaml,line=10,title=plait%3A change::~ file#\/etc\/app\/hostile\.conf%0Afile\.write: content differs/)
    expect(notices[9]).toBe('::notice::12 more resources change, see the plan artifact')
    expect(lines[lines.length - 1]).toBe('Plan: 20 to create, 1 to change, 1 to delete, 0 unchanged.')
  })
})

describe('show --detailed-exitcode', () => {
  it('exits 2 for a plan with changes, 0 for one without, 1 for a damaged one', async () => {
    const { s, m, plan } = await planned()
    expect((await plait(['show', plan, '--detailed-exitcode'])).code).toBe(2)
    const applied = await plait(['apply', plan, '--root', s.root])
    expect(applied.code, show(applied)).toBe(0)
    const none = path.join(s.host, 'none.json')
    expect((await plait(['plan', m, '--root', s.root, '--out', none])).code).toBe(0)
    const r = await plait(['show', none, '--detailed-exitcode'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toContain('No changes.')
    fs.writeFileSync(path.join(s.host, 'bad.json'), '{"format": "plait.plan/2"')
    refused(await plait(['show', path.join(s.host, 'bad.json'), '--detailed-exitcode']), /invalid JSON/)
  })
})

describe('apply --expect', () => {
  it('refuses a plan whose hash is not the approved one before touching anything, naming both hashes', async () => {
    const { s, plan } = await planned()
    const hash = (JSON.parse(fs.readFileSync(plan, 'utf8')) as { hash: string }).hash
    const approved = `sha256:${'0'.repeat(64)}`
    const before = snapshot(s.root)
    const r = await plait(['apply', plan, '--root', s.root, '--expect', approved])
    refused(r, new RegExp(`is not the approved plan: its hash is ${hash}, the approved hash is ${approved}; nothing was applied`))
    expect(snapshot(s.root)).toEqual(before) // no lock, no state directory, no file changed
    refused(await plait(['apply', plan, '--root', s.root, '--expect', 'sha256:abc']), /--expect sha256:abc: expected a plan hash/)
    refused(await plait(['apply', path.join(s.host, 'manifest.yaml'), '--root', s.root, '--expect', hash]), /--expect applies to a saved plan/)
    expect(snapshot(s.root)).toEqual(before)

    const ok = await plait(['apply', plan, '--root', s.root, '--expect', hash])
    expect(ok.code, show(ok)).toBe(0)
    expect(read(s.at('/etc/app/f0.conf'))).toBe('line 0 ````\n')
  })
})

describe('show --against', () => {
  it('shows only what changed since the approved plan, as text and markdown; refuses another manifest', async () => {
    const { s, m, plan } = await planned()
    put(s.at('/etc/app/f1.conf'), 'line 1 ````\n')
    fs.writeFileSync(m, manifest(3).replace('line 2', 'line two'))
    const next = path.join(s.host, 'next.json')
    expect((await plait(['plan', m, '--root', s.root, '--out', next])).code).toBe(0)
    const r = await plait(['show', next, '--against', plan, '--detailed-exitcode'])
    expect(r.code, show(r)).toBe(2)
    expect(r.stdout).toContain('note: the manifest changed since the approved plan')
    expect(r.stdout).toMatch(/^~ file#\/etc\/app\/f1\.conf\n {4}action: create → none\n {4}- file\.write: file does not exist$/m)
    expect(r.stdout).toMatch(/^~ file#\/etc\/app\/f2\.conf\n {4}~ file\.write: file does not exist \(its details differ\)$/m)
    expect(r.stdout).toContain('Changes: 0 added, 0 removed, 2 changed, 3 the same.')
    const same = await plait(['show', plan, '--against', plan, '--detailed-exitcode'])
    expect(same.code, show(same)).toBe(0)
    expect(same.stdout).toContain('No differences')
    const md = await plait(['show', next, '--against', plan, '--format', 'markdown'])
    expect(md.stdout).toContain('**Changes: 0 added, 0 removed, 2 changed, 3 the same.**')
    expect(md.stdout.split('<details>').length - 1).toBe(2)

    const other = s.manifest(manifest(1), 'other.yaml')
    const otherPlan = path.join(s.host, 'other.json')
    expect((await plait(['plan', other, '--root', s.root, '--out', otherPlan])).code).toBe(0)
    refused(await plait(['show', otherPlan, '--against', plan]), /cannot compare .*other\.json with .*plan\.json: the plans are of different manifests/)
    refused(await plait(['show', next, '--against', plan, '--format', 'github']), /--format github annotates one plan/)
  })
})
