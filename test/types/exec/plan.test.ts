// The exec decision table, as examples and as a property over generated guard outcomes.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { compile } from '../../../src/compiler/compile.js'
import * as Diagnostic from '../../../src/core/Diagnostic.js'
import * as ExecPlan from '../../../src/types/exec/plan.js'
import type { ExecSpec } from '../../../src/types/exec/Spec.js'
import * as Spec from '../../../src/types/exec/Spec.js'

const spec = (over: Partial<ExecSpec> = {}): ExecSpec => ({
  _tag: 'exec',
  id: 'exec#x',
  name: 'x',
  at: { file: 'm.yaml', line: 1, col: 1 },
  provider: 'posix',
  command: '/bin/true',
  environment: [],
  returns: [0],
  timeoutMs: 1000,
  refreshOnly: false,
  logoutput: false,
  ...over,
})

describe('exec decision table', () => {
  it.each([
    [{}, {}, 'Run', 'no creates or guards: it runs every time'],
    [{ creates: '/x' }, { creates: true }, 'Skip', 'creates /x exists'],
    [{ creates: '/x' }, { creates: false }, 'Run', 'creates /x does not exist'],
    [{ onlyif: 'test -f /a' }, { onlyif: false }, 'Skip', 'onlyif guard exited non-zero'],
    [{ onlyif: 'test -f /a' }, { onlyif: true }, 'Run', 'onlyif passed'],
    [{ unless: 'test -f /a' }, { unless: true }, 'Skip', 'unless guard exited 0'],
    [{ unless: 'test -f /a' }, { unless: false }, 'Run', 'unless guard exited non-zero'],
    [{ refreshOnly: true }, {}, 'Skip', 'refresh_only, and no subscribed resource changes'],
    [{ creates: '/x', onlyif: 'a', refreshOnly: true }, { creates: true }, 'Skip', 'creates /x exists'],
  ] as const)('%j with %j: %s (%s)', (over, status, tag, reason) => {
    expect(ExecPlan.decide(spec(over), status)).toEqual({ _tag: tag, reason })
  })

  it('plans a run with the step apply needs, and a skip with none', () => {
    const p = ExecPlan.plan(spec({ provider: 'shell', command: 'echo a | wc -l', cwd: '/srv', onlyif: 'true' }), { onlyif: true })
    expect(p.action).toBe('run')
    expect(p.steps[0]).toMatchObject({ _tag: 'exec.run', line: 'echo a | wc -l', command: { argv: ['/bin/sh', '-c', 'echo a | wc -l'], cwd: '/srv' }, guards: { onlyif: { argv: ['/bin/sh', '-c', 'true'] } }, noop: 'Would have executed' })
    expect(ExecPlan.plan(spec({ creates: '/x' }), { creates: true })).toMatchObject({ action: 'none', steps: [], observed: { summary: 'skipped: creates /x exists' } })
  })

  const guardsArb = fc.record({ creates: fc.boolean(), onlyif: fc.boolean(), unless: fc.boolean(), refreshOnly: fc.boolean() })
  const outcomesArb = fc.record({ creates: fc.boolean(), onlyif: fc.boolean(), unless: fc.boolean() })
  fcTest.prop([guardsArb, outcomesArb])('runs exactly when no present guard says skip and it is not refresh_only', (has, out) => {
    const s = spec({ ...(has.creates ? { creates: '/x' } : {}), ...(has.onlyif ? { onlyif: 'a' } : {}), ...(has.unless ? { unless: 'b' } : {}), refreshOnly: has.refreshOnly })
    const expected = !(has.creates && out.creates) && !(has.onlyif && !out.onlyif) && !(has.unless && out.unless) && !has.refreshOnly
    expect(ExecPlan.decide(s, out)._tag).toBe(expected ? 'Run' : 'Skip')
    // What apply asks again at the step's turn agrees with the plan on the same answers.
    if (expected) expect(ExecPlan.skipReason(ExecPlan.guardsOf(s), out)).toBeUndefined()
  })

  it('checks exits against returns', () => {
    expect(ExecPlan.checkExit([0], 0, undefined)).toBeUndefined()
    expect(ExecPlan.checkExit([0, 2], 2, undefined)).toBeUndefined()
    expect(ExecPlan.checkExit([0], 1, undefined)).toBe('exit code 1 is not one of the accepted returns [0]')
    expect(ExecPlan.checkExit([0], undefined, 'SIGKILL')).toBe('it was ended by signal SIGKILL')
  })
})

describe('exec validation table', () => {
  const errors = (props: string, name = 'x') => {
    const r = compile('m.yaml', `ccm:\n  resources:\n    - exec:\n        - ${name}:\n${props.replace(/^/gm, '            ')}\n`, '/srv')
    return E.isLeft(r) ? r.left.map(Diagnostic.render).join('\n') : ''
  }
  it.each([
    ['command: "echo \'open"', /command cannot be run: Unterminated single-quoted string/],
    ['timeout: soon', /timeout "soon" is not a positive duration/],
    ['timeout: 0s', /timeout "0s" is not a positive duration/],
    ['path: "/bin:usr/bin"', /path must be absolute directories separated by ':'; "usr\/bin" is not absolute/],
    ['environment: [FOO]', /environment entry "FOO" must be KEY=VALUE/],
    ['environment: ["=x"]', /environment entry "=x" must be KEY=VALUE/],
    ['environment: ["K="]', /environment entry "K=" must be KEY=VALUE/],
    ['returns: [0, "x"]', /returns must be a list of exit codes/],
    ['returns: [256]', /returns must be a list of exit codes/],
    ['cwd: tmp', /cwd must be an absolute, clean path: "tmp"/],
    ['creates: /a/../b', /creates must be an absolute, clean path/],
    ['onlyif: ""', /onlyif guard cannot be run: empty guard command/],
    ['unless: "a \'b"', /unless guard cannot be run: Unterminated single-quoted string/],
    ['provider: bash', /unknown exec provider "bash"/],
    ['refresh_only: "yes"', /refresh_only must be a boolean/],
    ['refreshonly: true\nrefresh_only: true', /refresh_only is given twice/],
    ['colour: red', /unknown property "colour" for an exec resource/],
    ['subscribe: [file#/x]', /subscribe: no resource file#\/x in this manifest/],
    ['register_when_stable: []', /"register_when_stable" is not supported by this version of plait yet/],
  ])('%s', (props, message) => {
    expect(errors(props)).toMatch(message)
  })
  it('takes the name as the command, and checks it like one', () => {
    expect(errors('logoutput: true', '"echo \'x"')).toMatch(/the name, used as the command, cannot be run: Unterminated single-quoted string/)
    expect(errors('provider: shell\nlogoutput: true', '"echo \'x"')).toMatch(/the name, used as the command, cannot be run: Unterminated single-quoted string/)
  })
  it.each([
    ['command: "echo \'open | cat"', /command cannot be run: Unterminated single-quoted string/],
    ['command: \'echo "open\'', /command cannot be run: Unterminated double-quoted string/],
    ['command: "echo x \\\\"', /command cannot be run: Unterminated backslash-escape/],
    ['command: "  "', /command cannot be run: no command to execute/],
    ['unless: "grep \'x /etc/y"', /unless guard cannot be run: Unterminated single-quoted string/],
    ['onlyif: " "', /onlyif guard cannot be run: empty guard command/],
  ])('checks the quoting of a shell command as CCM does: %s', (props, message) => {
    expect(errors(`provider: shell\n${props}`)).toMatch(message)
  })
  it('takes a shell command whose quotes balance, with the shell syntax the posix provider refuses', () => {
    expect(errors('provider: shell\ncommand: "cat /tmp/in | grep -v \'^#\' > /tmp/out && echo \\"done\\""')).toBe('')
  })
  it('takes ensure present or absent, as CCM\'s schema does, and plans the command alike either way (CCM\'s exec never reads it)', () => {
    const catalog = (props: string) => {
      const r = compile('m.yaml', `ccm:\n  resources:\n    - exec:\n        - /bin/true:\n${props.replace(/^/gm, '            ')}\n`, '/srv')
      if (E.isLeft(r)) throw new Error(r.left.map(Diagnostic.render).join('\n'))
      return r.right.resources
    }
    const plain = catalog('creates: /x')
    expect(catalog('ensure: present\ncreates: /x')).toEqual(plain)
    expect(catalog('ensure: absent\ncreates: /x')).toEqual(plain)
  })
  it.each([
    ['ensure: running', /ensure must be one of present, absent; got "running"/],
    ['ensure: [present]', /ensure: expected a string, found a list/],
  ])('refuses %s', (props, message) => {
    expect(errors(props)).toMatch(message)
  })
  it('says "no command specified" for an empty posix command', () => {
    expect(errors('command: "  "')).toMatch(/command cannot be run: no command specified/)
  })
  it('parses Go durations', () => {
    expect(Spec.parseDuration('1h30m')).toBe(5_400_000)
    expect(Spec.parseDuration('1.5s')).toBe(1500)
    expect(Spec.parseDuration('250ms')).toBe(250)
    expect(Spec.parseDuration('5')).toBeUndefined()
    expect(Spec.parseDuration('-1s')).toBeUndefined()
  })
})
