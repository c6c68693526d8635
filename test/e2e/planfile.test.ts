// e2e: saved plans that must be refused: tampered, unknown format, garbage, for another root, stale.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, ensureBuilt, exists, otherAccount, plait, put, read, sandbox, show, snapshot, stackFrame, stateRel, tamper, type Run, type Sandbox } from './helpers.js'

beforeAll(ensureBuilt)
afterAll(cleanup)

const manifest = `ccm:
  resources:
    - file:
        - defaults:
            owner: root
            group: root
            mode: "0644"
        - /etc/app/keep.conf:
            content: "keep\\n"
        - /etc/app/a.conf:
            content: "new a\\n"
        - /etc/app/b.conf:
            content: "new b\\n"
            mode: "0640"
        - /etc/app/c.conf:
            content: "new c\\n"
        - /etc/app/gone.conf:
            ensure: absent
`

const seed = (s: Sandbox): void => {
  put(s.at('/etc/app/keep.conf'), 'keep\n', 0o644)
  put(s.at('/etc/app/a.conf'), 'old a\n', 0o644)
  put(s.at('/etc/app/b.conf'), 'old b\n', 0o600)
  put(s.at('/etc/app/gone.conf'), 'gone\n', 0o644)
}

/** Plans the manifest below a fresh seeded root and saves the plan. */
const planned = async (): Promise<{ s: Sandbox; m: string; plan: string; text: string }> => {
  const s = sandbox()
  seed(s)
  const m = s.manifest(manifest)
  const plan = path.join(s.host, 'plan.json')
  const r = await plait(['plan', m, '--root', s.root, '--out', plan])
  expect(r.code, show(r)).toBe(0)
  return { s, m, plan, text: fs.readFileSync(plan, 'utf8') }
}

const refused = (r: Run, says: RegExp): void => {
  expect(r.code, show(r)).toBe(1)
  expect(r.signal).toBe(null)
  expect(r.stderr, show(r)).toMatch(says)
  expect(r.stderr).toMatch(/^error: /)
  expect(r.stderr, show(r)).not.toMatch(stackFrame)
  expect(r.stderr).not.toMatch(/internal error/)
}

describe('plan files', () => {
  it('refuses tampered, unknown-format, garbage and other-root plans, changing nothing; the good plan still applies', async () => {
    const { s, plan, text } = await planned()
    const other = sandbox()
    seed(other)
    const bad = (name: string, body: string | Buffer): string => {
      const f = path.join(s.host, name)
      fs.writeFileSync(f, body)
      return f
    }
    const raw = JSON.parse(text) as Record<string, unknown>
    const tampered = tamper(text, 'new a', 'new A') // one byte of one file's content
    expect(tampered.length).toBe(text.length)
    expect([...tampered].filter((ch, i) => ch !== text[i]).length).toBe(1)
    const files = {
      tampered: bad('tampered.json', tampered),
      retargeted: bad('retargeted.json', text.replace(JSON.stringify(raw['root']), JSON.stringify(fs.realpathSync(other.root)))),
      v2: bad('v2.json', text.replace('"plait.plan/2"', '"plait.plan/3"')),
      v1: bad('v1.json', text.replace('"plait.plan/2"', '"plait.plan/1"')),
      truncated: bad('truncated.json', text.slice(0, Math.floor(text.length / 2))),
      malformed: bad('malformed.json', JSON.stringify({ ...raw, resources: 'none' }, null, 2)),
      garbage: bad('garbage.json', Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x22, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x22, 0x0a])),
    }
    const before = snapshot(s.root)
    const beforeOther = snapshot(other.root)

    const [rTampered, rRetargeted, rV2, rV1, rTruncated, rMalformed, rGarbage, rOtherRoot, rNoop] = await Promise.all([
      plait(['apply', files.tampered, '--root', s.root]),
      plait(['apply', files.retargeted, '--root', other.root]),
      plait(['apply', files.v2, '--root', s.root]),
      plait(['apply', files.v1, '--root', s.root]),
      plait(['apply', files.truncated, '--root', s.root]),
      plait(['apply', files.malformed, '--root', s.root]),
      plait(['apply', files.garbage, '--root', s.root]),
      plait(['apply', plan, '--root', other.root]),
      plait(['apply', plan, '--root', s.root, '--noop']),
    ])
    refused(rTampered, /hash .* does not match|modified/)
    expect(rTampered.stderr).toContain(files.tampered)
    refused(rRetargeted, /hash .* does not match|modified/)
    refused(rV2, /unknown plan format "plait\.plan\/3"/)
    refused(rV1, /made by an older plait.*\n.*plan again/)
    refused(rTruncated, /not a plan file|invalid JSON/)
    refused(rMalformed, /malformed plan/)
    refused(rGarbage, /./)
    refused(rOtherRoot, new RegExp(`made for root ${fs.realpathSync(s.root)}.*${fs.realpathSync(other.root)}`))
    expect(snapshot(s.root)).toEqual(before)
    expect(snapshot(other.root)).toEqual(beforeOther)
    // show refuses them the same way
    const shown = await plait(['show', files.tampered])
    refused(shown, /hash .* does not match|modified/)

    // --noop runs every check and changes nothing
    expect(rNoop.code, show(rNoop)).toBe(0)
    expect(rNoop.stdout).toContain('Apply (noop): 4 would change, 1 stable')
    expect(snapshot(s.root)).toEqual(before)

    // the untouched plan applies
    const good = await plait(['apply', plan, '--root', s.root])
    expect(good.code, show(good)).toBe(0)
    expect(read(s.at('/etc/app/a.conf'))).toBe('new a\n')
    expect(read(s.at('/etc/app/c.conf'))).toBe('new c\n')
    expect(exists(s.at('/etc/app/gone.conf'))).toBe(false)
  })

  it('refuses a stale plan, naming each drifted resource and what drifted, and changes nothing', async () => {
    const { s, plan } = await planned()
    const who = otherAccount()
    // drift after planning: content, mode, a deletion, a creation, and (when possible) an owner
    put(s.at('/etc/app/a.conf'), 'edited by hand\n', 0o644)
    fs.chmodSync(s.at('/etc/app/b.conf'), 0o666)
    fs.rmSync(s.at('/etc/app/gone.conf'))
    put(s.at('/etc/app/c.conf'), 'someone made it\n', 0o644)
    if (who !== undefined) fs.chownSync(s.at('/etc/app/keep.conf'), who.uid, who.gid)
    const before = snapshot(s.root)

    const [r, noop] = await Promise.all([plait(['apply', plan, '--root', s.root]), plait(['apply', plan, '--root', s.root, '--noop'])])
    refused(r, /stale/)
    const err = r.stderr
    const line = (id: string): string => err.split('\n').find((l) => l.includes(id) && /changed since/.test(l)) ?? ''
    expect(line('file#/etc/app/a.conf'), err).toMatch(/was file 0644 root:root 6 bytes .*now file 0644 root:root 15 bytes/)
    expect(line('file#/etc/app/b.conf'), err).toMatch(/was file 0600 .*now file 0666/)
    expect(line('file#/etc/app/gone.conf'), err).toMatch(/was file .*now absent/)
    expect(line('file#/etc/app/c.conf'), err).toMatch(/was absent, now file/)
    if (who !== undefined) expect(line('file#/etc/app/keep.conf'), err).toMatch(new RegExp(`now file 0644 ${who.user}:${who.group}`))
    expect(err).toMatch(new RegExp(`${who === undefined ? 4 : 5} resources changed since it was made`))
    refused(noop, /stale/)

    // nothing changed below the root (apply may have made the state directory /var/lib/plait and its
    // parents, which the seed does not have); the state directory holds no lock or journal
    expect(snapshot(s.root, ['var'])).toEqual(before)
    if (exists(path.join(s.root, stateRel))) expect(fs.readdirSync(path.join(s.root, stateRel))).toEqual([])
  })
})
