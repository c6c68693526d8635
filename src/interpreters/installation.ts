// installation: where plait's own files are (package.json, lib/), found from a module's URL by
// walking up to the directory that holds plait's package.json. The answer is the same from tsc's
// module tree (dist/interpreters/libral/discover.js), from the bundled command (dist/bin/plait.cjs)
// and from the sources under test (src/...), whatever depth the module sits at. It is looked up
// once per directory a process asks from (the bundled command knows its version from the build,
// and reads package.json only for its lib/ paths). What is kept is where plait itself is
// installed, a host path that the process runs from, never a path of the machine it manages: it
// is not one of the resolved paths that may change under a run.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'
import { memo } from '../core/Memo.js'

interface Package {
  readonly dir: string
  readonly version: string
}

/** The nearest package.json of plait, with a version, at or above a directory. */
const packageAbove = memo((start: string): Package => {
  for (let dir = start; ; dir = nodePath.dirname(dir)) {
    const version = plaitVersion(nodePath.join(dir, 'package.json'))
    if (version !== undefined) return { dir, version }
    if (nodePath.dirname(dir) === dir) throw new Error(`invariant: no package.json of plait, with a version, above ${start}`)
  }
})

const lookup = (moduleUrl: string): Package => packageAbove(nodePath.dirname(fileURLToPath(moduleUrl)))

/** The directory of the installed plait package, from the URL of any module of it. */
export const packageDir = (moduleUrl: string): string => lookup(moduleUrl).dir

/**
 * The version of the bundled command, as scripts/bundle.mjs built it from package.json: with it, a
 * start reads no package.json for the version (0.7 to 1 ms of each start, `--version` and every
 * plan alike). Undefined where nothing defines it (tsc's module tree, the sources under test).
 */
declare const __PLAIT_VERSION__: string | undefined
const built = typeof __PLAIT_VERSION__ === 'string' ? __PLAIT_VERSION__ : undefined

/** The version of the installed plait package. */
export const version = (moduleUrl: string): string => built ?? lookup(moduleUrl).version

/** The version a package.json gives, when it is plait's (undefined: not there, not JSON, another package's). */
const plaitVersion = (file: string): string | undefined => {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown }
    return json.name === 'plait' && typeof json.version === 'string' ? json.version : undefined
  } catch {
    return undefined
  }
}
