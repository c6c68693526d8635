import { fc, test as fcTest } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as PosixPath from '../../src/core/PosixPath.js'

const segment = fc.oneof(fc.constantFrom('.', '..', '', 'etc', 'a b', 'x.conf'), fc.stringMatching(/^[a-z0-9._-]{1,8}$/))
const path = fc.array(segment, { maxLength: 8 }).map((s) => '/' + s.join('/'))

describe('PosixPath', () => {
  it('normalizes the usual cases', () => {
    expect(PosixPath.normalize('/etc//x/../y/.')).toBe('/etc/y')
    expect(PosixPath.normalize('/..')).toBe('/')
    expect(PosixPath.resolve('/srv/m', 'files/a.txt')).toBe('/srv/m/files/a.txt')
    expect(PosixPath.resolve('/srv/m', '/abs')).toBe('/abs')
    expect(PosixPath.isCleanAbsolute('/etc/motd')).toBe(true)
    for (const bad of ['etc/motd', '/etc/../motd', '/etc//motd', '/etc/', '/./etc']) expect(PosixPath.isCleanAbsolute(bad)).toBe(false)
    expect(PosixPath.dirname('/x')).toBe('/')
    expect(PosixPath.basename('/a/b.c')).toBe('b.c')
  })

  fcTest.prop([fc.oneof(path, fc.stringMatching(/^[/.a]{0,12}$/))])('isCleanAbsolute holds exactly for an absolute path that normalizes to itself', (p) => {
    expect(PosixPath.isCleanAbsolute(p)).toBe(PosixPath.isAbsolute(p) && PosixPath.normalize(p) === p)
  })

  fcTest.prop([path])('normalize is idempotent and gives a clean absolute path', (p) => {
    const n = PosixPath.normalize(p)
    expect(PosixPath.normalize(n)).toBe(n)
    expect(PosixPath.isCleanAbsolute(n)).toBe(true)
  })

  fcTest.prop([path])('a clean path is within its own dirname', (p) => {
    const n = PosixPath.normalize(p)
    expect(PosixPath.isWithin(PosixPath.dirname(n), n)).toBe(true)
  })
})
