// The Holo host an apply's holo families share (src/interpreters/holoSteps/shared.ts), over hosts
// of the scripted double that record when they are opened, locked, released and closed: one host
// until something else runs, its run lock taken once and released before it closes, and every
// host closed once when the run ends, whatever the order of what the run asks.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Fault from '../../src/core/Fault.js'
import type * as Host from '../../src/interpreters/holo/Host.js'
import * as Memory from '../../src/interpreters/holo/memory.js'
import * as Shared from '../../src/interpreters/holoSteps/shared.js'
import * as Steps from '../../src/interpreters/holoSteps/steps.js'
import * as Step from '../../src/types/holo/Step.js'
import * as Entity from '../../src/interpreters/holo/protocol/Entity.js'

/** An opener of numbered memory hosts whose lifecycle is logged (`open 1`, `lock 1`, `release 1`, `close 1`); `failing` opens fail. */
const opener = (failing: ReadonlySet<number> = new Set()) => {
  const log: string[] = []
  let n = 0
  const open = () => async (): Promise<E.Either<Fault.Fault, Host.Host>> => {
    const k = ++n
    log.push(`open ${k}`)
    if (failing.has(k)) return E.left(Fault.make('Failed', 'holo', 'configure', '/', `host ${k} cannot open`))
    const h = Memory.make([{ id: 'greet', entities: [Entity.make({ plugin: 'greet', id: 'greeting:a', actionVerb: 'Greeting', actionReason: '', sources: [], info: [] })] }])
    return E.right({
      ...h,
      lock: () => async () => {
        log.push(`lock ${k}`)
        return E.right(async () => {
          log.push(`release ${k}`)
        })
      },
      close: async () => {
        log.push(`close ${k}`)
      },
    })
  }
  return { open, log }
}

describe('the shared Holo host', () => {
  it('opens one host for every open until it goes stale, takes its lock once, and releases it before closing it at the end', async () => {
    const o = opener()
    const s = Shared.shared(o.open)
    const a = await s.open()()
    const b = await s.open()()
    expect(E.isRight(a) && E.isRight(b) && a.right === b.right).toBe(true)
    if (E.isLeft(a)) return
    for (let i = 0; i < 3; i++) {
      const release = await a.right.lock()()
      expect(E.isRight(release)).toBe(true)
      if (E.isRight(release)) await release.right()
      await a.right.close()
    }
    expect(o.log).toEqual(['open 1', 'lock 1'])
    s.stale()
    await s.open()()
    expect(o.log).toEqual(['open 1', 'lock 1', 'release 1', 'close 1', 'open 2'])
    await s.end()
    await s.end()
    expect(o.log).toEqual(['open 1', 'lock 1', 'release 1', 'close 1', 'open 2', 'close 2'])
  })

  it('opens nothing for a stale or an end when no host is open', async () => {
    const o = opener()
    const s = Shared.shared(o.open)
    s.stale()
    await s.end()
    await s.open()()
    await s.open()()
    expect(o.log).toEqual(['open 1'])
  })

  it('answers the fault of a host that could not open until something else runs, and then tries again', async () => {
    const o = opener(new Set([1]))
    const s = Shared.shared(o.open)
    const first = await s.open()()
    const second = await s.open()()
    expect(E.isLeft(first) && first.left.description).toBe('host 1 cannot open')
    expect(second).toBe(first)
    s.stale()
    expect(E.isRight(await s.open()())).toBe(true)
    await s.end()
    expect(o.log).toEqual(['open 1', 'open 2', 'close 2'])
  })

  type Op = { readonly _tag: 'open' } | { readonly _tag: 'lock' } | { readonly _tag: 'stale' } | { readonly _tag: 'end' }
  const op: fc.Arbitrary<Op> = fc.constantFrom<Op>({ _tag: 'open' }, { _tag: 'lock' }, { _tag: 'stale' }, { _tag: 'end' })

  test.prop([fc.array(op, { maxLength: 30 }), fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { maxLength: 4 })], { numRuns: 300 })(
    'keeps at most one host open, opens a new one only after a stale or an end, and closes each host it opened once, after releasing its lock',
    async (ops, failing) => {
      const o = opener(new Set(failing))
      const s = Shared.shared(o.open)
      // the model: the number of the host open now (undefined: none), whether its next open starts over
      let model: { readonly host: number; dirty: boolean } | undefined
      let opened = 0
      let view: Host.Host | undefined
      for (const x of ops) {
        switch (x._tag) {
          case 'open': {
            if (model === undefined || model.dirty) model = { host: ++opened, dirty: false }
            const got = await s.open()()
            expect(o.log.filter((l) => l.startsWith('open')).length).toBe(opened)
            expect(E.isRight(got)).toBe(!failing.includes(model.host))
            view = E.isRight(got) ? got.right : undefined
            break
          }
          case 'lock':
            if (view !== undefined) {
              const r = await view.lock()()
              if (E.isRight(r)) await r.right()
            }
            break
          case 'stale':
            s.stale()
            if (model !== undefined) model.dirty = true
            break
          case 'end':
            await s.end()
            model = undefined
            view = undefined
            break
        }
      }
      await s.end()
      // each host: opened, locked at most once, released if locked, then closed once, before the next opened
      let live: number | undefined
      const locked = new Set<number>()
      for (const line of o.log) {
        const [what, k] = [line.split(' ')[0]!, Number(line.split(' ')[1])]
        if (what === 'open') {
          expect(live).toBeUndefined()
          if (!failing.includes(k)) live = k
        } else {
          expect(k).toBe(live)
          if (what === 'lock') {
            expect(locked.has(k)).toBe(false)
            locked.add(k)
          }
          if (what === 'release') expect(locked.has(k)).toBe(true)
          if (what === 'close') {
            expect(o.log.includes(`lock ${k}`)).toBe(o.log.includes(`release ${k}`))
            live = undefined
          }
        }
      }
      expect(live).toBeUndefined()
    },
  )
})

describe('the holo step family on a shared host', () => {
  it('scans a plugin once for the steps of one host, and again on a new host', async () => {
    const h = Memory.make([{ id: 'greet', entities: ['a', 'b', 'c'].map((n) => Entity.make({ plugin: 'greet', id: `greeting:${n}`, actionVerb: 'Greeting', actionReason: '', sources: [], info: [] })) }])
    const other = Memory.make([{ id: 'greet', entities: [Entity.make({ plugin: 'greet', id: 'greeting:a', actionVerb: 'Greeting', actionReason: '', sources: [], info: [] })] }])
    let current: Host.Host = h
    const family = Steps.family(() => ({ open: () => TE.right(current), force: false }))
    const step = (n: string) => Step.make({ plugin: 'greet', id: `greeting:${n}`, verb: 'Greeting', reason: '' })
    for (const n of ['a', 'b', 'c', 'gone']) await family.run(step(n), { id: `holo#greeting:${n}`, now: undefined, output: [] })
    expect(h.calls()).toEqual(['scan greet', 'apply greeting:a', 'apply greeting:b', 'apply greeting:c'])
    current = other
    expect(E.isRight(await family.run(step('a'), { id: 'holo#greeting:a', now: undefined, output: [] }))).toBe(true)
    expect(other.calls()).toEqual(['scan greet', 'apply greeting:a'])
  })
})
