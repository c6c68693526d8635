// security: what plait reads. Expressions read only below the manifest's directory; inputs are
// regular files of bounded size (a FIFO is refused, not waited on); `plan --out` never overwrites
// an input; ids beyond what the kernel takes are refused at plan; a plan the compiler could never
// make is malformed even when its hash was recomputed, and is never called stale.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as PlanFile from '../../src/planfile/PlanFile.js'
import type * as Plan from '../../src/core/Plan.js'
import { FileWrite } from '../../src/types/file/Step.js'
import { cleanup, ensureBuilt, plait, sandbox, show, stackFrame, tempDir } from '../e2e/helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const uid = String(process.getuid?.() ?? 0)
const attrs = `            owner: "${uid}"\n            group: "${uid}"\n            mode: "0644"\n`
const fileWith = (content: string): string => `ccm:\n  resources:\n    - file:\n        - /out.txt:\n            content: ${JSON.stringify(content)}\n${attrs}`

describe('readFile, file and template', () => {
  it('refuse a path that climbs out of the manifest directory', async () => {
    const s = sandbox()
    fs.writeFileSync(path.join(path.dirname(s.host), 'secret'), 'outside\n')
    for (const expr of ["readFile('../secret')", "file('a/../../secret')", "readFile('/etc/passwd')"]) {
      const r = await plait(['plan', s.manifest(fileWith(`{{ ${expr} }}`)), '--root', s.root])
      expect(r.code, show(r)).toBe(1)
      expect(r.stdout).not.toContain('outside')
      expect(r.stderr).not.toMatch(stackFrame)
    }
  })

  it('refuse a symlink, at the end or on the way, that leads outside; follow one that stays inside', async () => {
    const s = sandbox()
    const outside = tempDir()
    fs.writeFileSync(path.join(outside, 'secret'), 'outside\n')
    fs.symlinkSync(path.join(outside, 'secret'), path.join(s.host, 'link'))
    fs.symlinkSync(outside, path.join(s.host, 'dirlink'))
    fs.writeFileSync(path.join(s.host, 'real.txt'), 'inside\n')
    fs.symlinkSync('real.txt', path.join(s.host, 'alias.txt'))
    for (const p of ['link', 'dirlink/secret']) {
      const r = await plait(['plan', s.manifest(fileWith(`{{ readFile('${p}') }}`)), '--root', s.root])
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/outside the manifest directory/)
      expect(r.stdout + r.stderr).not.toContain('outside\\n')
    }
    const ok = await plait(['plan', s.manifest(fileWith("{{ readFile('alias.txt') }}")), '--root', s.root, '--json'])
    expect(ok.code, show(ok)).toBe(0)
    expect(ok.stdout).toContain('inside\\n')
  })
})

describe('inputs that are not regular files', () => {
  it('a FIFO as readFile target, source, manifest, plan, facts or hiera file is refused at once', async () => {
    const s = sandbox()
    execFileSync('mkfifo', [path.join(s.host, 'fifo')])
    const runs = await Promise.all([
      plait(['plan', s.manifest(fileWith("{{ readFile('fifo') }}")), '--root', s.root]),
      plait(['plan', s.manifest(`ccm:\n  resources:\n    - file:\n        - /out.txt:\n            source: fifo\n${attrs}`, 'source.yaml'), '--root', s.root]),
      plait(['plan', path.join(s.host, 'fifo'), '--root', s.root]),
      plait(['show', path.join(s.host, 'fifo')]),
      plait(['apply', path.join(s.host, 'fifo'), '--root', s.root]),
      plait(['plan', s.manifest(fileWith('{{ Facts.x }}'), 'facts.yaml'), '--root', s.root, '--facts', path.join(s.host, 'fifo')]),
      plait(['plan', s.manifest(fileWith('x'), 'hiera.yaml'), '--root', s.root, '--hiera', path.join(s.host, 'fifo')]),
    ])
    for (const r of runs) {
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/not a regular file/)
      expect(r.stderr).not.toMatch(stackFrame)
    }
  }, 30_000)
})

describe('plan --out', () => {
  it('refuses to overwrite its own manifest or a file it read, and writes nothing', async () => {
    const s = sandbox()
    fs.writeFileSync(path.join(s.host, 'data.txt'), 'data\n')
    const m = s.manifest(fileWith("{{ readFile('data.txt') }}"))
    const before = fs.readFileSync(m, 'utf8')
    for (const out of [m, path.join(s.host, 'data.txt')]) {
      const r = await plait(['plan', m, '--root', s.root, '--out', out])
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/refusing to write the plan over/)
    }
    expect(fs.readFileSync(m, 'utf8')).toBe(before)
    expect(fs.readFileSync(path.join(s.host, 'data.txt'), 'utf8')).toBe('data\n')
    expect(fs.readdirSync(s.host).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('to a directory is a clear error and leaves no temp file', async () => {
    const s = sandbox()
    const dir = path.join(s.host, 'plans')
    fs.mkdirSync(dir)
    const r = await plait(['plan', s.manifest(fileWith('x')), '--root', s.root, '--out', dir])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/it is a directory/)
    expect(fs.readdirSync(s.host).filter((n) => n.endsWith('.tmp'))).toEqual([])
    expect(fs.readdirSync(dir)).toEqual([])
  })
})

describe('user and group ids', () => {
  it('beyond 2^32-2 are refused at plan, with their position', async () => {
    const s = sandbox()
    const r = await plait(['plan', s.manifest(`ccm:\n  resources:\n    - file:\n        - /f:\n            content: x\n            owner: "4294967295"\n            group: "0"\n            mode: "0644"\n`), '--root', s.root])
    expect(r.code, show(r)).toBe(1)
    expect(r.stderr).toMatch(/manifest\.yaml:6:\d+: .*owner 4294967295 is out of range/)
  })
})

describe('a plan no compile could make', () => {
  const forge = async (edit: (p: Plan.Plan) => void): Promise<{ s: ReturnType<typeof sandbox>; file: string }> => {
    const s = sandbox()
    const file = path.join(s.host, 'plan.json')
    const made = await plait(['plan', s.manifest(fileWith('x') + `        - /g:\n            content: y\n${attrs}`), '--root', s.root, '--out', file])
    expect(made.code, show(made)).toBe(0)
    const plan = JSON.parse(fs.readFileSync(file, 'utf8')) as Plan.Plan
    edit(plan)
    const { hash: _, ...body } = plan
    fs.writeFileSync(file, PlanFile.serialize({ ...body, hash: PlanFile.hashOf(body) } as Plan.Plan))
    return { s, file }
  }

  /** The first step of the plan as parsed from its file: the write of /out.txt (the test forges it in place). */
  const firstWrite = (p: Plan.Plan): FileWrite => {
    const s = p.resources[0]?.steps[0]
    if (!FileWrite.is(s)) throw new Error(`expected a file.write step, got ${JSON.stringify(s)}`)
    return s
  }

  const cases: Array<[string, (p: Plan.Plan) => void, RegExp]> = [
    ['mode 9999', (p) => (firstWrite(p).mode = '9999'), /resources\[0\]\.steps\[0\]\.mode: "9999" is not a mode/],
    ['uid -1', (p) => (firstWrite(p).owner.id = -1), /resources\[0\]\.steps\[0\]\.owner\.id: -1 is not an id/],
    ['a ".." path', (p) => (firstWrite(p).path = '/etc/../../tmp/x'), /resources\[0\]\.steps\[0\]\.path: .* is not a clean absolute path/],
    ['a relative path', (p) => (firstWrite(p).path = 'tmp/x'), /is not a clean absolute path/],
    ['duplicate ids', (p) => ((p.resources[1] as { id: string }).id = p.resources[0]!.id), /resources\[1\]\.id: duplicate id "file#\/out\.txt" \(also resources\[0\]\)/],
  ]
  for (const [name, edit, message] of cases) {
    it(`with ${name}, rehashed, is malformed, not stale, and applies nothing`, async () => {
      const { s, file } = await forge(edit)
      const r = await plait(['apply', file, '--root', s.root])
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(/malformed plan/)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).not.toMatch(/stale/)
      expect(fs.readdirSync(s.root)).toEqual([])
    })
  }
})
