// Colour: plans, diffs, reports and diagnostics coloured for a terminal, as Terraform colours
// its plans (pure; equal inputs, equal text).
//
// Colour is added last, to text that has already passed Terminal.text: every name, value and
// content line in it is escaped, so no character of it is a control. The functions here only
// insert their own SGR sequences (the fixed `palette`) at the start and end of lines the
// renderers drew; they never remove or reorder a character, so `strip(paint(t)) === t`, and a
// hostile name still comes out exactly as escaped as it does without colour.

// model

/** The SGR sequences colour uses, and only these. */
export const palette = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
  magenta: '\x1b[35m',
} as const

type Style = keyof typeof palette

/** Where colour is decided: whether the stream is a terminal, and the environment's variables. */
export interface Setting {
  readonly isTTY: boolean
  readonly env: Readonly<Record<string, string | undefined>>
}

// constructors

/**
 * Whether a stream gets colour. `FORCE_COLOR` decides when set (`0` or `false`: none; any other
 * value, empty included: colour, even piped), as Node does; otherwise a non-empty `NO_COLOR`
 * means none (no-color.org); otherwise colour exactly on a terminal whose `TERM` is not `dumb`.
 */
export const enabled = (s: Setting): boolean => {
  const force = s.env['FORCE_COLOR']
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false'
  if ((s.env['NO_COLOR'] ?? '') !== '') return false
  return s.isTTY && s.env['TERM'] !== 'dumb'
}

// combinators

/** A text in a style (nothing added around an empty text). */
export const paint = (style: Style, s: string): string => (s === '' ? s : `${palette[style]}${s}${palette.reset}`)

// Every SGR sequence of the palette, and nothing else.
// eslint-disable-next-line no-control-regex -- matching the sequences this module writes is the point
const sgr = /\x1b\[[0-9]+m/g

/** A coloured text without its colour: the text it was made from. */
export const strip = (s: string): string => s.replace(sgr, '')

const actionStyle: Readonly<Record<string, Style>> = { '+': 'green', '~': 'yellow', '-': 'red', '!': 'magenta' }

/**
 * A plan's text coloured: a resource's symbol in its action's colour (`+` green, `~` yellow, `-`
 * red, `!` magenta: a command runs) and its id bold; content diffs line by line (`+` green, `-`
 * red, `@@` cyan, the `---`/`+++` header bold); the summary line bold.
 */
export const plan = (text: string): string => linesOf(text, planLine)

/**
 * A report's text coloured: `failed` red, `changed` green, `rolled back` and the sections of what
 * was undone or cannot be undone yellow, and the count of failures in the summary red when not 0.
 */
export const report = (text: string): string =>
  text
    .split('\n')
    .map((l) => {
      const outcome = /^(failed|changed|rolled back)( +)/.exec(l)
      if (outcome !== null) {
        const style: Style = outcome[1] === 'failed' ? 'red' : outcome[1] === 'changed' ? 'green' : 'yellow'
        return paint(style, outcome[1]!) + l.slice(outcome[1]!.length)
      }
      if (l === 'Rolled back:' || l === 'Ran and cannot be undone:') return paint('yellow', l)
      if (/^Apply( \(noop\))?: /.test(l)) return l.replace(/ ([1-9][0-9]*) failed/, (_m, n: string) => ` ${paint('red', `${n} failed`)}`)
      return l
    })
    .join('\n')

/** Diagnostics coloured: `error` red, `warning` yellow, `hint` cyan, `note` bold. */
export const diagnostics = (text: string): string =>
  text.replace(/^(error|warning|note| {2}hint)(?=:)/gm, (m) => (m === 'error' ? paint('red', m) : m === 'warning' ? paint('yellow', m) : m === 'note' ? paint('bold', m) : `  ${paint('cyan', 'hint')}`))

/** A plan comparison's text (see PlanDiff) coloured like a plan: `+` added, `-` removed, `~` changed. */
export const comparison = (text: string): string => linesOf(text, planLine)

// ---------------------------------------------------------------- lines

interface DiffState {
  /** The indentation of the content diff being drawn, when inside one. */
  readonly indent?: string
  /** Whether its first hunk has begun: after it, a `+++ ` line is an added line, not a header. */
  readonly hunks?: boolean
}

type LineColour = (line: string, next: string | undefined, state: DiffState) => readonly [string, DiffState]

const linesOf = (text: string, colour: LineColour): string => {
  const lines = text.split('\n')
  const out: string[] = []
  let state: DiffState = {}
  for (let i = 0; i < lines.length; i++) {
    const [l, s] = colour(lines[i]!, lines[i + 1], state)
    out.push(l)
    state = s
  }
  return out.join('\n')
}

const planLine: LineColour = (l, next, state) => {
  if (state.indent !== undefined) {
    const inside = diffLine(l, state.indent, state.hunks === true)
    if (inside !== undefined) return [inside, state.hunks !== true && l.slice(state.indent.length).startsWith('@@') ? { ...state, hunks: true } : state]
  }
  // A content diff starts with `--- a` and `+++ b` at one indentation (the renderers indent it below its step).
  const head = /^( +)--- /.exec(l)
  if (head !== null && next !== undefined && next.startsWith(`${head[1]}+++ `)) return [paint('bold', l), { indent: head[1]! }]
  const resource = /^([+~!-]) (.*)$/.exec(l)
  if (resource !== null) return [`${paint(actionStyle[resource[1]!]!, resource[1]!)} ${paint('bold', resource[2]!)}`, {}]
  if (l.startsWith('Plan: ') || l.startsWith('Changes: ')) return [paint('bold', l), {}]
  if (l === 'No changes. The machine matches the manifest.') return [paint('green', l), {}]
  return [l, {}]
}

/** A line of a content diff at an indentation, coloured; undefined when the diff has ended. */
const diffLine = (l: string, indent: string, hunks: boolean): string | undefined => {
  if (!l.startsWith(indent) || l.length === indent.length) return undefined
  const body = l.slice(indent.length)
  if (!hunks && body.startsWith('+++ ')) return paint('bold', l)
  if (body.startsWith('@@')) return indent + paint('cyan', body)
  if (body.startsWith('+')) return indent + paint('green', body)
  if (body.startsWith('-')) return indent + paint('red', body)
  if (body.startsWith(' ') || body.startsWith('\\')) return l
  return undefined
}
