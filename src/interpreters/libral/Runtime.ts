// Runtime: the libral providers a saved plan uses, loaded again from the paths the plan recorded
// and checked against the recorded digests, with the session that runs them. Apply refuses a plan
// whose provider changed (its executable or its metadata) since the plan was made, like it refuses
// a plan whose files changed.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type * as Plan from '../../core/Plan.js'
import * as Discover from './discover.js'
import type { Target } from './invoke.js'
import type { Session } from './Session.js'

// model

export interface Runtime {
  readonly session: Session
  /** The plan's providers by full name. */
  readonly targets: ReadonlyMap<string, Target>
  /** The target of one of the plan's providers (opened from the same plan, so it is there). */
  readonly target: (name: string) => Target
}

// constructors

/** Loads the plan's providers; every one that is missing, changed or unsuitable is a diagnostic. */
export const open = async (session: Session, providers: ReadonlyArray<Plan.Provider>): Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Runtime>> => {
  const problems: Diagnostic.Diagnostic[] = []
  const targets = new Map<string, Target>()
  for (const p of providers) {
    const loaded = await Discover.load(session.context, p.path)
    if (E.isLeft(loaded)) {
      problems.push(Diagnostic.make('Stale', `provider ${p.name} (${p.path}) cannot be loaded: ${loaded.left.map((d) => d.message).join('; ')}`))
      continue
    }
    const got = loaded.right
    if (got.meta.qname !== p.name) {
      problems.push(Diagnostic.make('Stale', `${p.path} is now provider ${got.meta.qname}, not ${p.name} as when the plan was made`))
    } else if (got.digest !== p.sha256) {
      problems.push(Diagnostic.make('Stale', `provider ${p.name} (${p.path}) changed since the plan was made`, { hint: 'make and review a new plan with this provider' }))
    } else if (E.isLeft(got.suitable)) {
      problems.push(Diagnostic.make('Apply', `provider ${p.name} is not suitable on this system: ${got.suitable.left}`))
    } else {
      targets.set(p.name, { meta: got.meta, path: got.path })
    }
  }
  const target = (name: string): Target => {
    const t = targets.get(name)
    if (t === undefined) throw new Error(`invariant: provider ${name} is not in the plan's providers`)
    return t
  }
  return problems.length > 0 ? E.left(problems) : E.right({ session, targets, target })
}
