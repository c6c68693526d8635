// e2e: `plait diff` through the built binary against a temporary git repository with commits (a
// manifest with a template, a data file and hiera data, changed between the commits) and a facts
// directory of several hosts: text (grouped hosts, formatting-only changes, colour only when
// asked), markdown within its byte budget, JSON, the exit codes, a host that fails at one revision,
// and clear errors for bad inputs.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, plait, show, tempDir } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const git = (cwd: string, ...args: string[]): string => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`)
  return r.stdout.trim()
}

/** The manifest at a revision: hiera data by role, a template, a data file read as is, `fillers` more files. */
const manifest = (o: { readonly port: number; readonly fillers: number; readonly pkg: string }): string => `hierarchy:
  order:
    - role:\${ lookup('facts.role') }
data:
  port: ${o.port}
overrides:
  role:db:
    port: 5432
ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/app.conf:
            content: "{{ template('templates/app.templ') }}"
        - /etc/app/app.json:
            content: "{{ readFile('data/app.json') }}"
${Array.from({ length: o.fillers }, (_, i) => `        - /etc/app/filler${i}.conf:\n            content: "filler ${i} at port {{ Data.port }} \`\`\`\`\\n"\n`).join('')}    - package:
        - ${o.pkg}:
            ensure: present
`

interface Fixture {
  readonly dir: string
  readonly manifest: string
  readonly facts: string
}

/** A repository with two commits (`v1`, then HEAD) and a facts directory: four web hosts, one db host, one host without the `site` fact the new template reads. */
const fixture = (fillers = 2): Fixture => {
  const dir = tempDir('plait-e2e-diff-')
  git(dir, 'init', '-q')
  fs.mkdirSync(path.join(dir, 'site', 'templates'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'site', 'data'))
  const m = path.join(dir, 'site', 'manifest.yaml')
  fs.writeFileSync(m, manifest({ port: 80, fillers, pkg: 'nginx' }))
  fs.writeFileSync(path.join(dir, 'site', 'templates', 'app.templ'), 'port = {{ Data.port }}\nrole = {{ Facts.role }}\n')
  fs.writeFileSync(path.join(dir, 'site', 'data', 'app.json'), '{"users": ["a", "b"], "debug": false}\n')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'one')
  git(dir, 'tag', 'v1')
  fs.writeFileSync(m, manifest({ port: 8080, fillers, pkg: 'apache2' }))
  fs.writeFileSync(path.join(dir, 'site', 'templates', 'app.templ'), 'port = {{ Data.port }}\nrole = {{ Facts.role }}\nsite = {{ Facts.site.name }}\n')
  // the same data, written another way: a change of formatting only
  fs.writeFileSync(path.join(dir, 'site', 'data', 'app.json'), '{\n  "debug": false,\n  "users": [\n    "a",\n    "b"\n  ]\n}\n')
  git(dir, 'commit', '-q', '-a', '-m', 'two')
  // the working tree differs from both commits: diff must read the revisions, never the files here
  fs.writeFileSync(path.join(dir, 'site', 'templates', 'app.templ'), 'WORKING TREE\n')
  const facts = path.join(dir, 'facts')
  fs.mkdirSync(facts)
  for (const h of ['web01', 'web02', 'web03', 'web04']) fs.writeFileSync(path.join(facts, `${h}.json`), JSON.stringify({ role: 'web', site: { name: 'ams' } }))
  fs.writeFileSync(path.join(facts, 'db01.yaml'), 'role: db\nsite:\n  name: fra\n')
  fs.writeFileSync(path.join(facts, 'nosite.json'), JSON.stringify({ role: 'web' }))
  fs.writeFileSync(path.join(facts, 'README.txt'), 'not a facts file')
  return { dir, manifest: m, facts }
}

const diff = (f: Fixture, ...args: string[]) => plait(['diff', '--from', 'v1', '--to', 'HEAD', '--facts', f.facts, 'site/manifest.yaml', '--now', '2026-11-25T10:00:00Z', ...args], { cwd: f.dir })

describe('plait diff', () => {
  it('groups the hosts with the same change, lists the host that fails at one revision, and exits 1', async () => {
    const f = fixture()
    const r = await diff(f)
    expect(r.code, show(r)).toBe(1)
    const out = r.stdout
    expect(out).toMatch(/^plait diff of site\/manifest\.yaml: v1 \([0-9a-f]{12}\) → HEAD \([0-9a-f]{12}\)\n/)
    expect(out).toContain('Changes: 5 hosts change, 0 hosts unchanged, 1 host fails to compile, of 6 hosts.\n')
    expect(out).toContain('4 hosts: same change:\n  web01, web02, web03, web04\n')
    expect(out).toContain('1 host:\n  db01\n')
    expect(out).toContain('1 host failing at HEAD:\n  nosite\n  at HEAD:\n    error: site/manifest.yaml:')
    expect(out).toContain('cannot fetch name from <nil>')
    // the web group's change: the template's new line and the hiera value, the package swapped
    const web = out.slice(out.indexOf('4 hosts: same change'), out.indexOf('1 host:\n  db01'))
    expect(web).toContain('~ file#/etc/app/app.conf (site/manifest.yaml:16)\n    ~ content.text:\n      --- v1:file#/etc/app/app.conf\n      +++ HEAD:file#/etc/app/app.conf\n      @@ -1,2 +1,3 @@\n-port = 80'.replace('\n-port', '\n      -port'))
    expect(web).toContain('      +port = 8080\n       role = web\n      +site = ams\n')
    expect(web).toContain('+ package#apache2 (site/manifest.yaml:')
    expect(web).toContain('- package#nginx (site/manifest.yaml:')
    expect(web).toContain('Formatting only (not a change):\n  file#/etc/app/app.json content.text: json formatting only, the same data\n')
    expect(out).not.toContain('WORKING TREE')
    // the db host sees its own hiera value, unchanged by the commit
    const db = out.slice(out.indexOf('1 host:\n  db01'))
    expect(db).toContain('       port = 5432\n       role = db\n      +site = fra\n')
    expect(r.stdout).not.toContain('\x1b[')
  })

  it('colours the text like a plan when FORCE_COLOR asks, and the text is otherwise the same', async () => {
    const f = fixture()
    const plain = await diff(f)
    const coloured = await plait(['diff', '--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--now', '2026-11-25T10:00:00Z'], { cwd: f.dir, env: { FORCE_COLOR: '1' } })
    expect(coloured.stdout).toContain('\x1b[32m+\x1b[0m \x1b[1mpackage#apache2')
    expect(coloured.stdout).toContain('\x1b[31m-port = 80\x1b[0m')
    // eslint-disable-next-line no-control-regex
    expect(coloured.stdout.replace(/\x1b\[[0-9]+m/g, '')).toBe(plain.stdout)
  })

  it('exits 2 when hosts change and none fails, and 0 with no change at all', async () => {
    const f = fixture()
    fs.rmSync(path.join(f.facts, 'nosite.json'))
    const changes = await diff(f)
    expect(changes.code, show(changes)).toBe(2)
    const same = await plait(['diff', '--from', 'HEAD', '--to', 'HEAD', '--facts', f.facts, 'site/manifest.yaml'], { cwd: f.dir })
    expect(same.code, show(same)).toBe(0)
    expect(same.stdout).toContain('Changes: 0 hosts change, 5 hosts unchanged, of 5 hosts.\n')
    expect(same.stdout).toContain('No changes. Every host compiles to the same catalog at both revisions.\n')
  })

  it('gives the same report on one thread as on every core', async () => {
    const f = fixture()
    const one = await diff(f, '--jobs', '1')
    const all = await diff(f)
    expect(one.code).toBe(1)
    expect(one.stdout).toBe(all.stdout)
  })

  it('prints the documented JSON document', async () => {
    const f = fixture()
    const r = await diff(f, '--json')
    expect(r.code, show(r)).toBe(1)
    const doc = JSON.parse(r.stdout)
    expect(Object.keys(doc)).toEqual(['version', 'manifest', 'from', 'to', 'hosts', 'exitCode', 'unchanged', 'changes', 'failures'])
    expect(doc).toMatchObject({ version: 1, manifest: 'site/manifest.yaml', from: { rev: 'v1' }, to: { rev: 'HEAD' }, hosts: 6, exitCode: 1, unchanged: [] })
    expect(doc.from.commit).toBe(git(f.dir, 'rev-parse', 'v1'))
    expect(doc.changes.map((c: { hosts: string[] }) => c.hosts)).toEqual([['web01', 'web02', 'web03', 'web04'], ['db01']])
    expect(doc.changes[0].entries.map((e: { _tag: string; id: string }) => `${e._tag} ${e.id}`)).toEqual(['Changed file#/etc/app/app.conf', 'Changed file#/etc/app/filler0.conf', 'Changed file#/etc/app/filler1.conf', 'Added package#apache2', 'Removed package#nginx'])
    expect(doc.changes[0].formatting).toEqual([{ id: 'file#/etc/app/app.json', path: 'content.text', format: 'json' }])
    expect(doc.failures).toHaveLength(1)
    expect(doc.failures[0].hosts).toEqual(['nosite'])
    expect(doc.failures[0].from).toBeNull()
    expect(doc.failures[0].to[0]).toMatch(/^error: site\/manifest\.yaml:\d+:\d+: file#\/etc\/app\/app\.conf: content: template: cannot fetch name/)
  })

  it('writes markdown within --max-bytes: summary first, cut at a resource boundary with the count of the rest', async () => {
    const f = fixture(60)
    const r = await diff(f, '--format', 'markdown', '--max-bytes', '6000')
    expect(r.code, show(r)).toBe(1)
    const md = r.stdout
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(6000)
    expect(md.startsWith('### plait diff of <code>site/manifest.yaml</code>: <code>v1</code> → <code>HEAD</code>\n\n**Changes: 5 hosts change, 0 hosts unchanged, 1 host fails to compile, of 6 hosts.**\n')).toBe(true)
    expect(md.indexOf('#### Hosts that fail to compile (1)')).toBeLessThan(md.indexOf('#### 4 hosts: same change'))
    const json = JSON.parse((await diff(f, '--json')).stdout)
    const total = json.changes.reduce((n: number, c: { entries: unknown[] }) => n + c.entries.length, 0)
    const sections = md.split('<details><summary><code>').length - 1
    const more = /^([0-9]+) more resources?, see the JSON report \(`plait diff --json`\)\.$/m.exec(md)
    expect(more).not.toBeNull()
    expect(sections + Number(more![1])).toBe(total)
    // every section is whole: as many closing lines as openings
    expect(md.split('\n').filter((l) => l === '</details>').length).toBe(md.split('<details>').length - 1)
    // the default budget holds the whole report
    const whole = await diff(f, '--format', 'markdown')
    expect(Buffer.byteLength(whole.stdout)).toBeLessThanOrEqual(65_536)
    expect(whole.stdout).not.toMatch(/more resources?, see the JSON report/)
    expect(whole.stdout.split('<details><summary><code>').length - 1).toBe(total)
  })

  it('refuses bad inputs with a clear message and exit 1', async () => {
    const f = fixture()
    const cases: Array<[string[], RegExp]> = [
      [['--from', 'nope', '--facts', f.facts, 'site/manifest.yaml'], /revision nope: no such commit/],
      [['--from', '--all', '--facts', f.facts, 'site/manifest.yaml'], /not a revision name/],
      [['--from', 'v1', '--facts', path.join(f.dir, 'site', 'templates'), 'site/manifest.yaml'], /no facts files \(NAME\.json, NAME\.yaml or NAME\.yml\)/],
      [['--from', 'v1', '--facts', path.join(f.dir, 'missing'), 'site/manifest.yaml'], /--facts .*missing: not a readable directory/],
      [['--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--format', 'text', '--max-bytes', '9000'], /--max-bytes applies to --format markdown only/],
      [['--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--jobs', '0'], /--jobs 0: expected a whole number from 1/],
      [['--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--now', 'yesterday'], /--now yesterday: not an RFC 3339 time/],
      [['--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--json', '--format', 'markdown'], /--json and --format markdown ask for two formats/],
      [['--from', 'v1', '--facts', f.facts, 'site/manifest.yaml', '--hiera', 'site/hiera.yaml'], /--hiera site\/hiera\.yaml: does not exist at [0-9a-f]{12}/],
    ]
    for (const [args, says] of cases) {
      const r = await plait(['diff', ...args], { cwd: f.dir })
      expect(r.code, show(r)).toBe(1)
      expect(r.stderr).toMatch(says)
      expect(r.stdout).toBe('')
    }
    const outside = tempDir()
    fs.writeFileSync(path.join(outside, 'm.yaml'), 'ccm: {resources: []}\n')
    const r = await plait(['diff', '--from', 'v1', '--facts', f.facts, path.join(outside, 'm.yaml')], { cwd: f.dir })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/m\.yaml: not in a git repository/)
  })

  it('fails every host at a revision where the manifest does not exist', async () => {
    const f = fixture()
    fs.writeFileSync(path.join(f.dir, 'site', 'other.yaml'), 'ccm:\n  resources:\n    - package:\n        - nginx: {ensure: present}\n')
    git(f.dir, 'add', 'site/other.yaml')
    git(f.dir, 'commit', '-q', '-m', 'three')
    const r = await plait(['diff', '--from', 'v1', '--facts', f.facts, 'site/other.yaml'], { cwd: f.dir })
    expect(r.code, show(r)).toBe(1)
    expect(r.stdout).toContain('6 hosts failing at v1:\n')
    expect(r.stdout).toMatch(/error: site\/other\.yaml does not exist at [0-9a-f]{12}/)
  })

  it('reads a --hiera document at each revision', async () => {
    const f = fixture()
    fs.rmSync(path.join(f.facts, 'nosite.json'))
    const hiera = path.join(f.dir, 'site', 'hiera.yaml')
    fs.writeFileSync(hiera, 'data:\n  port: 9000\n')
    git(f.dir, 'add', 'site/hiera.yaml')
    git(f.dir, 'commit', '-q', '-m', 'three')
    fs.writeFileSync(hiera, 'data:\n  port: 9001\n')
    git(f.dir, 'commit', '-q', '-m', 'four', 'site/hiera.yaml')
    fs.writeFileSync(hiera, 'data:\n  port: 1\n')
    const r = await plait(['diff', '--from', 'HEAD~1', '--facts', f.facts, 'site/manifest.yaml', '--hiera', 'site/hiera.yaml'], { cwd: f.dir })
    expect(r.code, show(r)).toBe(2)
    // the hiera value is on top of every host's data, the role's override included
    expect(r.stdout).toContain('4 hosts: same change:\n')
    expect(r.stdout).toContain('      -port = 9000\n      +port = 9001\n       role = web\n')
    expect(r.stdout).toContain('      -port = 9000\n      +port = 9001\n       role = db\n')
    expect(r.stdout).not.toContain('port = 1\n')
  })
})
