// policy: `plait policy check PLAN --policy FILE`: judges a saved plan by the rules of a policy
// file and prints every finding at the manifest line that caused it (text, json, markdown, github
// or sarif). Exit 0 when the plan passes, 1 when a hard rule or an unoverridden soft rule finds
// something, when a rule cannot be evaluated, or on any error (a malformed policy: file:line:col).
// `gate` is the same check for `plait apply --policy`, run before the first change.
import { Command, CommanderError, Option } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import type * as Plan from '../core/Plan.js'
import * as PlanFile from '../planfile/PlanFile.js'
import type * as Policy from '../policy/Policy.js'
import type * as Verdict from '../policy/Verdict.js'
import * as Markdown from './Markdown.js'
import { readHost } from './pipeline.js'
import * as Render from './render.js'
import * as Options from './options.js'
import * as Streams from './streams.js'

type Format = 'text' | 'json' | 'markdown' | 'github' | 'sarif'

/** The CommanderError code of a failed policy check (main exits 1 for it). */
export const exitCode = 'plait.policy'

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  Streams.err(Render.diagnostics(ds))
  throw new CommanderError(1, exitCode, 'policy check failed')
}

const readText = async (path: string, what: string): Promise<string> => {
  const bytes = await readHost(path)
  if (E.isLeft(bytes)) return fail([Diagnostic.make('Io', `cannot read ${what} ${path}: ${bytes.left.description}`)])
  return new TextDecoder().decode(bytes.right)
}

/** Reads a policy file, or fails with its problems at file:line:col. */
export const load = async (path: string): Promise<Policy.Policy> => {
  const PolicyFile = await import('../policy/PolicyFile.js')
  const p = PolicyFile.parse(path, await readText(path, 'policy'))
  return E.isLeft(p) ? fail(p.left) : p.right
}

/** The verdict on a plan by a policy file with overrides (`RULE=REASON`); a bad override fails. */
export const judge = async (plan: Plan.Body & { readonly hash?: string }, policyPath: string, overrides: ReadonlyArray<string>): Promise<{ policy: Policy.Policy; verdict: Verdict.Verdict }> => {
  const policy = await load(policyPath)
  const [Engine, Verdict] = await Promise.all([import('../policy/Engine.js'), import('../policy/Verdict.js')])
  const given = Verdict.overrides(policy, overrides)
  if (E.isLeft(given)) return fail(given.left)
  return { policy, verdict: Verdict.of(policy, Engine.check(policy, plan), given.right) }
}

/**
 * `plait apply --policy FILE`: checks the plan before anything is touched; prints the report (to
 * stderr, so that stdout keeps apply's own output) and stops the apply (exit 1) when it fails.
 */
export const gate = async (plan: Plan.Plan, policyPath: string, overrides: ReadonlyArray<string>): Promise<void> => {
  const { verdict } = await judge(plan, policyPath, overrides)
  const Report = await import('../policy/Report.js')
  Streams.err(Report.text(verdict))
  if (!verdict.passed) fail([Diagnostic.make('Validation', `the plan fails the policy ${policyPath}; nothing was applied`, { hint: 'fix the manifest, or override a soft rule with --override RULE=REASON' })])
}

const maxBytesOf = (v: string | undefined, format: Format): number => {
  if (v === undefined) return Markdown.defaultMaxBytes
  if (format !== 'markdown') return fail([Diagnostic.make('Validation', '--max-bytes applies to --format markdown only')])
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < Markdown.minimumBytes || n > 2 ** 30) return fail([Diagnostic.make('Validation', `--max-bytes ${v}: expected a whole number of bytes from ${Markdown.minimumBytes} to ${2 ** 30}`)])
  return n
}


/** Adds `plait policy check` to a program. */
export const register = (program: Command): void => {
  const policy = program.command('policy').description('check plans against policies kept in the repository (docs/policy.md)')
  policy
    .command('check')
    .description('judge a saved plan by a policy file; exit 1 on a hard finding or an unoverridden soft one')
    .argument('<plan>', 'a plan file made by `plait plan --out`')
    .requiredOption('--policy <file>', 'the policy file (YAML rules)')
    .addOption(new Option('--format <format>', 'text, json, markdown, github or sarif').choices(['text', 'json', 'markdown', 'github', 'sarif']).default('text'))
    .option('--max-bytes <n>', `with --format markdown: the most bytes to print (default ${Markdown.defaultMaxBytes})`)
    .option('--override <rule=reason>', 'waive a soft rule, with the reason recorded in the report (repeatable)', Options.repeatable)
    .action(async (file: string, o: { policy: string; format: Format; maxBytes?: string; override?: string[] }) => {
      const maxBytes = maxBytesOf(o.maxBytes, o.format)
      const parsed = PlanFile.parse(file, await readText(file, 'plan'))
      if (E.isLeft(parsed)) return fail([parsed.left])
      const plan = parsed.right
      const { verdict } = await judge(plan, o.policy, o.override ?? [])
      const [Report, Review, Sarif, Installation] = await Promise.all([import('../policy/Report.js'), import('../policy/Review.js'), import('../policy/Sarif.js'), import('../interpreters/installation.js')])
      if (o.format === 'json') Streams.out(Streams.json(Report.json(verdict, o.policy, plan.hash)))
      else if (o.format === 'sarif') Streams.out(Streams.json(Sarif.log(verdict, Installation.version(import.meta.url))))
      else if (o.format === 'markdown') Streams.out(Review.markdown(verdict, o.policy, maxBytes))
      else if (o.format === 'github') Streams.out(Review.github(verdict))
      else Streams.out(Report.text(verdict))
      if (!verdict.passed) throw new CommanderError(1, exitCode, 'policy check failed')
    })
}
