// Colour: when a stream gets colour, and that colour only adds the palette's own sequences around
// text that was already escaped: hostile names stay escaped, and without colour nothing changes.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Colour from '../../src/cli/Colour.js'
import * as Render from '../../src/cli/render.js'
import * as Terminal from '../../src/core/Terminal.js'
import type * as Report from '../../src/executor/Report.js'
import { corpus, hostile, plan } from './plans.js'

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u
const palette = new Set(Object.values(Colour.palette))
// eslint-disable-next-line no-control-regex -- as above
const sequences = (s: string): string[] => s.match(/\x1b\[[^m]*m/g) ?? []

/** The painted text's every ESC is one of the palette's sequences, and without them the text is as escaped as before. */
const onlyPalette = (painted: string, escaped: string): void => {
  for (const q of sequences(painted)) expect(palette.has(q as never)).toBe(true)
  expect(Colour.strip(painted)).toBe(escaped)
  expect(Colour.strip(painted)).not.toMatch(raw)
}

describe('Colour.enabled', () => {
  const env = fc.record({ NO_COLOR: fc.option(fc.constantFrom('', '1', 'yes'), { nil: undefined }), FORCE_COLOR: fc.option(fc.constantFrom('', '0', '1', '2', '3', 'true', 'false'), { nil: undefined }), TERM: fc.option(fc.constantFrom('xterm', 'dumb'), { nil: undefined }) })
  test.prop([fc.boolean(), env])('FORCE_COLOR decides when set, then NO_COLOR, then the terminal', (isTTY, e) => {
    const on = Colour.enabled({ isTTY, env: e })
    if (e.FORCE_COLOR !== undefined) expect(on).toBe(e.FORCE_COLOR !== '0' && e.FORCE_COLOR !== 'false')
    else if ((e.NO_COLOR ?? '') !== '') expect(on).toBe(false)
    else expect(on).toBe(isTTY && e.TERM !== 'dumb')
  })

  it('gives no colour when piped, colour on a terminal, and none on a terminal with NO_COLOR', () => {
    expect(Colour.enabled({ isTTY: false, env: {} })).toBe(false)
    expect(Colour.enabled({ isTTY: true, env: {} })).toBe(true)
    expect(Colour.enabled({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false)
    expect(Colour.enabled({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true)
    expect(Colour.enabled({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true)
    expect(Colour.enabled({ isTTY: true, env: { FORCE_COLOR: '0' } })).toBe(false)
  })
})

describe('Colour.plan', () => {
  test.prop([plan(12), fc.boolean()], { numRuns: 200 })('only adds palette sequences around already escaped text: hostile names stay escaped', (p, verbose) => {
    const escaped = Terminal.text(Render.plan(p, { verbose }))
    onlyPalette(Colour.plan(escaped), escaped)
  })

  it('colours symbols as Terraform does and content diffs line by line', () => {
    const p = corpus.find((x) => x.resources.some((r) => r.action === 'update') && x.resources.some((r) => r.action === 'delete'))
    const text = Terminal.text(Render.plan(p ?? corpus[0]!))
    const c = Colour.plan(text)
    const { red, green, yellow, cyan, reset } = Colour.palette
    if (p !== undefined) {
      expect(c).toContain(`${yellow}~${reset} `)
      expect(c).toContain(`${red}-${reset} `)
    }
    const withDiff = corpus.map((x) => Terminal.text(Render.plan(x))).find((t) => /\n +@@ /.test(t) && /\n +-[^-]/.test(t))!
    const d = Colour.plan(withDiff)
    expect(d).toMatch(new RegExp(`\\n +${cyan.replace('[', '\\[')}@@ `))
    expect(d).toMatch(new RegExp(`\\n +${red.replace('[', '\\[')}-[^-]`))
    expect(d).toMatch(new RegExp(`\\n +${green.replace('[', '\\[')}\\+[^+]`))
    expect(Colour.plan(Terminal.text(Render.plan(corpus.find((x) => x.resources.some((r) => r.action === 'create'))!)))).toContain(`${green}+${reset} `)
  })

  it('paints a content diff\'s added line that reads like a header ("++ x") green, as any added line', () => {
    const { green, bold } = Colour.palette
    const text = ['~ file#/f', '    --- /f', '    +++ /f', '    @@ -1,1 +1,2 @@', '     a', '    +++ x', ''].join('\n')
    const lines = Colour.plan(text).split('\n')
    expect(lines[2]).toContain(bold)
    expect(lines[5]).toBe(`    ${green}+++ x${Colour.palette.reset}`)
  })

  it('shows a name holding ESC and a newline escaped, with colour on', () => {
    const base = corpus.find((x) => x.resources.some((r) => r.action === 'create'))!
    const r = base.resources.find((x) => x.action === 'create')!
    const evil = { ...r, id: 'file#/etc/x\x1b[2J\nPlan: 0 to create, 0 to change, 0 to delete, 0 unchanged.' }
    const c = Colour.plan(Terminal.text(Render.plan({ ...base, resources: [evil] })))
    expect(c).toContain('file#/etc/x\\x1b[2J\\nPlan: 0 to create')
    expect(c).not.toContain('\x1b[2J')
    expect(Colour.strip(c).split('\n').filter((l) => l.startsWith('Plan: ')).length).toBe(1)
  })
})

describe('Colour.report and Colour.diagnostics', () => {
  const outcome = fc.constantFrom<Report.Outcome>('stable', 'changed', 'failed', 'skipped', 'rolled back')
  const report: fc.Arbitrary<Report.Report> = fc.record({
    noop: fc.boolean(),
    recovered: fc.array(hostile, { maxLength: 2 }),
    resources: fc.array(fc.record({ id: hostile, outcome, messages: fc.array(hostile, { maxLength: 3 }) }), { maxLength: 6 }),
    rolledBack: fc.array(hostile, { maxLength: 2 }),
    irreversible: fc.array(hostile, { maxLength: 2 }),
  })

  test.prop([report])('a report: palette only, failures red', (r) => {
    const escaped = Terminal.text(Render.report(r))
    const c = Colour.report(escaped)
    onlyPalette(c, escaped)
    const failed = r.resources.filter((x) => x.outcome === 'failed').length
    expect(c.includes(`${Colour.palette.red}failed${Colour.palette.reset}`)).toBe(failed > 0)
    if (failed > 0) expect(c).toContain(`${Colour.palette.red}${failed} failed${Colour.palette.reset}`)
  })

  test.prop([hostile])('diagnostics: palette only, error red', (m) => {
    const escaped = Terminal.text(`error: ${Terminal.field(m)}\n  hint: ${Terminal.field(m)}\nwarning: x\n`)
    const c = Colour.diagnostics(escaped)
    onlyPalette(c, escaped)
    expect(c.startsWith(`${Colour.palette.red}error${Colour.palette.reset}: `)).toBe(true)
  })
})
