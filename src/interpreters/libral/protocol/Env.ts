// Env: the environment a provider runs with. The host's is scrubbed to PATH, HOME, LANG, LC_* and
// plait's own PLAIT_* variables; PLAIT_ROOT_DIR is set exactly when a sandbox root is in use (an
// inherited one is dropped, so that a stray variable can not redirect a provider).

/** The PATH a provider gets when the host has none. */
export const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/** The variable that tells a provider the directory it must treat as "/". */
export const rootVariable = 'PLAIT_ROOT_DIR'

/** True for a host variable a provider may see. */
export const isKept = (name: string): boolean =>
  name === 'PATH' || name === 'HOME' || name === 'LANG' || name.startsWith('LC_') || (name.startsWith('PLAIT_') && name !== rootVariable)

/** The scrubbed environment; `root` is the sandbox root directory (a host path), if any. */
export const scrub = (host: Readonly<Record<string, string | undefined>>, root?: string): Readonly<Record<string, string>> => {
  const out: Record<string, string> = {}
  for (const k of Object.keys(host).sort()) {
    const v = host[k]
    if (v !== undefined && isKept(k)) out[k] = v
  }
  if (out['PATH'] === undefined) out['PATH'] = defaultPath
  if (root !== undefined && root !== '/') out[rootVariable] = root
  return Object.freeze(out)
}
