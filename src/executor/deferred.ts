// deferred: works out a deferred value at its resource's turn, once the earlier resources whose
// files it reads have run, and plans the resource on the spot with the pure planner. The value is
// rendered from the plan's snapshot and the managed files as they now are on the machine; nothing
// else is read, so the outcome depends only on the plan and what the run itself did.
import * as E from 'fp-ts/lib/Either.js'
import type * as Deferred from '../core/Deferred.js'
import * as Mode from '../core/Mode.js'
import type * as Plan from '../core/Plan.js'
import type { Accounts } from '../core/Probe.js'
import type * as Step from '../core/Step.js'
import type { FileStep } from '../core/Step.js'
import * as ExecDeferred from '../types/exec/deferred.js'
import type { Machine } from '../interpreters/Machine.js'
import * as DeferredContent from '../types/file/deferred.js'
import * as FilePlan from '../types/file/plan.js'
import type { FileSpec } from '../types/file/Spec.js'
import * as Managed from './managed.js'
import { observeOne } from './observe.js'

/** A resolved resource: its steps and desired state as if planned now, and what the value became. */
export interface Resolved {
  readonly steps: ReadonlyArray<FileStep>
  readonly desired: Plan.FileDesired
  readonly note: string
}

/** Works out a deferred resource's content and plans the resource against the machine as it is now. */
export const resolve = async (machine: Machine, r: Plan.FileResourcePlan & { readonly deferred: Deferred.Deferred }, accounts: Accounts): Promise<E.Either<string, Resolved>> => {
  const d = r.deferred
  const read = await Managed.readAll(machine, d.managed)
  if (E.isLeft(read)) return read
  const worked = DeferredContent.contentOf(d, read.right)
  if (E.isLeft(worked)) return worked
  const { content, bytes: want } = worked.right
  const mode = r.desired.mode === undefined ? undefined : Mode.parse(r.desired.mode)
  const spec: FileSpec = {
    _tag: 'file',
    id: r.id,
    path: r.name,
    at: { file: r.at, line: 0, col: 0 },
    ensure: r.desired.ensure,
    content,
    force: r.desired.force,
    ...(r.desired.owner !== undefined ? { owner: r.desired.owner.name } : {}),
    ...(r.desired.group !== undefined ? { group: r.desired.group.name } : {}),
    ...(mode !== undefined && E.isRight(mode) ? { mode: mode.right } : {}),
  }
  const status = await observeOne(machine, spec, want)
  if (E.isLeft(status)) return E.left(status.left.message)
  const planned = FilePlan.plan(spec, want, status.right, accounts)
  if (E.isLeft(planned)) return E.left(planned.left.message)
  const note = d.property === 'source' ? `content read from ${d.path} (${want.data.length} bytes), after ${d.after.join(', ')}` : `content worked out after ${d.after.join(', ')} (${want.data.length} bytes)`
  return E.right({ steps: planned.right.steps, desired: planned.right.desired, note })
}

/** Works out a deferred exec's command at its turn, from the managed files as they are now. */
export const resolveExec = async (machine: Machine, r: Plan.ExecResourcePlan & { readonly deferred: NonNullable<Plan.ExecResourcePlan['deferred']> }): Promise<E.Either<string, Step.ExecRun>> => {
  const read = await Managed.readAll(machine, r.deferred.managed)
  if (E.isLeft(read)) return read
  const texts = DeferredContent.textsOf(r.deferred.managed, read.right)
  return E.isLeft(texts) ? texts : ExecDeferred.workOut(r.deferred, texts.right)
}
