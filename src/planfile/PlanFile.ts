// PlanFile: the only owner of plan.json: canonical serialization, content hash, version and integrity checks.
import * as E from 'fp-ts/lib/Either.js'
import { PathReporter } from 'io-ts/lib/PathReporter.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Digest from '../core/Digest.js'
import * as Plan from '../core/Plan.js'

/** The content hash of a plan body: sha256 of its canonical JSON. */
export const hashOf = (body: Plan.Body): string => Digest.ofValue(Plan.Body.encode(body))

/** Seals a body with its hash. */
export const seal = (body: Plan.Body): Plan.Plan => ({ ...body, hash: hashOf(body) })

/** Serializes a plan: sorted keys, two-space indentation, trailing newline; byte-identical for equal plans. */
export const serialize = (plan: Plan.Plan): string => JSON.stringify(Digest.sortKeys(Plan.Plan.encode(plan)), null, 2) + '\n'

/**
 * Parses plan.json text: refuses malformed JSON, an unknown format, a malformed plan, and a plan
 * whose content does not match its hash (tampered or corrupted). `file` names it in messages.
 */
export const parse = (file: string, text: string): E.Either<Diagnostic.Diagnostic, Plan.Plan> => {
  const fail = (message: string, hint?: string): E.Either<Diagnostic.Diagnostic, never> =>
    E.left(Diagnostic.make('PlanFile', message, { hint, at: { file, line: 1, col: 1 } }))
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    return fail(`not a plan file: invalid JSON (${(e as Error).message})`)
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail('not a plan file: expected a JSON object')
  const format = (raw as Record<string, unknown>)['format']
  if (format !== Plan.formatVersion) {
    return fail(
      typeof format === 'string' ? `unknown plan format "${format}"; this plait reads "${Plan.formatVersion}"` : 'not a plan file: no "format" field',
      'make the plan again with this version of plait',
    )
  }
  const decoded = Plan.Plan.decode(raw)
  if (E.isLeft(decoded)) {
    const first = PathReporter.report(decoded)[0] ?? 'malformed'
    return fail(`malformed plan: ${first}`)
  }
  const plan = decoded.right
  const { hash, ...body } = plan
  const actual = hashOf(body)
  if (actual !== hash) {
    return fail(`plan has been modified since it was made: hash ${hash} does not match its content (${actual})`, 'review and make the plan again; plait never applies a tampered plan')
  }
  return E.right(plan)
}
