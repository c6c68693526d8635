import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Position from '../../../src/core/Position.js'
import * as Template from '../../../src/manifest/expr/Template.js'
import * as TemplateSyntax from '../../../src/manifest/expr/TemplateSyntax.js'
import { tableEnv } from './support.js'

const env = tableEnv('manifest')
const rendered = (src: string): unknown => {
  const r = Template.render(src, env)
  if (E.isLeft(r)) throw new Error(r.left.message)
  return r.right.value
}

describe('Template.render', () => {
  it.each([
    ['{{ Data.port }}', 8080n],
    ['${ Data.port }', 8080n],
    ['  {{ Data.ratio }}  ', 1.5],
    ['{{ Data.list }}', [1n, 2n, 3n]],
    ['port: {{ Data.port }}', 'port: 8080'],
    ['${ Data.package_name }-${ Data.port }', 'httpd-8080'],
    ['{{ Data.package_name }}${ Data.service_name }', 'httpdhttpd'],
    ['cost: ${{ Data.port }}', 'cost: $8080'],
    ['${{ Data.port }}', '$8080'],
    ['list {{ Data.list }} map {{ Data.single }}', 'list [1 2 3] map map[only:one]'],
    ['nil: {{ Data.nil_value }}', 'nil: <nil>'],
    ['ratio {{ Data.ratio * 2 }}', 'ratio 3'],
    ['{{ "}}" + "a" }} and ${ {a: 1}.a }', '}}a and 1'],
    ['{{ Data.enabled ? "on" : "off" }}', 'on'],
    ['a $ b { c } d', 'a $ b { c } d'],
    ['', ''],
  ])('renders %j', (src, want) => {
    expect(rendered(src)).toEqual(want)
  })

  it('gathers what every hole read', () => {
    const r = Template.render('{{ Facts.env }}-{{ lookup("data.port") }}', env)
    expect(E.isRight(r) && r.right.reads.values).toEqual([
      { root: 'data', path: ['port'] },
      { root: 'facts', path: ['env'] },
    ])
  })

  it('tells when every hole came out empty, as CCM skips such hierarchy entries', () => {
    const h = tableEnv('hierarchy')
    const matched = (src: string): boolean => {
      const r = Template.renderText(src, h)
      if (E.isLeft(r)) throw new Error(r.left.message)
      return r.right.matched
    }
    expect(matched("env:${ lookup('facts.env') }")).toBe(true)
    expect(matched("env:${ lookup('facts.nope') }")).toBe(false)
    expect(matched('default')).toBe(true)
    expect(matched('')).toBe(false)
  })

  it('renders to text on request, whatever the type', () => {
    const r = Template.renderText('{{ Data.port + 1 }}', env)
    expect(E.isRight(r) && r.right.value).toBe('8081')
  })

  it.each([
    ['{{ Data.port', 'unterminated {{: no closing }}', 0],
    ['x ${ Data.port', 'unterminated ${: no closing }', 2],
    ['a {{ }} b', 'empty expression in {{ }}', 2],
    ['{{ Data.port + }}', 'unexpected token EOF', 14],
    ['v={{ nosuch }}', 'unknown name nosuch', 5],
    ['v={{ Data.missing.x }}', 'cannot fetch x from <nil>', 18],
  ])('reports %j: %s at offset %d', (src, message, offset) => {
    const r = Template.render(src, env)
    expect(E.isLeft(r) && r.left.error).toEqual(expect.objectContaining({ message, offset }))
    expect(E.isLeft(r) && r.left.message).toContain(message)
  })

  it('points errors into the YAML file', () => {
    const base = Position.make('m.yaml', 3, 10)
    const plain = Template.render('v={{ nosuch }}', env, { base })
    expect(E.isLeft(plain) && plain.left.at).toEqual(Position.make('m.yaml', 3, 15))
    const quoted = Template.render('v={{ nosuch }}', env, { base, shift: 1 })
    expect(E.isLeft(quoted) && quoted.left.at).toEqual(Position.make('m.yaml', 3, 16))
    const block = Template.render('line one\n  x {{ nosuch }}', env, { base, indent: 5 })
    expect(E.isLeft(block) && block.left.at).toEqual(Position.make('m.yaml', 4, 5 + 7))
  })

  fcTest.prop([fc.string().filter(TemplateSyntax.isPlain)])('a string without holes renders as itself', (s) => {
    expect(Template.render(s, env)).toEqual(E.right({ value: s, reads: { values: [], files: [], clock: false }, matched: s !== '' }))
  })

  fcTest.prop([fc.string({ maxLength: 30 })])('never throws: any string renders or gives a problem inside it', (s) => {
    const r = Template.render(s, env)
    if (E.isLeft(r)) {
      expect(r.left.error.offset).toBeGreaterThanOrEqual(0)
      expect(r.left.error.offset).toBeLessThanOrEqual(s.length)
    }
  })
})

describe('whitespace around a lone hole', () => {
  it('a string value keeps the whitespace written around the hole (file content keeps its newline)', () => {
    expect(rendered('{{ "motd" }}\n')).toBe('motd\n')
    expect(rendered('  ${ "x" }  ')).toBe('  x  ')
  })
  it('a non-string value keeps its type, as CCM gives it', () => {
    expect(rendered('{{ 1 + 1 }}\n')).toBe(2n)
    expect(rendered(' {{ [1] }} ')).toEqual([1n])
  })
})
