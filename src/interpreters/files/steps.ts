// steps: the interpreter of `file.*` steps, on any Machine. Each is journaled with its undo: a
// backup of what it replaces or removes, or the paths it creates.
import * as E from 'fp-ts/lib/Either.js'
import * as Fault from '../../core/Fault.js'
import * as Mode from '../../core/Mode.js'
import type * as Plan from '../../core/Plan.js'
import * as PosixPath from '../../core/PosixPath.js'
import * as Step from '../../types/file/Step.js'
import type { Machine } from '../Machine.js'
import type { StepFamily } from '../steps.js'
import * as Undo from './undo.js'

/** The temp file a write uses: hidden, beside the target, named after the run's pid and step. */
export const tempName = (path: string, pid: number, seq: number): string => PosixPath.sibling(path, `.${PosixPath.basename(path).slice(0, 200)}.plait-${pid}-${seq}`)

const attrs = (s: { owner: Step.Principal; group: Step.Principal; mode: string }) => ({ uid: s.owner.id, gid: s.group.id, mode: E.getOrElse(() => 0)(Mode.parse(s.mode)) })

/** Describes a file step in one line. */
export const describe = (step: Plan.Step): string => {
  const s = step as Step.FileStep
  switch (s._tag) {
    case 'file.write':
      return `write ${s.path} (${s.content.size} bytes, ${s.owner.name}:${s.group.name} ${s.mode})`
    case 'file.mkdir':
      return `create directory ${s.path} (${s.owner.name}:${s.group.name} ${s.mode})`
    case 'file.attrs':
      return `set ${s.path} to ${s.owner.name}:${s.group.name} ${s.mode}`
    case 'file.remove':
      return `remove ${s.kind === 'other' ? 'special file' : s.kind} ${s.path}${s.recursive ? ' with its contents' : ''}`
  }
}

/** The `file` family over a machine. */
export const family = (machine: Machine): StepFamily => ({
  describe,
  prepare: (step, backup, before) => Undo.prepare(machine, step as Step.FileStep, backup, before),
  temp: (step, pid, seq) => (step._tag === 'file.write' ? tempName((step as Step.FileWrite).path, pid, seq) : undefined),
  run: (step, env) => {
    const s = step as Step.FileStep
    switch (s._tag) {
      case 'file.write':
        return machine.writeFileAtomic(s.path, Step.contentBytes(s.content), attrs(s), PosixPath.basename(env.temp!))()
      case 'file.mkdir':
        return machine.mkdirp(s.path, attrs(s))()
      case 'file.attrs':
        return machine.setAttrs(s.path, attrs(s))()
      case 'file.remove':
        return machine.remove(s.path, { recursive: s.recursive })()
    }
  },
  failure: Fault.render,
  batchable: (step) => {
    const s = step as Step.FileStep
    // a write of a file, or a mkdir (the caller makes sure its parent exists, so it creates one directory)
    if (s._tag !== 'file.write' && s._tag !== 'file.mkdir') return undefined
    return { kind: s._tag, path: s.path, directory: PosixPath.dirname(s.path), staged: s._tag === 'file.write' }
  },
  stage: (step, env) => {
    const s = step as Step.FileWrite
    return machine.writeTemp(s.path, Step.contentBytes(s.content), attrs(s), PosixPath.basename(env.temp!))()
  },
  runStaged: (step, env) => machine.renameTemp((step as Step.FileWrite).path, PosixPath.basename(env.temp!))(),
})
