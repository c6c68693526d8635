// /proc/PID/stat is the machine's output: text that breaks its format is a ProtocolViolation.
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Proc from '../../../src/interpreters/posix/proc.js'

const stat = (start: string): string => `12 (a) b) S ${Array.from({ length: 18 }, (_, i) => String(i + 1)).join(' ')} ${start} 99`

describe('Proc.parse faults', () => {
  it('reads the start time after the last ")"', () => {
    expect(Proc.startTime(stat('4711'))).toEqual(E.right('4711'))
  })

  it.each([
    ['', 'no "(comm)" field'],
    ['x (y) S 1', 'pid field "x" is not a number'],
    ['12 (x) S 1 2', 'only 5 fields, need 22'],
    [stat('soon'), 'start time field "soon" is not a number'],
  ])('is a ProtocolViolation of posix for %j: %s', (text, why) => {
    expect(Proc.parse(text)).toEqual(E.left(expect.objectContaining({ _tag: 'ProtocolViolation', module: 'posix', op: 'parse', subject: '/proc/PID/stat', description: why })))
  })
})
