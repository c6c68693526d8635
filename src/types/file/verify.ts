// verify: the desired-state check run after apply: what a file's observed status still gets wrong.
import * as Mode from '../../core/Mode.js'
import type { FileDesired } from './ResourcePlan.js'
import type { FileStatus } from './Status.js'

/** Lists how an observed status misses the desired state; empty when it is reached. */
export const verify = (d: FileDesired, s: FileStatus): ReadonlyArray<string> => {
  const out: string[] = []
  const attrs = (x: { uid: number; gid: number; mode: number }): void => {
    if (d.owner !== undefined && x.uid !== d.owner.id) out.push(`owner is ${x.uid}, wanted ${d.owner.id}`)
    if (d.group !== undefined && x.gid !== d.group.id) out.push(`group is ${x.gid}, wanted ${d.group.id}`)
    if (d.mode !== undefined && Mode.format(x.mode) !== d.mode) out.push(`mode is ${Mode.format(x.mode)}, wanted ${d.mode}`)
  }
  switch (d.ensure) {
    case 'absent':
      if (s._tag !== 'Absent') out.push(`still exists (${s._tag.toLowerCase()})`)
      break
    case 'directory':
      if (s._tag !== 'Directory') out.push(`is ${s._tag.toLowerCase()}, wanted a directory`)
      else attrs(s)
      break
    case 'present':
      if (s._tag !== 'File') out.push(`is ${s._tag.toLowerCase()}, wanted a regular file`)
      else {
        if (d.content !== undefined && s.sha256 !== d.content.sha256) out.push(`content sha256 is ${s.sha256.slice(0, 12)}, wanted ${d.content.sha256.slice(0, 12)}`)
        attrs(s)
      }
      break
  }
  return out
}
