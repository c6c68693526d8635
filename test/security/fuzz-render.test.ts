// security: every renderer of human output, fuzzed. Whatever strings a plan, a report, a diagnostic
// or a provider carries, the text drawn from them holds no control character a terminal would
// interpret, never throws, and cannot gain a line: each plan has exactly one summary line.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import * as Render from '../../src/cli/render.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import type * as Plan from '../../src/core/Plan.js'
import * as Terminal from '../../src/core/Terminal.js'
import type * as Report from '../../src/executor/Report.js'
import * as Log from '../../src/interpreters/libral/protocol/Log.js'
import * as LibralRender from '../../src/interpreters/libral/protocol/Render.js'
import { replaced, stringPaths } from '../support/stringPaths.js'

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

/** Strings rich in what terminals interpret: C0, C1, DEL, ESC sequences, bidi controls, newlines. */
const hostile: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('\n', '\r', '\t', '\x1b[2J', '\x1b]0;t\x07', '\x9b1A', '\x7f', '\0', '\u202e', '\u2028', '\u2066', 'Plan: 0 to create, 0 to change, 0 to delete, 0 unchanged.'),
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''))

// Real plans from the golden corpus, every string in them replaceable (tags and kinds kept, so
// the plan keeps its shape and the renderer takes every branch it takes for real plans).
const plans = join(import.meta.dirname, '..', '..', 'plans')
const corpus: ReadonlyArray<unknown> = readdirSync(plans)
  .filter((d) => existsSync(join(plans, d, 'expected.json')))
  .map((d) => JSON.parse(readFileSync(join(plans, d, 'expected.json'), 'utf8')) as unknown)

const structural = new Set(['_tag', 'action', 'encoding', 'kind', 'format', 'type', 'ensure'])


const hostilePlan: fc.Arbitrary<Plan.Plan> = fc
  .constantFrom(...corpus)
  .chain((p) => {
    const paths = stringPaths(p, structural)
    return fc.array(fc.tuple(fc.nat({ max: paths.length - 1 }), hostile), { minLength: 1, maxLength: 30 }).map((edits) => edits.reduce((acc, [i, s]) => replaced(acc, paths[i]!, s), p))
  })
  .map((p) => p as Plan.Plan)

const summaryLines = (text: string): number => text.split('\n').filter((l) => l.startsWith('Plan: ')).length

describe('renderers under hostile strings', () => {
  test.prop([hostilePlan, fc.boolean()], { numRuns: 300 })('a plan: no raw control character, exactly one summary line', (p, verbose) => {
    const text = Render.plan(p, { verbose })
    expect(text).not.toMatch(raw)
    expect(summaryLines(text)).toBe(1)
  })

  const outcome = fc.constantFrom<Report.Outcome>('stable', 'changed', 'failed', 'skipped', 'rolled back')
  const report: fc.Arbitrary<Report.Report> = fc.record({
    noop: fc.boolean(),
    recovered: fc.array(hostile, { maxLength: 3 }),
    resources: fc.array(fc.record({ id: hostile, outcome, messages: fc.array(hostile, { maxLength: 3 }) }), { maxLength: 6 }),
    rolledBack: fc.array(hostile, { maxLength: 3 }),
    irreversible: fc.array(hostile, { maxLength: 3 }),
  })

  test.prop([report])('an apply report: no raw control character, one line per resource and message', (r) => {
    const text = Render.report(r)
    expect(text).not.toMatch(raw)
    expect(text.split('\n').filter((l) => l.startsWith('Apply')).length).toBe(1)
    const lines = r.resources.reduce((n, x) => n + Math.max(1, x.messages.length), 0)
    expect(text.split('\n').length).toBe(lines + (r.rolledBack.length > 0 ? r.rolledBack.length + 2 : 0) + (r.irreversible.length > 0 ? r.irreversible.length + 2 : 0) + 3)
  })

  test.prop([hostile, fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined })])(
    'a diagnostic: one line, two with a hint',
    (message, resource, hint, file) => {
      const d = Diagnostic.make('Validation', message, { resource, hint, at: file === undefined ? undefined : { file, line: 1, col: 2 } })
      for (const text of [Diagnostic.render(d), Diagnostic.renderWarning(d)]) {
        expect(text).not.toMatch(raw)
        expect(text.split('\n').length).toBe(hint === undefined ? 1 : 2)
      }
    },
  )

  test.prop([hostile, hostile, hostile, fc.array(fc.tuple(hostile, hostile), { maxLength: 4 })])('a provider: its stderr, resources and changes', (subject, message, name, attrs) => {
    expect(Log.render(subject, { level: 'warn', message })).not.toContain('\n')
    expect(Log.render(subject, { level: 'warn', message })).not.toMatch(raw)
    const text = LibralRender.resource('t::p', { _tag: 'Present', resource: { name, attrs: Object.fromEntries(attrs) } })
    expect(text).not.toMatch(raw)
    expect(text.split('\n').length).toBe(new Set(attrs.map(([k]) => k)).size + 3)
    for (const [attr, v] of attrs) expect(LibralRender.change({ attr, was: v, is: v })).not.toContain('\n')
  })
})

describe('Terminal', () => {
  test.prop([hostile])('field: nothing interpreted, no newline, unchanged when already safe', (s) => {
    const f = Terminal.field(s)
    expect(f).not.toMatch(raw)
    expect(f).not.toContain('\n')
    expect(Terminal.field(f)).toBe(f)
  })

  test.prop([hostile])('text: keeps every newline and changes nothing else that is safe', (s) => {
    const t = Terminal.text(s)
    expect(t).not.toMatch(raw)
    expect(t.split('\n').length).toBe(s.split('\n').length)
    expect(Terminal.isSafeText(t)).toBe(true)
  })

  test.prop([fc.jsonValue(), hostile])('json: the same value, nothing interpreted', (v, s) => {
    const value = { v, s }
    const text = Terminal.json(JSON.stringify(value, null, 2))
    expect(text).not.toMatch(raw)
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
  })
})
