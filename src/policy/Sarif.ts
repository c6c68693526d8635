// Sarif: a policy verdict as a SARIF 2.1.0 log (pure), the format code-scanning tools read: one
// run of the tool "plait" with one reporting descriptor per rule, one result per finding at its
// manifest line. Levels map advisory → note, soft → warning, hard → error; an overridden soft
// finding carries an external suppression whose justification is the recorded reason.
import type * as Policy from './Policy.js'
import type * as Verdict from './Verdict.js'

export const version = '2.1.0'
export const schema = 'https://json.schemastore.org/sarif-2.1.0.json'

/** A policy level as a SARIF result level. */
export const level = (l: Policy.Level): 'note' | 'warning' | 'error' => (l === 'advisory' ? 'note' : l === 'soft' ? 'warning' : 'error')

/** A file path as a SARIF artifact URI: an absolute path as a file: URI, a relative one as a relative reference; both percent-encoded. */
export const uri = (path: string): string => {
  const encoded = path.split('/').map(encodeURIComponent).join('/')
  return path.startsWith('/') ? `file://${encoded}` : encoded
}

/** The SARIF log of a verdict; `toolVersion` is plait's version. */
export const log = (v: Verdict.Verdict, toolVersion: string): unknown => {
  const index = new Map(v.rules.map((r, i) => [r.name, i]))
  return {
    $schema: schema,
    version,
    runs: [
      {
        tool: {
          driver: {
            name: 'plait',
            version: toolVersion,
            rules: v.rules.map((r) => ({
              id: r.name,
              shortDescription: { text: `${r.name} (${r.level})` },
              defaultConfiguration: { level: level(r.level) },
              properties: { level: r.level },
            })),
          },
        },
        results: [
          ...v.findings.map((x) => ({
            ruleId: x.rule,
            ruleIndex: index.get(x.rule) ?? 0,
            level: level(x.level),
            message: { text: x.message === '' ? x.rule : x.message },
            locations: [{ physicalLocation: { artifactLocation: { uri: uri(x.at.file) }, region: { startLine: x.at.line, startColumn: x.at.col } } }],
            ...(x.overridden !== undefined ? { suppressions: [{ kind: 'external', status: 'accepted', justification: x.overridden }] } : {}),
          })),
        ],
        invocations: [
          {
            executionSuccessful: v.errors.length === 0,
            toolExecutionNotifications: v.errors.map((e) => ({
              level: 'error',
              message: { text: e.message },
              ...(e.at !== undefined ? { locations: [{ physicalLocation: { artifactLocation: { uri: uri(e.at.file) }, region: { startLine: e.at.line, startColumn: e.at.col } } }] } : {}),
            })),
          },
        ],
      },
    ],
  }
}
