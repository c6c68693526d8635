// Output, Input and Shebang: how a plugin task's parameters go in, how it is started, and what its
// run means: a JSON object with `value`; `_error` and non-zero exits as Bolt words them; anything
// else a protocol violation.
import * as E from 'fp-ts/lib/Either.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Input from '../../../../src/interpreters/bolt/protocol/Input.js'
import * as Output from '../../../../src/interpreters/bolt/protocol/Output.js'
import * as Shebang from '../../../../src/interpreters/bolt/protocol/Shebang.js'

const origin = { plugin: 'vault', hook: 'resolve_reference' }
const ended = (stdout: string, ...[exitCode, stderr, signal]: [number?, string?, string?]): Output.Ended => ({ stdout, stderr: stderr ?? '', ...(signal !== undefined ? { signal } : { exitCode: exitCode ?? 0 }) })
const prefix = 'Error executing plugin vault from resolve_reference in vault: '

describe('plugin output', () => {
  test.prop([fc.string().map((x) => `Qx7-${x}`), fc.integer({ min: 1, max: 255 })])('never quotes what a secret plugin printed, whatever went wrong', (secret, code) => {
    const secretOrigin = { ...origin, secret: true }
    const runs = [ended(secret), ended(JSON.stringify({ other: secret })), ended(`{"value": "${secret}"`, 0), ended('', code, secret), ended(JSON.stringify({ _error: 7, v: secret }))]
    for (const r of runs) {
      const read = Output.read(secretOrigin, r, true)
      expect(E.isLeft(read) && read.left.message.includes('Qx7')).toBe(false)
    }
  })

  it('gives the result object of a run that printed one with a value', () => {
    expect(Output.read(origin, ended('{"value": [1, {"a": null}]}\n'), true)).toEqual(E.right({ value: [1, { a: null }] }))
    expect(Output.read(origin, ended('{}'), false)).toEqual(E.right({}))
  })

  it('words an _error as Bolt does, its msg only (never its kind or details), whatever the exit', () => {
    const backtrace = Array.from({ length: 60 }, (_, i) => `/opt/modules/pkcs7/tasks/secret_decrypt.rb:${i}:in 'decrypt'`)
    const err = JSON.stringify({ _error: { msg: 'no such secret', kind: 'vault/not-found', details: { path: 'x', backtrace } } })
    const want = E.left({ _tag: 'Reported', message: `${prefix}no such secret` })
    expect(Output.read(origin, ended(err), true)).toEqual(want)
    expect(Output.read(origin, ended(err, 1), true)).toEqual(want)
    expect(Output.read(origin, ended('{"_error": {"msg": "bare", "details": {}}}'), true)).toEqual(E.left({ _tag: 'Reported', message: `${prefix}bare` }))
  })

  it('reports a non-zero exit or a signal, with what it wrote on stderr', () => {
    expect(Output.read(origin, ended('', 3, 'boom\n'), true)).toEqual(E.left({ _tag: 'Reported', message: `${prefix}The task failed with exit code 3: boom` }))
    expect(Output.read(origin, ended('{"value": 1}', undefined, '', 'SIGKILL'), true)).toEqual(E.left({ _tag: 'Reported', message: `${prefix}The task failed with signal SIGKILL` }))
  })

  it('refuses output that is not a JSON object, a missing value, and a malformed _error', () => {
    expect(Output.read(origin, ended('hello'), true)).toEqual(E.left({ _tag: 'ProtocolViolation', message: `${prefix}it printed hello, which is not a JSON object; a plugin prints one such as {"value": ...}` }))
    expect(Output.read(origin, ended('[1]'), true)).toMatchObject(E.left({ _tag: 'ProtocolViolation' }))
    expect(Output.read(origin, ended(''), true)).toEqual(E.left({ _tag: 'ProtocolViolation', message: `${prefix}it printed nothing; a plugin prints a JSON object such as {"value": ...}` }))
    expect(Output.read(origin, ended('{"values": 1}'), true)).toEqual(E.left({ _tag: 'ProtocolViolation', message: `${prefix}Plugin vault result did not include a value, got {"values":1}` }))
    expect(Output.read(origin, ended('{"_error": "bad"}'), true)).toEqual(E.left({ _tag: 'ProtocolViolation', message: `${prefix}its _error must be an object with a string msg, got "bad"` }))
  })

  it('quotes at most its limit of what a plugin printed', () => {
    const r = Output.read(origin, ended('x'.repeat(Output.quoteLimit + 10)), true)
    expect(E.isLeft(r) && r.left.message).toMatch(/x\.\.\. \(10 more characters\)/)
  })

  test.prop([fc.string(), fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }), fc.string(), fc.boolean()])('never throws, and gives a value only for exit 0 and a JSON object without _error (law)', (stdout, code, stderr, need) => {
    const r = Output.read(origin, ended(stdout, code, stderr, code === undefined ? 'SIGTERM' : undefined), need)
    if (E.isRight(r)) {
      expect(code).toBe(0)
      expect(r.right['_error']).toBeUndefined()
      if (need) expect('value' in r.right).toBe(true)
    } else expect(r.left.message.startsWith(prefix)).toBe(true)
  })
})

describe('plugin input', () => {
  const params = { var: 'HOME', n: 2, list: ['a'], none: null, _task: 'm::t' }

  it('gives every parameter as one JSON object on stdin, and none in the environment, for stdin', () => {
    expect(Input.make('m::t', 'stdin', params)).toEqual(E.right({ env: {}, stdin: JSON.stringify(params) }))
  })

  it('gives PT_ variables, strings as they are and the rest as JSON, for environment', () => {
    expect(Input.make('m::t', 'environment', params)).toEqual(E.right({ env: { PT_var: 'HOME', PT_n: '2', PT_list: '["a"]', PT_none: 'null', PT__task: 'm::t' }, stdin: '' }))
  })

  it('gives both for both', () => {
    const r = Input.make('m::t', 'both', params)
    expect(E.isRight(r) && [r.right.stdin, r.right.env['PT_n']]).toEqual([JSON.stringify(params), '2'])
  })

  it('refuses powershell input clearly', () => {
    expect(Input.make('m::t', 'powershell', params)).toEqual(E.left("task m::t uses the powershell input method, which plait cannot give on this controller (it needs PowerShell's named arguments); use stdin, environment or both"))
  })
})

describe('interpreter lines', () => {
  it('reads the interpreter and its one argument, as Linux does', () => {
    expect(Shebang.parse('m::t', '#!/bin/sh\necho')).toEqual(E.right({ interpreter: '/bin/sh' }))
    expect(Shebang.parse('m::t', '#! /usr/bin/env python3 -u\r\n')).toEqual(E.right({ interpreter: '/usr/bin/env', arg: 'python3 -u' }))
  })

  it.each([
    ['echo hi', /has no interpreter line/],
    ['#!\n', /names no interpreter/],
    ['#!python3\n', /"python3" is not an absolute path/],
    [`#!/bin/${'x'.repeat(300)}`, /longer than 256/],
  ])('refuses %j', (head, why) => {
    const r = Shebang.parse('m::t', head)
    expect(E.isLeft(r) && r.left).toMatch(why)
  })
})
