// ResourcePath: how Holo names a file of the virtual resource directory for a person
// (TranslateIfResourcePath). A path below the virtual resource root is a static resource file,
// named by its physical path ($HOLO_ROOT_DIR/usr/share/holo/REL), or a generated one, named
// GENERATOR::REL (the generator's path below $HOLO_ROOT_DIR/usr/share/holo/generators). Any other
// text is returned as it is.
import * as PosixPath from '../../../core/PosixPath.js'

// model

export interface Names {
  /** $HOLO_ROOT_DIR as given. */
  readonly root: string
  /** The virtual resource root, as the plugins were given it, and as an absolute path. */
  readonly virtualRoots: ReadonlyArray<string>
  /** Resource file (relative to the virtual root) → the generator that made it (relative to the generators directory). */
  readonly generated: ReadonlyMap<string, string>
}

// combinators

/** The name a person knows a path by. */
export const translate =
  (n: Names) =>
  (input: string): string => {
    const root = n.virtualRoots.find((r) => input.startsWith(r + '/') && input.length > r.length + 1)
    if (root === undefined) return input
    const rel = input.slice(root.length + 1)
    const generator = n.generated.get(rel)
    return generator === undefined ? PosixPath.normalize(`${n.root}/usr/share/holo/${rel}`) : `${PosixPath.normalize(`${n.root}/usr/share/holo/generators/${generator}`)}::${rel}`
  }
