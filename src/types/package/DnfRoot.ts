// DnfRoot: how dnf and rpm are confined to a `--root DIR`. Found by running them here (dnf 4.14,
// rpm 4.18, Debian's packages):
// - `--installroot=ROOT` installs below ROOT and keeps dnf's cache, logs, history and the rpm
//   database there (rpm's `--root=ROOT` reads the same database: both take its path from the same
//   rpm macros, Debian's `~/.rpmdb`, elsewhere `/var/lib/rpm`, below the root);
// - without more, dnf reads the host's configuration and repositories when the root has none:
//   `--setopt=reposdir=ROOT/etc/yum.repos.d` reads the root's repositories only, `--config` names
//   the root's own dnf.conf (or an empty one the interpreter writes in its own state), and
//   `--noplugins` keeps the host's plugins from running;
// - reposdir is a list split at `,` and whitespace, and dnf substitutes `$variables` in values,
//   so a root path holding any of them could name another directory (`problem` refuses them).
import type * as Root from './Root.js'

// model

export interface DnfRoot {
  readonly root: Root.Root
  /** A host path of the dnf.conf dnf reads: the root's own `etc/dnf/dnf.conf`, or an empty one. */
  readonly configFile: string
}

// validation

/**
 * Why dnf cannot be confined to this root (undefined: it can): its path is written into dnf's
 * options, where a list separator or a variable could name another directory, so only letters,
 * digits and `/ . _ + @ ~ -` may appear in it.
 */
export const problem = (root: Root.Root): string | undefined => {
  const c = [...root.path].find((ch) => !/[A-Za-z0-9/._+@~-]/.test(ch))
  return c === undefined ? undefined : `root directory ${JSON.stringify(root.path)}: contains ${JSON.stringify(c)}, which dnf's options cannot hold safely`
}

// constructors

/** The root's own dnf configuration, as a machine path. */
export const ownConfig = '/etc/dnf/dnf.conf'

/** The dnf configuration used when the root has none: dnf's defaults. */
export const emptyConfig = '[main]\n'

// interop

/** dnf's options under the root (none on the host). */
export const options = (t: DnfRoot | undefined): ReadonlyArray<string> =>
  t === undefined ? [] : [`--installroot=${t.root.path}`, `--setopt=reposdir=${t.root.path}/etc/yum.repos.d`, `--config=${t.configFile}`, '--noplugins']

/** rpm's options under the root (none on the host). */
export const rpmOptions = (t: DnfRoot | undefined): ReadonlyArray<string> => (t === undefined ? [] : [`--root=${t.root.path}`])
