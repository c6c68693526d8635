// AptRoot: how apt-get, apt-cache and the dpkg they run are confined to a `--root DIR`. Found by
// running them here (apt 2.6, dpkg 1.21):
// - `-o Dir=ROOT` moves apt's sources, lists, caches, logs and dpkg status file below ROOT, but
//   apt has by then read the host's /etc/apt/apt.conf.d, whose hooks (DPkg::Post-Invoke,
//   DPkg::Pre-Install-Pkgs, APT::Update::Post-Invoke-Success) would still run host programs. A
//   configuration file named by APT_CONFIG is read before that directory, and a `Dir` set in it
//   makes apt read ROOT/etc/apt/apt.conf.d instead: the file `configText` gives, which the
//   interpreter writes (outside the root, in its own state) and names by `configFile`;
// - apt runs dpkg without any root: `DPkg::Options::=--root=ROOT` makes dpkg install below ROOT
//   and use ROOT/var/lib/dpkg, and `--log=ROOT/var/log/dpkg.log` keeps its log there (without it
//   dpkg appends to the host's /var/log/dpkg.log). Maintainer scripts run chrooted into ROOT.
import type * as Root from './Root.js'

// model

export interface AptRoot {
  readonly root: Root.Root
  /** A host path of a file holding exactly `configText(root)`, written before apt runs. */
  readonly configFile: string
}

// validation

/**
 * Why apt cannot be confined to this root (undefined: it can): the root is written in quotes into
 * apt's configuration, where `"` would end the value and `;`, `{`, `}` or `\` could add options
 * (a `DPkg::Pre-Invoke` would run a command), so none of them may appear in its path.
 */
export const problem = (root: Root.Root): string | undefined => {
  const c = /["{};\\]/.exec(root.path)?.[0]
  return c === undefined ? undefined : `root directory ${JSON.stringify(root.path)}: contains ${JSON.stringify(c)}, which apt's configuration cannot hold safely`
}

// constructors

/** The apt configuration file that keeps apt inside the root: only `Dir`. */
export const configText = (root: Root.Root): string => `Dir "${root.path}/";\n`

// interop

/** The environment entries apt needs under the root (none on the host). */
export const environment = (t: AptRoot | undefined): ReadonlyArray<string> => (t === undefined ? [] : [`APT_CONFIG=${t.configFile}`])

/** apt's own options under the root (none on the host); `Dir` again, so the command line says where it acts. */
export const aptOptions = (t: AptRoot | undefined): ReadonlyArray<string> => (t === undefined ? [] : ['-o', `Dir=${t.root.path}/`])

/** The options apt passes on to dpkg under the root (none on the host). */
export const dpkgOptions = (t: AptRoot | undefined): ReadonlyArray<string> =>
  t === undefined ? [] : ['-o', `DPkg::Options::=--root=${t.root.path}`, '-o', `DPkg::Options::=--log=${t.root.path}/var/log/dpkg.log`]
