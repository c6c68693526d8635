// Progress: the status line of an apply fits the terminal's width and shows ids escaped.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Progress from '../../src/cli/Progress.js'
import { hostile } from './plans.js'

describe('Progress.line', () => {
  test.prop([fc.nat({ max: 10_000 }), fc.nat({ max: 10_000 }), hostile, fc.integer({ min: 1, max: 300 })])('fits the width less one, one line, no control character', (i, n, id, columns) => {
    const l = Progress.line(i, n, id, columns)
    expect([...l].length).toBeLessThanOrEqual(Math.max(columns - 1, 1))
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(l).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
  })

  it('says which resource of how many', () => {
    expect(Progress.line(3, 12, 'file#/etc/motd', 80)).toBe('resource 3 of 12: file#/etc/motd')
    expect(Progress.line(3, 12, 'file#/etc/a\nb', 80)).toBe('resource 3 of 12: file#/etc/a\\nb')
    expect(Progress.line(3, 12, 'file#/etc/motd', 20)).toBe('resource 3 of 12: …')
  })
})
