import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Evaluate from '../../../src/manifest/expr/Evaluate.js'
import * as Expr from '../../../src/manifest/expr/Expr.js'
import * as Value from '../../../src/manifest/expr/Value.js'
import { encode, tableEnv } from './support.js'

const env = tableEnv('manifest')
const value = (src: string, e: Evaluate.Env = env): Value.Value => {
  const r = Expr.run(src, e)
  if (E.isLeft(r)) throw new Error(`${src}: ${r.left.message}`)
  return r.right.value
}
const reads = (src: string, e: Evaluate.Env = env): Evaluate.Reads => {
  const r = Expr.run(src, e)
  if (E.isLeft(r)) throw new Error(`${src}: ${r.left.message}`)
  return r.right.reads
}
const error = (src: string, e: Evaluate.Env = env): { message: string; offset: number; stage: string } => {
  const r = Expr.run(src, e)
  if (E.isRight(r)) throw new Error(`${src} evaluated to ${Value.format(r.right.value)}`)
  return r.left
}
const paths = (r: Evaluate.Reads): ReadonlyArray<string> => r.values.map((v) => [v.root, ...v.path].join('.'))

describe('what an expression read', () => {
  it('records the full path of a member chain, not its prefixes', () => {
    expect(paths(reads('Facts.host.info.platformFamily == "debian"'))).toEqual(['facts.host.info.platformFamily'])
  })

  it('records missing keys too: their absence was read', () => {
    expect(paths(reads('Data.missing ?? "x"'))).toEqual(['data.missing'])
  })

  it('records a whole subtree when the expression uses it whole', () => {
    expect(paths(reads('keys(Facts.memory)'))).toEqual(['facts.memory'])
    expect(paths(reads('toJSON(Data)'))).toEqual(['data'])
  })

  it('records lookup paths up to a # or a wildcard', () => {
    expect(paths(reads("lookup('facts.networking.interfaces.#.name')"))).toEqual(['facts.networking.interfaces'])
    expect(paths(reads("lookup('facts.dotted\\\\.key')"))).toEqual(['facts.dotted.key'])
    expect(paths(reads("lookup('environ.NOPE', '')"))).toEqual(['environ.NOPE'])
  })

  it('records computed keys and the key expressions', () => {
    expect(paths(reads('Facts[Data.package_name] ?? 1'))).toEqual(['data.package_name', 'facts.httpd'])
    expect(paths(reads('Data.users[1].name'))).toEqual(['data.users.1.name'])
  })

  it('records nothing for a branch not taken', () => {
    expect(paths(reads('Data.enabled ? Data.port : Facts.cpus'))).toEqual(['data.enabled', 'data.port'])
  })

  it('records files read and whether the clock was read', () => {
    const r = reads("readFile('./files/../files/motd.txt') + string(now().Year())")
    expect(r.files).toEqual(['files/motd.txt'])
    expect(r.clock).toBe(true)
    expect(reads('1 + 1')).toEqual({ values: [], files: [], clock: false })
  })

  it('records what a template() reads, including its file', () => {
    const r = reads("template('templates/app.templ')")
    expect(r.files).toEqual(['templates/app.templ'])
    expect(paths(r)).toEqual(['data.package_name', 'data.port'])
  })
})

describe('evaluation', () => {
  it('keeps ints and floats apart', () => {
    expect(value('1 + 2')).toBe(3n)
    expect(value('1 + 2.0')).toBe(3)
    expect(value('7 / 2')).toBe(3.5)
    expect(value('2 ** 2')).toBe(4)
    expect(value('Data.port')).toBe(8080n)
  })

  it('short-circuits ?. over the rest of the chain', () => {
    expect(value('Data.missing?.a.b[0]')).toBe(null)
    expect(value('Data.missing?.[0]')).toBe(null)
    expect(value('Data.nested?.a.b.c')).toBe('deep')
    expect(error('Data.missing.a').message).toBe('cannot fetch a from <nil>')
  })

  it('gives the right side of ?? only for nil', () => {
    expect(value('Data.missing ?? "d"')).toBe('d')
    expect(value('Data.zero ?? 5')).toBe(0n)
    expect(value('Data.missing?.x ?? Data.port')).toBe(8080n)
  })

  it('reads a missing environment variable as "", as CCM does', () => {
    expect(value('Environ.NOPE')).toBe('')
    expect(value('Environ.HOME')).toBe('/root')
  })

  it('gives now() the time it was given, and fails without one', () => {
    expect(value('now()')).toEqual(Value.time('2024-05-06T07:08:09Z'))
    expect(value('now().YearDay()')).toBe(127n)
    expect(value('now().Weekday()')).toBe(1n)
    const noClock = Evaluate.env({})
    expect(error('now()', noClock).message).toMatch(/no clock/)
  })

  it('reads files only through the capability, relative and cleaned', () => {
    const seen: string[] = []
    const e = Evaluate.env({ readFile: (p) => (seen.push(p), E.right(`<${p}>`)) })
    expect(value("file('a/./b/../c.txt')", e)).toBe('<a/c.txt>')
    expect(seen).toEqual(['a/c.txt'])
    expect(error("readFile('/etc/passwd')", e).message).toBe('readFile can only read files in the working directory')
    expect(error("readFile('x')", Evaluate.env({})).message).toMatch(/no file reader/)
    expect(error("readFile('nope')", env).message).toBe('failed to read file "nope": no such file or directory')
  })

  it('renders template() text with the template syntax, keeping a lone value typed', () => {
    expect(value("template('${ Data.port }')")).toBe(8080n)
    expect(value("template('port ${ Data.port } {{ Data.ratio }}')")).toBe('port 8080 1.5')
    expect(error("template('{{ nosuch }}')").message).toBe('template: unknown name nosuch')
    expect(error("template('x.jet')").message).toMatch(/Jet/)
  })

  it('stops templates that include themselves', () => {
    const e = Evaluate.env({ readFile: () => E.right("{{ template('self.templ') }}") })
    expect(error("template('self.templ')", e).message).toMatch(/nested too deeply/)
  })

  it('evaluates hierarchy entries with facts and lookup only, missing keys as ""', () => {
    const h = tableEnv('hierarchy')
    expect(value("lookup('facts.role')", h)).toBe('web')
    expect(value("lookup('facts.nope')", h)).toBe('')
    expect(error('Data.port', h).message).toBe('unknown name Data')
    expect(error("readFile('x')", h).message).toBe('unknown func readFile')
  })

  it('takes extra variables and functions from the caller (validators, say)', () => {
    const e = Evaluate.env({
      extra: {
        variables: new Map([['value', '10.0.0.1']]),
        functions: new Map([['isIPv4', ([v]: ReadonlyArray<Value.Value>) => (typeof v === 'string' ? E.right(/^\d+\.\d+\.\d+\.\d+$/.test(v)) : E.left('isIPv4 takes a string'))]]),
      },
    })
    expect(value('isIPv4(value) && !isIPv4("x")', e)).toBe(true)
    expect(error('isIPv4(1)', e)).toEqual(expect.objectContaining({ message: 'isIPv4 takes a string', offset: 0 }))
    expect(error('isIPv6(value)', e).message).toBe('unknown func isIPv6')
  })

  it('names the CCM functions plait does not have', () => {
    expect(error("jet('[[ x ]]')").message).toMatch(/Jet templates are not supported/)
    expect(error("kvGet('b', 'k')").message).toMatch(/not supported/)
  })

  it('checks types before evaluating, even in branches that never run', () => {
    expect(error('false && 1 + "a"')).toEqual(expect.objectContaining({ stage: 'Type', offset: 11 }))
    expect(error('true || nosuch').message).toBe('unknown name nosuch')
    expect(error('len(1)').message).toBe('invalid argument for len (type int)')
  })

  it('matches with RE2 syntax', () => {
    expect(value('"HELLO" matches "(?i)^hello$"')).toBe(true)
    expect(value('"a-b" matches "a\\\\-b"')).toBe(true)
    expect(value('"x{" matches "x{"')).toBe(true)
    expect(value('"ab" matches "(?P<first>a)b"')).toBe(true)
    expect(value('"tab\\v" matches "\\\\s$"')).toBe(false)
    expect(error('"ab" matches "(?=a)"').message).toMatch(/error parsing regexp/)
    expect(error('"aa" matches "(a)\\\\1"').message).toMatch(/error parsing regexp/)
  })

  it('works on strings as bytes, as Go does', () => {
    expect(value('len("é")')).toBe(2n)
    expect(value('"é"[0]')).toBe(0xc3n)
    expect(value('"héllo"[0:3]')).toBe('hé')
  })

  it('formats values as Go does in string()', () => {
    expect(value('string([1, 2.5, "a", nil, true])')).toBe('[1 2.5 a <nil> true]')
    expect(value('string({b: 1, a: {c: 2}})')).toBe('map[a:map[c:2] b:1]')
    expect(value('string(1e20)')).toBe('1e+20')
    expect(value('string(0.000012)')).toBe('1.2e-05')
    expect(value('string(now())')).toBe('2024-05-06 07:08:09 +0000 UTC')
  })

  fcTest.prop([fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })])(
    'int arithmetic wraps at 64 bits like Go',
    (a, b) => {
      const e = Evaluate.env({ data: { a: Number(a) } })
      const withVars = (op: string): Value.Value => value(`int("${a}") ${op} int("${b}")`, e)
      expect(withVars('+')).toBe(BigInt.asIntN(64, a + b))
      expect(withVars('-')).toBe(BigInt.asIntN(64, a - b))
      expect(withVars('*')).toBe(BigInt.asIntN(64, a * b))
      if (b !== 0n) expect(withVars('%')).toBe(BigInt.asIntN(64, a % b))
    },
  )

  fcTest.prop([fc.double({ noNaN: true }), fc.integer()])('an int and a float give a float, two ints an int', (f, i) => {
    const e = Evaluate.env({ data: { f: f, i } })
    const sum = value('Data.i + Data.i', e)
    expect(typeof sum).toBe('bigint')
    const mixed = value('Data.f + 0.5', e)
    expect(typeof mixed).toBe('number')
  })

  const json = fc.jsonValue({ maxDepth: 3 })
  fcTest.prop([json])('fromJSON(toJSON(x)) gives x back, numbers as floats', (x) => {
    const v = Value.fromJS(x)
    const e = Evaluate.env({ data: { x } })
    const back = Expr.run('fromJSON(toJSON(Data.x))', e)
    const asFloats = (w: Value.Value): Value.Value =>
      typeof w === 'bigint' ? Number(w) : Value.isArray(w) ? w.map(asFloats) : Value.isMap(w) ? Value.map(Object.keys(w).map((k) => [k, asFloats(w[k]!)] as const)) : w
    if (E.isLeft(back)) throw new Error(back.left.message)
    expect(encode(back.right.value)).toEqual(encode(asFloats(v)))
  })

  fcTest.prop([fc.string({ maxLength: 25 })])('never throws on any source: a value or an error', (src) => {
    const r = Expr.run(src, env)
    expect(E.isLeft(r) || E.isRight(r)).toBe(true)
  })
})
