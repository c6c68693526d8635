// env: the environment of a Holo plugin. From the host's, only PATH, HOME, LANG, LANGUAGE, LC_*,
// TZ, TMPDIR, USER, LOGNAME and HOLO_* pass (a default PATH when it has none; Holo's own plugins
// and test suites read HOLO_* settings such as HOLO_CURRENT_DISTRIBUTION); then the variables of
// holo-plugin-interface(7), which replace any inherited ones: HOLO_API_VERSION, HOLO_ROOT_DIR,
// HOLO_RESOURCE_DIR, HOLO_STATE_DIR and HOLO_CACHE_DIR. Paths are given as Holo gives them:
// relative when the root or $TMPDIR is.

/** The PATH a plugin gets when the host has none. */
export const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/** True for a host variable a plugin may see. */
export const isKept = (name: string): boolean => ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'USER', 'LOGNAME'].includes(name) || name.startsWith('LC_') || name.startsWith('HOLO_')

/** The host's variables a plugin may see. */
export const scrub = (host: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string>> => {
  const out: Record<string, string> = {}
  for (const k of Object.keys(host).sort()) {
    const v = host[k]
    if (v !== undefined && isKept(k)) out[k] = v
  }
  if (out['PATH'] === undefined) out['PATH'] = defaultPath
  return Object.freeze(out)
}

/** Holo's path normalization for the variables: "/" stays, a leading "./" and a trailing "/" go. */
export const normalize = (p: string): string => (p === '/' ? '/' : p.replace(/^\.\//u, '').replace(/\/$/u, ''))

/** A plugin's whole environment. */
export const of = (
  base: Readonly<Record<string, string>>,
  dirs: { readonly root: string; readonly resourceDir: string; readonly stateDir: string; readonly cacheDir: string },
  apiVersion: number,
): Readonly<Record<string, string>> =>
  Object.freeze({
    ...base,
    HOLO_API_VERSION: String(apiVersion),
    HOLO_CACHE_DIR: normalize(dirs.cacheDir),
    HOLO_RESOURCE_DIR: normalize(dirs.resourceDir),
    HOLO_STATE_DIR: normalize(dirs.stateDir),
    HOLO_ROOT_DIR: dirs.root,
  })
