// Regex: Go's RE2 syntax (what `matches` takes) translated to a JavaScript RegExp with the same
// meaning; what RE2 rejects (lookaround, backreferences) is rejected here too.
import * as E from 'fp-ts/lib/Either.js'

const cache = new Map<string, E.Either<string, RegExp>>()

/** Compiles an RE2 pattern, or Go's kind of error ("error parsing regexp: ..."). */
export const compile = (pattern: string): E.Either<string, RegExp> => {
  const hit = cache.get(pattern)
  if (hit !== undefined) return hit
  const out = E.chain(({ source, flags }: { source: string; flags: string }) => {
    try {
      return E.right(new RegExp(source, flags))
    } catch (e) {
      return E.left(`error parsing regexp: ${e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : String(e)}: \`${pattern}\``)
    }
  })(translate(pattern))
  if (cache.size > 500) cache.clear()
  cache.set(pattern, out)
  return out
}

const posix: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
}

/** Unicode general categories; any other `\p{Name}` is a script. */
const categories = new Set('L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po S Sm Sc Sk So Z Zs Zl Zp C Cc Cf Cs Co Cn'.split(' '))

/** Characters JavaScript's unicode mode lets a backslash escape. */
const jsSyntax = new Set([...'^$\\.*+?()[]{}|/'])

const hex = (c: string): string => `\\u{${c.codePointAt(0)!.toString(16)}}`

/** Translates RE2 syntax to JavaScript `u`-mode syntax, with leading flags as RegExp flags. */
export const translate = (pattern: string): E.Either<string, { readonly source: string; readonly flags: string }> => {
  const fail = (what: string): E.Either<string, never> => E.left(`error parsing regexp: ${what}: \`${pattern}\``)
  let flags = 'u'
  let i = 0
  const lead = /^\(\?([imsU]+)\)/.exec(pattern)
  if (lead) {
    if (lead[1]!.includes('U')) return fail('ungreedy mode (?U) is not supported by plait')
    flags += [...new Set(lead[1]!)].join('')
    i = lead[0].length
  }
  let out = ''
  let inClass = false
  while (i < pattern.length) {
    const c = String.fromCodePoint(pattern.codePointAt(i)!)
    if (c === '\\') {
      const n = pattern[i + 1]
      if (n === undefined) return fail('trailing backslash at end of expression')
      if (n === 'Q') {
        const end = pattern.indexOf('\\E', i + 2)
        const lit = pattern.slice(i + 2, end < 0 ? pattern.length : end)
        out += [...lit].map((ch) => (/[\p{L}\p{N}_ ]/u.test(ch) ? ch : hex(ch))).join('')
        i = end < 0 ? pattern.length : end + 2
        continue
      }
      if (n === 'A' && !inClass) out += '(?<![\\s\\S])'
      else if (n === 'z' && !inClass) out += '(?![\\s\\S])'
      else if (n === 's') out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]'
      else if (n === 'S') out += inClass ? '\\S' : '[^\\t\\n\\f\\r ]'
      else if (n === 'p' || n === 'P') {
        const braced = pattern[i + 2] === '{'
        const end = braced ? pattern.indexOf('}', i + 3) : i + 3
        let name = braced ? pattern.slice(i + 3, end) : pattern.slice(i + 2, end)
        if (name === '' || end < 0) return fail('invalid character class range')
        let neg = n === 'P'
        if (name.startsWith('^')) {
          neg = !neg
          name = name.slice(1)
        }
        out += `\\${neg ? 'P' : 'p'}{${categories.has(name) ? name : name === 'Any' ? 'Any' : `Script=${name}`}}`
        i = braced ? end + 1 : end
        continue
      } else if (n === 'x' && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 3)
        if (end < 0) return fail('invalid escape sequence')
        out += `\\u{${pattern.slice(i + 3, end)}}`
        i = end + 1
        continue
      } else if (/[1-9]/.test(n)) return fail(`invalid escape sequence: \`\\${n}\``)
      else if (/[dDwWbBpPnrtfvx]/.test(n)) out += `\\${n}`
      else if (n === 'a') out += '\\x07'
      else if (/[\p{L}\p{N}]/u.test(n)) return fail(`invalid escape sequence: \`\\${n}\``)
      else out += jsSyntax.has(n) || (inClass && n === '-') ? `\\${n}` : hex(n)
      i += 2
      continue
    }
    if (inClass) {
      const named = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i))
      if (named) {
        const set = posix[named[2]!]
        if (set === undefined || named[1] === '^') return fail(`invalid character class range: \`${named[0]}\``)
        out += set
        i += named[0].length
        continue
      }
      if (c === '[') out += '\\['
      else {
        if (c === ']') inClass = false
        out += c
      }
      i += c.length
      continue
    }
    if (c === '[') {
      inClass = true
      out += c
      if (pattern[i + 1] === '^') {
        out += '^'
        i += 1
      }
      if (pattern[i + 1] === ']') {
        out += '\\]'
        i += 1
      }
      i += 1
      continue
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i)
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest)
      if (named) {
        out += `(?<${named[1]}>`
        i += named[0].length
        continue
      }
      if (rest.startsWith('(?:')) {
        out += '(?:'
        i += 3
        continue
      }
      return fail(`invalid or unsupported Perl syntax: \`${rest.slice(0, 3)}\``)
    }
    if (c === '{') {
      const rep = /^\{[0-9]+(,[0-9]*)?\}/.exec(pattern.slice(i))
      if (rep && out !== '') {
        out += rep[0]
        i += rep[0].length
        continue
      }
      out += '\\{'
      i += 1
      continue
    }
    if (c === '}') {
      out += '\\}'
      i += 1
      continue
    }
    out += c
    i += c.length
  }
  return E.right({ source: out, flags })
}
