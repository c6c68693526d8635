// Kinds: the goss resource kinds plait checks natively, with their attributes (what a rule may
// expect, and the type of its value) and options (how the probe runs) (pure).

// model

/** An attribute's type: what a bare value means and which matchers make sense. */
export type AttrType = 'bool' | 'int' | 'string' | 'list' | 'text'

/** An option's type (options configure the probe, they are not checked). */
export type OptionType = 'int' | 'bool' | 'string'

export interface Kind {
  readonly attributes: Readonly<Record<string, AttrType>>
  readonly options: Readonly<Record<string, OptionType>>
}

/** The kinds, by goss's names. */
export const kinds: Readonly<Record<string, Kind>> = Object.freeze({
  file: { attributes: { exists: 'bool', mode: 'string', owner: 'string', group: 'string', filetype: 'string', contents: 'text', sha256: 'string', size: 'int' }, options: {} },
  package: { attributes: { installed: 'bool', versions: 'list' }, options: {} },
  service: { attributes: { enabled: 'bool', running: 'bool' }, options: {} },
  user: { attributes: { exists: 'bool', uid: 'int', gid: 'int', groups: 'list', home: 'string', shell: 'string' }, options: {} },
  group: { attributes: { exists: 'bool', gid: 'int' }, options: {} },
  command: { attributes: { 'exit-status': 'int', stdout: 'text', stderr: 'text' }, options: { exec: 'string', timeout: 'int' } },
  process: { attributes: { running: 'bool' }, options: {} },
  port: { attributes: { listening: 'bool', ip: 'list' }, options: {} },
  http: { attributes: { status: 'int', body: 'text', headers: 'list' }, options: { timeout: 'int', 'allow-insecure': 'bool', 'no-follow-redirects': 'bool' } },
  addr: { attributes: { reachable: 'bool' }, options: { timeout: 'int' } },
})

/** The kinds' names, for messages. */
export const names: ReadonlyArray<string> = Object.keys(kinds)

/** A probe's timeout when a rule sets none (goss's defaults: 10s for commands and http, 500ms for addr). */
export const defaultTimeoutMs = (kind: string): number => (kind === 'addr' ? 500 : 10_000)

/** The longest timeout a rule may set. */
export const maxTimeoutMs = 300_000
