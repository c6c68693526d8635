// runState.outcomeOf: a resource's outcome so far, found through an index that follows the run's
// outcomes as they are appended and changed; it answers what a search from the start answers.
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import type { Outcome } from '../../src/executor/Report.js'
import { outcomeOf, type Entry, type RunState } from '../../src/executor/runState.js'

const outcome = fc.constantFrom<Outcome>('stable', 'changed', 'failed', 'skipped', 'rolled back')
const id = fc.constantFrom('file#/a', 'file#/b', 'exec#c', 'package#d')
/** A run's events: an outcome appended, an earlier entry's outcome changed (as --atomic does), or a lookup. */
const event = fc.oneof(
  fc.record({ _tag: fc.constant('push' as const), id, outcome }),
  fc.record({ _tag: fc.constant('change' as const), at: fc.nat(), outcome }),
  fc.record({ _tag: fc.constant('ask' as const), id }),
)

describe('outcomeOf', () => {
  test.prop([fc.array(event, { maxLength: 40 })])('answers as a search of the outcomes from the start, however they grew and changed', (events) => {
    const outcomes: Entry[] = []
    const st = { outcomes } as unknown as RunState
    for (const e of events) {
      if (e._tag === 'push') outcomes.push({ id: e.id, outcome: e.outcome, messages: [] })
      else if (e._tag === 'change') {
        if (outcomes.length > 0) outcomes[e.at % outcomes.length]!.outcome = e.outcome
      } else expect(outcomeOf(st, e.id)).toBe(outcomes.find((o) => o.id === e.id)?.outcome)
    }
  })
})
