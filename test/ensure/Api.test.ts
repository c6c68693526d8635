import { readFileSync } from 'node:fs'
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Depth from '../../src/core/Depth.js'
import * as Api from '../../src/ensure/Api.js'
import * as Health from '../../src/types/Health.js'
import { checkRequest, checkResponse } from './schema.js'

const types = ['file', 'exec', 'service', 'package']
const examples = JSON.parse(readFileSync(new URL('../../../shared/compat/ccm/api-request-examples.json', import.meta.url), 'utf8')) as Record<string, unknown>

describe('Api', () => {
  it("decodes CCM's example requests (valid by CCM's request schema) as their resource", () => {
    for (const k of ['package_request', 'control_request']) {
      expect(checkRequest(examples[k])).toEqual([])
      const r = Api.decode(JSON.stringify(examples[k]), types)
      expect(E.isRight(r)).toBe(true)
    }
    expect(Api.decode(JSON.stringify(examples['package_request']), types)).toEqual(E.right({ resource: { type: 'package', name: 'nginx', properties: { ensure: 'present' } }, require: [], subscribe: [] }))
  })

  it('decodes YAML as JSON, and keeps require and subscribe apart from the properties', () => {
    const yaml = 'protocol: io.choria.ccm.v1.resource.ensure.request\ntype: service\nproperties:\n  name: nginx\n  ensure: running\n  subscribe: [file#/etc/nginx.conf]\n'
    expect(Api.decode(yaml, types)).toEqual(E.right({ resource: { type: 'service', name: 'nginx', properties: { ensure: 'running' } }, require: [], subscribe: ['file#/etc/nginx.conf'] }))
  })

  it("answers CCM's error example for a wrong protocol, and names every other problem", () => {
    const wrong = Api.decode('{"protocol":"wrong.protocol","type":"package","properties":{"name":"x"}}', types)
    expect(wrong).toEqual(E.left('invalid protocol "wrong.protocol"'))
    expect(Api.failure(E.isLeft(wrong) ? wrong.left : '')).toEqual(examples['error_response'])
    const p = 'io.choria.ccm.v1.resource.ensure.request'
    expect(Api.decode(`{"protocol":"${p}","type":"package","properties":{"name":"x"},"extra":1}`, types)).toEqual(E.left('unknown request field "extra"; a request has protocol, type and properties'))
    expect(Api.decode(`{"protocol":"${p}","type":7,"properties":{"name":"x"}}`, types)).toEqual(E.left('type must be a text, the resource type'))
    expect(Api.decode(`{"protocol":"${p}","type":"package","properties":[]}`, types)).toEqual(E.left('properties must be an object with the resource name and its properties'))
    expect(Api.decode(`{"protocol":"${p}","type":"service","properties":{"name":"x","require":["nope"]}}`, types)).toEqual(E.left('properties.require: "nope" is not TYPE#NAME'))
    expect(Api.decode('a: [', types)).toMatchObject({ left: expect.stringContaining('not JSON or YAML') })
    // a key given twice (JSON allows it, the last winning): refused rather than one of them taken
    expect(Api.decode(`{"protocol":"${p}","type":"package","type":"service","properties":{"name":"x"}}`, types)).toEqual(E.left('the request is not JSON or YAML: Map keys must be unique'))
    expect(Api.decode('x'.repeat(Api.maxBytes + 1), types)).toEqual(E.left(`the request is larger than ${Api.maxBytes} bytes`))
    // nested past what data may nest, or so deep that the YAML library's own recursion overflows: said so, not in the engine's words
    for (const depth of [201, 100_000]) {
      const deep = `{"protocol":"${p}","type":"package","properties":{"name":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}}`
      expect(Api.decode(deep, types)).toEqual(E.left('the request nests deeper than 200 levels'))
    }
  })

  fcTest.prop([fc.array(fc.string({ maxLength: 20 }), { maxLength: 60 })])('names the first problems of a failed request and counts the rest', (problems) => {
    const r = Api.failures(problems)
    const error = 'error' in r ? r.error : ''
    if (problems.length <= Api.maxProblems) expect(error).toBe(problems.join('; '))
    else expect(error).toBe([...problems.slice(0, Api.maxProblems), `(and ${problems.length - Api.maxProblems} more)`].join('; '))
  })

  fcTest.prop([fc.string({ maxLength: 200 })])('never throws on any text: it decodes or says why not', (text) => {
    const r = Api.decode(text, types)
    expect(E.isLeft(r) ? typeof r.left : 'right').toMatch(/string|right/)
  })

  fcTest.prop([fc.boolean(), fc.boolean(), fc.nat(), fc.constantFrom(...types)])("makes responses that satisfy CCM's response schema", (changed, noop, duration, type) => {
    const state: Api.Event = { protocol: Api.eventProtocol, event_id: 'x', timestamp: '2026-01-28T10:30:00Z', type, provider: 'posix', name: 'n', requested_ensure: 'present', final_ensure: 'present', duration, changed, failed: false, noop }
    expect(checkResponse(JSON.parse(Api.encode(Api.success(state))))).toEqual([])
    expect(checkResponse(Api.failure('no'))).toEqual([])
  })

  it("holds CCM's own examples to the same schema check (the check can fail)", () => {
    // CCM's documented success example leaves out `noop`, which its schema requires; plait always sends it.
    expect(checkResponse(examples['success_response'])).toEqual(['$.state: missing noop'])
    expect(checkResponse({ ...(examples['success_response'] as object), state: { ...(examples['success_response'] as { state: object }).state, noop: false } })).toEqual([])
    expect(checkResponse(examples['error_response'])).toEqual([])
    expect(checkResponse({ protocol: Api.responseProtocol })).not.toEqual([])
    expect(checkResponse({ protocol: Api.responseProtocol, error: 'x', state: {} })).not.toEqual([])
  })

  const done = (over: Partial<Api.Done>): Api.Done => ({ resource: { type: 'file', name: '/etc/motd', properties: { ensure: 'present' } }, id: 'file#/etc/motd', outcome: 'changed', messages: ['file does not exist'], noop: false, durationNs: 5, eventId: 'e', timestamp: '2026-11-25T10:00:00Z', ...over })

  fcTest.prop([fc.constantFrom<Api.Done['outcome']>('changed', 'stable', 'failed', 'skipped'), fc.boolean(), fc.constantFrom(undefined, 'create', 'update'), fc.constantFrom(...types)])(
    "makes an event of every outcome that CCM's response schema accepts",
    (outcome, noop, action, type) => {
      const e = Api.event(done({ outcome, noop, ...(action !== undefined ? { action } : {}), resource: { type, name: 'n', properties: {} }, id: `${type}#n` }))
      expect(checkResponse(Api.success(e))).toEqual([])
      expect(e.changed).toBe(outcome === 'changed')
      expect(e.failed).toBe(outcome === 'failed')
    },
  )

  const resultArb: fc.Arbitrary<Health.Result> = fc.record({
    name: fc.constantFrom('http', 'disk', 'ping'),
    status: fc.constantFrom<Health.Status>('OK', 'WARNING', 'CRITICAL', 'UNKNOWN'),
    message: fc.constantFrom('', 'HTTP OK: 200', 'connection refused'),
    tries: fc.integer({ min: 1, max: 5 }),
  })

  fcTest.prop([fc.array(resultArb, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.constantFrom('file does not exist', 'Would have created the file')])(
    "puts health check results in health_check, as CCM's schema says, and none of them in error or noop_message",
    (results, noop, step) => {
      const bad = results.filter((r) => r.status !== 'OK')
      // What the executor reports: the results that are not OK joined as the failure, each OK result as a line.
      const messages = [...(bad.length > 0 ? [bad.map(Health.render).join('; ')] : []), step, ...results.filter((r) => r.status === 'OK').map(Health.render)]
      const e = Api.event(done({ outcome: bad.length > 0 ? 'failed' : 'changed', noop, messages, health: results }))
      expect(checkResponse(Api.success(e))).toEqual([])
      expect(e.health_check).toEqual(results.map((r) => ({ status: r.status.toLowerCase(), tries: r.tries, output: r.message })))
      const said = [...(e.error ?? []), e.noop_message ?? '']
      for (const r of results) expect(said).not.toContain(Health.render(r))
      if (bad.length > 0) expect(e.error).toEqual([`health check ${bad.map((r) => `${r.name} is ${r.status}`).join(', ')} (see health_check)`, step])
      else expect(e.error).toBeUndefined()
      if (noop && bad.length === 0) expect(e.noop_message).toBe(step)
    },
  )

  it('leaves health_check out when the resource has no health checks, or they did not run', () => {
    expect(Api.event(done({})).health_check).toBeUndefined()
    expect(Api.event(done({ health: [] })).health_check).toBeUndefined()
    expect(Api.withoutHealth(['a', 'b'], [])).toEqual(['a', 'b'])
  })

  it('says the ensure asked for is final when it was met, and what the plan found when it was not', () => {
    expect(Api.event(done({})).final_ensure).toBe('present')
    expect(Api.event(done({ noop: true, action: 'create' }))).toMatchObject({ final_ensure: 'absent', noop_message: 'file does not exist', changed: true, noop: true })
    expect(Api.event(done({ outcome: 'failed', messages: ['no space'] }))).toMatchObject({ final_ensure: 'unknown', error: ['no space'], failed: true })
    expect(Api.event(done({ outcome: 'skipped', messages: ['unmet requirement: package#x failed'] })).unmet_requirements).toEqual(['unmet requirement: package#x failed'])
    expect(Api.event(done({ resource: { type: 'service', name: 'web', properties: {} }, id: 'service#web' }))).toMatchObject({ requested_ensure: 'running', provider: 'systemd', name: 'web' })
    expect(Api.event(done({ resource: { type: 'package', name: 'zsh', properties: {} }, id: 'package#zsh', provider: 'dnf' })).provider).toBe('dnf')
  })
})

describe('Api.flowDeeperThan', () => {
  /** JSON values whose strings hold brackets, quotes, escapes and hashes: what the pass must skip. */
  const tricky = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', "'", '\\', '#', ' ', 'a', '\n'), maxLength: 8 })
  const value = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(tricky, tie('v'), { maxKeys: 3 })),
  })).v

  fcTest.prop([value, fc.integer({ min: 0, max: 6 }), fc.boolean()])('says of a JSON text, compact or spaced, what the depth of its value says', (v, most, spaced) => {
    const text = JSON.stringify(v, null, spaced ? 2 : undefined)
    const flow = text.trimStart()[0] === '[' || text.trimStart()[0] === '{'
    expect(Api.flowDeeperThan(text, most)).toBe(flow && Depth.deeperThan(v, most))
  })

  it('refuses a request of 2,000,000 brackets at once, before any parse', () => {
    expect(Api.decode('['.repeat(2_000_000) + ']'.repeat(2_000_000), ['file'])).toEqual(E.left(`the request nests deeper than ${Depth.maxData} levels`))
    expect(Api.flowDeeperThan(`{a: it's, b: "[[[[", c: '[[''[[' # [[[[\n}`, 1)).toBe(false)
    expect(Api.flowDeeperThan(JSON.stringify({ a: '"[[[[[[', b: '\\' }), 2)).toBe(false)
    expect(Api.flowDeeperThan(JSON.stringify([[['"\\']]]), 2)).toBe(true)
  })
})
