// Printer: a syntax tree back to expression source, with only the parentheses the grammar needs,
// so that parsing the printed text gives the same tree back (a law the tests check).
import { binary, unary, type Node } from './Ast.js'

/** Prints a tree as expression source. */
export const print = (n: Node): string => {
  switch (n._tag) {
    case 'Nil':
      return 'nil'
    case 'Bool':
      return n.value ? 'true' : 'false'
    case 'Int':
      return n.value.toString()
    case 'Float':
      return float(n.value)
    case 'Str':
      return quote(n.value)
    case 'Ident':
      return n.name
    case 'Array':
      return `[${n.items.map(print).join(', ')}]`
    case 'Map':
      return `{${n.entries.map((e) => `${e.key._tag === 'Str' ? quote(e.key.value) : `(${print(e.key)})`}: ${print(e.value)}`).join(', ')}}`
    case 'Unary': {
      const operand = precedence(n.operand) < unary[n.op] ? `(${print(n.operand)})` : print(n.operand)
      return n.op === 'not' ? `not ${operand}` : `${n.op}${operand}`
    }
    case 'Binary': {
      const p = binary[n.op].precedence
      const comparison = p === 20
      const lp = precedence(n.left)
      const rp = precedence(n.right)
      const coalesceLeft = n.op !== '??' && n.left._tag === 'Binary' && n.left.op === '??'
      const leftParens = lp < p || (lp === p && (binary[n.op].right || comparison)) || coalesceLeft
      const rightParens = rp < p || (rp === p && !binary[n.op].right)
      const left = leftParens ? `(${print(n.left)})` : print(n.left)
      const right = rightParens ? `(${print(n.right)})` : print(n.right)
      return `${left} ${n.negated ? 'not ' : ''}${n.op} ${right}`
    }
    case 'Compare': {
      const operand = (x: Node): string => (precedence(x) <= 20 || (x._tag === 'Binary' && x.op === '??') ? `(${print(x)})` : print(x))
      return [operand(n.first), ...n.links.map((l) => `${l.negated ? 'not ' : ''}${l.op} ${operand(l.operand)}`)].join(' ')
    }
    case 'Member': {
      const object = postfixable(n.object)
      const dot = n.optional ? '?.' : '.'
      if (!n.computed && n.property._tag === 'Str') return `${object}${dot}${n.property.value}`
      return `${object}${n.optional ? '?.' : ''}[${print(n.property)}]`
    }
    case 'Slice':
      return `${postfixable(n.object)}[${n.from ? print(n.from) : ''}:${n.to ? print(n.to) : ''}]`
    case 'Call':
      return `${n.name}(${n.args.map(print).join(', ')})`
    case 'Method':
      return `${postfixable(n.object)}${n.optional ? '?.' : '.'}${n.name}(${n.args.map(print).join(', ')})`
    case 'Conditional': {
      const cond = n.cond._tag === 'Conditional' ? `(${print(n.cond)})` : print(n.cond)
      return n.then === undefined ? `${cond} ?: ${print(n.otherwise)}` : `${cond} ? ${print(n.then)} : ${print(n.otherwise)}`
    }
    case 'Pointer':
      return `#${n.name}`
    case 'Closure':
      return `{${print(n.body)}}`
  }
}

/** How tightly a node binds: operators by their precedence, conditionals loosest, atoms tightest. */
const precedence = (n: Node): number => {
  switch (n._tag) {
    case 'Binary':
      return binary[n.op].precedence
    case 'Compare':
      return 20
    case 'Unary':
      return unary[n.op]
    case 'Conditional':
      return 0
    default:
      return 1000
  }
}

/** A node printed so that `.x`, `[i]` and `(...)` can follow it. */
const postfixable = (n: Node): string => {
  switch (n._tag) {
    case 'Ident':
    case 'Str':
    case 'Array':
    case 'Map':
    case 'Call':
    case 'Member':
    case 'Slice':
    case 'Method':
    case 'Pointer':
      return print(n)
    default:
      return `(${print(n)})`
  }
}

/** A float that lexes back as a float: always with a `.` or an exponent. */
const float = (f: number): string => {
  const s = String(f)
  return /[.e]/.test(s) ? s : `${s}.0`
}

/** A double-quoted string literal with the escapes the lexer reads. */
export const quote = (s: string): string => {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '"') out += '\\"'
    else if (ch === '\\') out += '\\\\'
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`
    else out += ch
  }
  return `${out}"`
}
