// DeferredCommand: a deferred exec's templates rendered into the step to run (pure), and checked as
// compile checks them. Used by observe (when the files it reads already hold their final text)
// and by the executor at the command's turn.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as PosixPath from '../../core/PosixPath.js'
import type * as Step from './Step.js'
import * as DeferredContent from '../file/DeferredContent.js'
import * as ExecPlan from './plan.js'
import type { ExecResourcePlan } from './ResourcePlan.js'
import * as ExecSpec from './Spec.js'

/**
 * The step a deferred exec comes to, given the managed files' text (by the relative path read), or
 * a fault whose description lists every problem, as the report shows it.
 */
export const workOut = (d: NonNullable<ExecResourcePlan['deferred']>, texts: ReadonlyMap<string, string>): E.Either<Fault.Fault, Step.ExecRun> => {
  const problems: string[] = []
  const fail = (): E.Either<Fault.Fault, never> => E.left(Fault.make('Failed', 'exec', 'work out', d.templates.command ?? d.base.line, problems.join('; ')))
  const render = (key: string, template: string | undefined): string | undefined => {
    if (template === undefined) return undefined
    const v = DeferredContent.renderTemplate(template, d.snapshot, texts)
    if (E.isLeft(v)) problems.push(`${key}: ${v.left.description}`)
    return E.isRight(v) ? v.right : undefined
  }
  const t = d.templates
  const base = d.base
  const line = render('command', t.command) ?? base.line
  const cwd = render('cwd', t.cwd) ?? base.command.cwd
  const creates = render('creates', t.creates) ?? base.guards.creates
  const environment = t.environment === undefined ? base.command.environment : t.environment.map((e, i) => render(`environment[${i}]`, e) ?? '')
  const guard = (k: 'onlyif' | 'unless'): string | undefined => render(k, t[k])
  const onlyif = guard('onlyif')
  const unless = guard('unless')
  if (problems.length > 0) return fail()
  const why = ExecSpec.commandProblem(base.provider, line)
  if (why !== undefined) problems.push(`command cannot be run: ${why}`)
  for (const [k, v] of [['cwd', t.cwd === undefined ? undefined : cwd], ['creates', t.creates === undefined ? undefined : creates]] as const) {
    if (v !== undefined && (!PosixPath.isCleanAbsolute(v) || v.includes('\0'))) problems.push(`${k} must be an absolute, clean path without NUL bytes: "${v}"`)
  }
  for (const [k, v] of [['onlyif', onlyif], ['unless', unless]] as const) {
    const w = v === undefined ? undefined : ExecSpec.guardProblem(base.provider, v)
    if (w !== undefined) problems.push(`${k} guard cannot be run: ${w}`)
  }
  if (t.environment !== undefined)
    for (const e of environment) {
      if (e.indexOf('=') <= 0 || e.endsWith('=')) problems.push(`environment entry "${e}" must be KEY=VALUE with a non-empty key and value`)
      else if (e.includes('\0')) problems.push(`environment entry "${e.slice(0, e.indexOf('='))}" contains a NUL byte`)
    }
  if (problems.length > 0) return fail()
  const command = (l: string): Step.CommandC => ({ ...base.command, argv: [...ExecPlan.argvOf(base.provider, l)], environment: [...environment], ...(cwd !== undefined ? { cwd } : {}) })
  return E.right({
    ...base,
    line,
    command: command(line),
    guards: {
      ...(creates !== undefined ? { creates } : {}),
      ...(onlyif !== undefined ? { onlyif: command(onlyif) } : base.guards.onlyif !== undefined ? { onlyif: { ...base.guards.onlyif, environment: [...environment], ...(cwd !== undefined ? { cwd } : {}) } } : {}),
      ...(unless !== undefined ? { unless: command(unless) } : base.guards.unless !== undefined ? { unless: { ...base.guards.unless, environment: [...environment], ...(cwd !== undefined ? { cwd } : {}) } } : {}),
    },
  })
}
