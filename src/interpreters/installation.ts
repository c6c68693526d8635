// installation: where plait's own files are (package.json, lib/), found from a module's URL by
// walking up to the directory that holds plait's package.json. The answer is the same from tsc's
// module tree (dist/interpreters/libral/discover.js), from the bundled command (dist/bin/plait.cjs)
// and from the sources under test (src/...), whatever depth the module sits at.
import { readFileSync } from 'node:fs'
import * as nodePath from 'node:path'
import { fileURLToPath } from 'node:url'

/** The directory of the installed plait package, from the URL of any module of it. */
export const packageDir = (moduleUrl: string): string => {
  const start = nodePath.dirname(fileURLToPath(moduleUrl))
  for (let dir = start; ; dir = nodePath.dirname(dir)) {
    if (isPlait(nodePath.join(dir, 'package.json'))) return dir
    if (nodePath.dirname(dir) === dir) throw new Error(`invariant: no package.json of plait above ${start}`)
  }
}

/** The version of the installed plait package. */
export const version = (moduleUrl: string): string => (JSON.parse(readFileSync(nodePath.join(packageDir(moduleUrl), 'package.json'), 'utf8')) as { version: string }).version

const isPlait = (file: string): boolean => {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'plait'
  } catch {
    return false
  }
}
