// PolicyFile: a policy's YAML read into rules, and every malformed one refused with its problems
// at file:line:col (inside an expression's text where the expression is at fault).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Engine from '../../src/policy/Engine.js'
import * as PolicyFile from '../../src/policy/PolicyFile.js'
import { corpus } from '../cli/plans.js'
import { policy } from './support.js'

const problems = (text: string): ReadonlyArray<string> => {
  const r = PolicyFile.parse('p.yaml', text)
  if (E.isRight(r)) throw new Error('the policy was accepted')
  return r.left.map((d) => `${d.at?.file}:${d.at?.line}:${d.at?.col}: ${d.message}`)
}

describe('PolicyFile.parse', () => {
  it('reads rules with their levels, messages, tests and positions', () => {
    const p = policy(
      [
        'rules:',
        '  - name: no-delete',
        '    level: hard',
        '    message: "{{ item.id }}"',
        '    deny: any(resources, {.action == "delete"})',
        '  - name: small',
        '    level: soft',
        '    description: keeps reviews small',
        '    message: too big',
        '    when: summary.changes > 0',
        '    assert: summary.changes < 10',
        '  - name: steps',
        '    level: advisory',
        '    message: m',
        '    each: steps',
        '    deny: .destructive',
      ].join('\n'),
    )
    expect(p.rules.map((r) => [r.name, r.level, r.test._tag, r.test.each?.source ?? null, r.when?.source ?? null, r.at.line])).toEqual([
      ['no-delete', 'hard', 'Deny', null, null, 2],
      ['small', 'soft', 'Assert', null, 'summary.changes > 0', 6],
      ['steps', 'advisory', 'Deny', 'steps', null, 12],
    ])
  })

  it('reads a plain YAML boolean or number as the expression it spells', () => {
    const p = policy('rules:\n  - name: 2024\n    level: advisory\n    message: 7\n    deny: true\n')
    expect(p.rules.map((r) => [r.name, r.message, r.test.expression.source])).toEqual([['2024', '7', 'true']])
  })

  it.each([
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny:\n', ['p.yaml:5:10: `deny` must be a non-empty string']],
    ['rules: 3\n', ['p.yaml:1:8: `rules` must be a list of rules']],
    ['{}\n', ['p.yaml:1:1: a policy file needs a `rules` list']],
    ['- a\n', ['p.yaml:1:1: a policy file is a map with a `rules` list']],
    ['rules: []\nextra: 1\n', ['p.yaml:2:1: unknown key "extra" (a policy file has only `rules`)']],
    ['rules:\n  - 3\n', ['p.yaml:2:5: a rule is a map with name, level, message and deny or assert']],
    [
      'rules:\n  - name: a b\n    level: severe\n    message: m\n    deny: "true"\n',
      ['p.yaml:2:11: rule name "a b": use letters, digits, ".", "_" and "-" (at most 100, starting with a letter or digit)', 'p.yaml:3:12: level "severe": expected advisory, soft or hard'],
    ],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n', ['p.yaml:2:5: a rule needs exactly one of `deny` (a finding when it holds) and `assert` (a finding when it does not)']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: "true"\n    assert: "true"\n', ['p.yaml:2:5: a rule needs exactly one of `deny` (a finding when it holds) and `assert` (a finding when it does not)']],
    ['rules:\n  - name: a\n    deny: "true"\n', ['p.yaml:2:5: a rule needs a `level`: advisory, soft or hard', 'p.yaml:2:5: a rule needs a `message`']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: "true"\n    severity: 1\n', ['p.yaml:6:5: unknown key "severity" in a rule (expected one of name, level, message, deny, assert, each, when, description)']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: summary.x +\n', ['p.yaml:5:21: unexpected token EOF']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: Facts.x == 1\n', ['p.yaml:5:11: unknown name Facts']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: ".type == 1"\n', ['p.yaml:5:12: cannot use pointer accessor outside predicate']],
    ['rules:\n  - name: a\n    level: hard\n    message: "{{ item. }}"\n    deny: "true"\n', ['p.yaml:4:23: message: unexpected end of expression (in "{{ item. }}", column 9)']],
    ['rules:\n  - name: a\n    level: hard\n    message: m\n    deny: "true"\n  - name: a\n    level: soft\n    message: m\n    deny: "true"\n', ['p.yaml:6:5: duplicate rule name "a" (also at p.yaml:2:5)']],
    ['rules:\n  - name: a\n   level: x\n', [expect.stringMatching(/^p\.yaml:3:\d+: /)]],
  ])('refuses %j', (text, want) => {
    expect(problems(text)).toEqual(want)
  })

  test.prop([fc.string({ maxLength: 200 })])('never throws: any text is a policy or problems with positions in the file', (text) => {
    const r = PolicyFile.parse('p.yaml', `rules:\n  - name: a\n    level: hard\n    message: m\n    deny: ${JSON.stringify(text)}\n`)
    if (E.isLeft(r)) for (const d of r.left) expect(d.at?.line).toBeGreaterThanOrEqual(1)
  })
})

describe('docs/policy.md', () => {
  const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'policy.md'), 'utf8')
  const examples = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!)

  it('has policy examples, each a valid policy that evaluates on every plan of the corpus', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2)
    for (const text of examples) {
      const p = policy(text, 'docs.yaml')
      for (const plan of corpus) expect(Engine.check(p, plan).errors).toEqual([])
    }
  })
})
