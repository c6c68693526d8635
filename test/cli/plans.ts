// plans: arbitrary plans for the review renderers' laws: real plans of the golden corpus (every
// shape the planners make), their strings replaced by hostile ones, joined into plans of any size.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fc } from '@fast-check/vitest'
import * as Plan from '../../src/core/Plan.js'
import { replaced, stringPaths } from '../support/stringPaths.js'

const dir = join(import.meta.dirname, '..', '..', 'plans')

/** The golden corpus's plans. */
export const corpus: ReadonlyArray<Plan.Plan> = readdirSync(dir)
  .filter((d) => existsSync(join(dir, d, 'expected.json')))
  .map((d) => JSON.parse(readFileSync(join(dir, d, 'expected.json'), 'utf8')) as Plan.Plan)

/** Strings rich in what terminals, Markdown, HTML and workflow commands interpret. */
export const hostile: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('\n', '\r', '\t', '\x1b[2J', '\x1b[31m', '\x9b1A', '\u202e', '```', '````````', '</details>', '<script>', '::warning::x', '%0A', '@everyone', '| a |', '*_~`', ':,', '&amp;', 'é', '😀'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 10 },
  )
  .map((parts) => parts.join(''))

const structural = new Set(['_tag', 'action', 'encoding', 'kind', 'format', 'type', 'ensure', 'at', 'id'])


/** One resource of the corpus with some strings hostile, its id made unique by `n` and a hostile name. */
const resource = (n: number): fc.Arbitrary<Plan.ResourcePlan> =>
  fc
    .constantFrom(...corpus.flatMap((p) => p.resources))
    .chain((r) => {
      const paths = stringPaths(r, structural)
      const edits = paths.length === 0 ? fc.constant([]) : fc.array(fc.tuple(fc.nat({ max: paths.length - 1 }), hostile), { maxLength: 4 })
      return fc.tuple(edits, hostile, fc.nat({ max: 500 }), hostile).map(([es, name, line, file]) => {
        const edited = es.reduce<unknown>((acc, [i, s]) => replaced(acc, paths[i]!, s), r) as Plan.ResourcePlan
        return { ...edited, id: `${r.type}#${n}${name}`, at: `${file}:${line + 1}:3` }
      })
    })

/** A plan of up to `max` resources drawn from the corpus, hostile strings in its names and contents. */
export const plan = (max = 40): fc.Arbitrary<Plan.Plan> =>
  fc
    .tuple(fc.constantFrom(...corpus), fc.nat({ max }), hostile, fc.boolean())
    .chain(([base, n, manifest, rooted]) =>
      fc.tuple(...Array.from({ length: n }, (_, i) => resource(i))).map((resources) => ({
        ...base,
        root: rooted ? `/tmp/${manifest}` : '/',
        inputs: { ...base.inputs, manifest: { ...base.inputs.manifest, path: manifest } },
        resources,
        summary: Plan.summarize(resources),
      })),
    )
