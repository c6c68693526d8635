// support: policies for the policy tests, written as their YAML files are, and parsed by the real
// parser (a test that needs a policy goes through PolicyFile, as the command does).
import { fc } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import type * as Policy from '../../src/policy/Policy.js'
import * as PolicyFile from '../../src/policy/PolicyFile.js'

/** A rule's YAML lines below its `- name:` line (indented by four spaces). */
export type Body = ReadonlyArray<string>

/** Tests of every shape: over a list (any/all/each), of the whole plan, with `when`, templated messages. */
export const bodies: ReadonlyArray<Body> = [
  ['deny: any(resources, {.action == "delete"})', 'message: "{{ item.id }} is deleted"'],
  ['deny: any(resources, {.type == "package"})', 'message: "package {{ item.name }}"'],
  ['assert: all(resources, {len(.steps) < 2})', 'message: "{{ item.id }} has {{ len(item.steps) }} steps"'],
  ['assert: summary.create < 3', 'message: "{{ summary.create }} creates"'],
  ['each: steps', 'deny: .destructive', 'message: "{{ item.tag }}: {{ item.reason }}"'],
  ['each: resources', 'deny: "#index % 2 == 0 && .action != \\"none\\""', 'message: "even {{ item.id }}"'],
  ['deny: count(resources, {.action != "none"}) > 2', 'message: "{{ summary.changes }} changes"'],
  ['when: summary.changes > 0', 'deny: any(steps, {.verb in ["remove", "delete", "stop"]})', 'message: "stops or removes: {{ item.resource }}"'],
  ['deny: none(resources, {.type == "file"})', 'message: no file'],
  ['each: filter(resources, {.type == "file"})', 'assert: .properties.mode == nil || .properties.mode in ["0644", "0600", "0755"]', 'message: "mode of {{ item.name }}"'],
]

/** A policy file's text from its rules. */
export const policyText = (rules: ReadonlyArray<{ readonly name: string; readonly level: Policy.Level; readonly body: Body }>): string =>
  'rules:\n' + rules.map((r) => [`  - name: ${r.name}`, `    level: ${r.level}`, ...r.body.map((l) => `    ${l}`)].join('\n')).join('\n') + '\n'

/** Parses a policy text, or throws with its problems. */
export const policy = (text: string, file = 'policy.yaml'): Policy.Policy => {
  const p = PolicyFile.parse(file, text)
  if (E.isLeft(p)) throw new Error(p.left.map((d) => `${d.at?.line}:${d.at?.col}: ${d.message}`).join('\n'))
  return p.right
}

export const level: fc.Arbitrary<Policy.Level> = fc.constantFrom('advisory', 'soft', 'hard')

/** Policies of one to six rules drawn from `bodies`, with any levels. */
export const policies: fc.Arbitrary<Policy.Policy> = fc
  .array(fc.tuple(fc.nat({ max: bodies.length - 1 }), level), { minLength: 1, maxLength: 6 })
  .map((rs) => policy(policyText(rs.map(([b, l], i) => ({ name: `rule-${i}`, level: l, body: bodies[b]! })))))
