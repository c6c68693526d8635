// DnfRoot: how dnf is confined to a `--root DIR`: `--installroot` installs below ROOT and keeps its
// cache, logs and rpm database there; its repositories are read from ROOT/etc/yum.repos.d only
// (by default dnf falls back to the host's when the root has none). Checking this against the real
// dnf (Debian's dnf package) is the DNF provider's work: dnf is not installed on this machine.
import type * as Root from './Root.js'

// interop

/** dnf's options under the root (none on the host). */
export const options = (root: Root.Root | undefined): ReadonlyArray<string> =>
  root === undefined ? [] : [`--installroot=${root.path}`, `--setopt=reposdir=${root.path}/etc/yum.repos.d`]
