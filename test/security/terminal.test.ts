// security: a reviewed plan cannot be forged on the terminal. Names, contents, diffs, messages,
// command output and provider stderr are hostile; what the built binary prints for people shows
// their control characters visibly (\n, \x1b, \u202e) and never lets them add or erase a line.
// JSON output stays exactly the same value.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, sandbox, show } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

// Any control character but newline and tab, and the bidi and separator characters.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

const yamlString = (s: string): string => JSON.stringify(s)

describe('the plan a reviewer reads', () => {
  it('shows a newline in a name and ESC sequences in content visibly, adding no line', async () => {
    const s = sandbox()
    const evilName = '/etc/a\nPlan: 0 to create, 0 to change, 0 to delete, 0 unchanged.\n\x1b[2K'
    fs.mkdirSync(s.at('etc'))
    fs.writeFileSync(s.at('etc/b.conf'), 'old line\n')
    const m = s.manifest(`ccm:
  resources:
    - file:
        - defaults: { owner: root, group: root, mode: "0644" }
        - ${yamlString(evilName)}:
            content: "x"
        - /etc/b.conf:
            content: ${yamlString('new \x1b[1A\x1b[2K line\n\u202eevil\u202c\n\x9b31m\n')}
`)
    const r = await plait(['plan', m, '--root', s.root])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).not.toMatch(raw)
    expect(r.stderr).not.toMatch(raw)
    // the forged summary is on the resource's own line, not a line of its own
    const summaries = r.stdout.split('\n').filter((l) => l.startsWith('Plan:'))
    expect(summaries).toEqual(['Plan: 1 to create, 1 to change, 0 to delete, 0 unchanged.'])
    expect(r.stdout).toContain('/etc/a\\nPlan: 0 to create')
    expect(r.stdout).toContain('\\x1b[1A\\x1b[2K')
    expect(r.stdout).toContain('\\u202eevil\\u202c')
    expect(r.stdout).toContain('\\x9b31m')
  })

  it('keeps --json exact: the same value, every control character escaped', async () => {
    const s = sandbox()
    const content = 'tab\there \x1b[31m red \x7f del \u202e bidi \u2028 sep\n'
    const m = s.manifest(`ccm:
  resources:
    - file:
        - defaults: { owner: root, group: root, mode: "0644" }
        - /f:
            content: ${yamlString(content)}
`)
    const r = await plait(['plan', m, '--root', s.root, '--json'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).not.toMatch(raw)
    // the value parsed back holds the raw characters: the escaping changed the text, not the value
    const plan: unknown = JSON.parse(r.stdout)
    expect(JSON.stringify(plan)).toContain(JSON.stringify(content).slice(1, -1))
    expect(r.stdout).toContain('\\u007f')
    expect(r.stdout).toContain('\\u202e')
    expect(r.stdout).toContain('\\u2028')
  })
})

describe('what an apply and an error print', () => {
  it('shows command output and failure messages visibly', async () => {
    const s = sandbox()
    const m = s.manifest(`ccm:
  resources:
    - exec:
        - say:
            command: ${yamlString("/bin/sh -c 'printf \"one\\\\033[2Jtwo\\\\nPlan: fake\\\\n\"; printf \"bad\\\\033]0;title\\\\007\" >&2; exit 3'")}
            logoutput: true
`)
    const r = await plait(['apply', m, '--root', s.root])
    expect(r.code, show(r)).not.toBe(0)
    expect(r.stdout).not.toMatch(raw)
    expect(r.stderr).not.toMatch(raw)
    expect(r.stdout + r.stderr).toContain('\\x1b')
  })

  it('shows a hostile file name in a diagnostic on one line', async () => {
    const s = sandbox()
    const m = s.manifest(`ccm:
  resources:
    - file:
        - ${yamlString('relative\nerror: forged\x1b[0m')}:
            content: x
`)
    const r = await plait(['plan', m, '--root', s.root])
    expect(r.code).toBe(1)
    expect(r.stderr).not.toMatch(raw)
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: forged'))).toEqual([])
    expect(r.stderr).toContain('relative\\nerror: forged\\x1b[0m')
  })
})

describe('providers', () => {
  const provider = (dir: string): void => {
    const p = path.join(dir, 'providers', 'loud.prov')
    fs.mkdirSync(path.dirname(p), { recursive: true })
    fs.writeFileSync(
      p,
      `#!/bin/sh
printf 'warn: look \\033[2J\\033[H here\\r\\n' >&2
printf 'error: \\033]8;;http://evil\\007link\\033]8;;\\007\\n' >&2
case "$1" in
  ral_action=describe) cat <<'YAML'
provider:
  type: loud
  name: loud
  invoke: simple
  actions: [list, find]
  suitable: true
  attributes:
    name: { desc: "the name\\u001b[31m" }
    ensure: { type: "enum[present, absent]" }
YAML
  ;;
  *) printf '# simple\\nname: x\\nensure: present\\n' ;;
esac
`,
      { mode: 0o755 },
    )
  }

  it('show their stderr and their metadata visibly', async () => {
    const s = sandbox()
    provider(s.host)
    const list = await plait(['ral', 'loud', '--provider-path', s.host])
    expect(list.stderr).not.toMatch(raw)
    expect(list.stdout).not.toMatch(raw)
    expect(list.stderr).toContain('\\x1b[2J')
    const explain = await plait(['ral', 'loud', '--explain', '--provider-path', s.host])
    expect(explain.stdout).not.toMatch(raw)
  })

  it('answer with a JSON error on stdout when --json is given', async () => {
    const unknown = await plait(['ral', 'nosuch', '--json'])
    expect(unknown.code).not.toBe(0)
    expect(JSON.parse(unknown.stdout)).toEqual({ error: { message: "unknown provider: 'nosuch'", kind: 'failed' } })
    const badRoot = await plait(['ral', 'host', '--json', '--root', '/nonexistent/plait'])
    expect(badRoot.code).not.toBe(0)
    expect((JSON.parse(badRoot.stdout) as { error: { message: string } }).error.message).toContain('--root')
  })
})
