// Report, Paragraphs, GitDiff and ResourcePath: Holo 3's words on a terminal, byte for byte.
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import * as Entity from '../../../../src/interpreters/holo/protocol/Entity.js'
import * as GitDiff from '../../../../src/interpreters/holo/protocol/GitDiff.js'
import * as Paragraphs from '../../../../src/interpreters/holo/protocol/Paragraphs.js'
import * as Report from '../../../../src/interpreters/holo/protocol/Report.js'
import * as ResourcePath from '../../../../src/interpreters/holo/protocol/ResourcePath.js'

const script = Entity.make({ plugin: 'run-scripts', id: 'script:01-successful.sh', actionVerb: 'Executing', actionReason: '', sources: [], info: [{ key: 'found at', value: 'target/usr/share/holo/run-scripts/01-successful.sh' }] })

describe('entity reports', () => {
  it('aligns info lines to 12 columns in scan, and to the verb in apply (as in Holo test cases)', () => {
    expect(Report.entity(script, false)).toBe('script:01-successful.sh\n    found at target/usr/share/holo/run-scripts/01-successful.sh\n')
    expect(Report.entity(script, true)).toBe('Executing script:01-successful.sh\n found at target/usr/share/holo/run-scripts/01-successful.sh\n')
  })

  it('adds the reason in parentheses, and counts a width in code points', () => {
    const e = Entity.make({ ...script, actionVerb: 'Scrubbing', actionReason: 'all definition files have been deleted', info: [{ key: 'ünï', value: 'v' }] })
    expect(Report.entity(e, false)).toBe('script:01-successful.sh (all definition files have been deleted)\n         ünï v\n')
    expect(Report.entity(e, true)).toBe('Scrubbing script:01-successful.sh (all definition files have been deleted)\n      ünï v\n')
  })

  it('writes errors and warnings with their markers, and indents a diff by four spaces', () => {
    expect(Report.error('exit status 1')).toBe('!! exit status 1\n')
    expect(Report.warning('Skipping plugin: foo\n')).toBe('>> Skipping plugin: foo\n')
    expect(Report.indent('--- a\n+++ b\n\n-x\n')).toBe('    --- a\n    +++ b\n    \n    -x\n')
    expect(Report.indent('')).toBe('')
    expect(Report.indent('a\rb\n')).toBe('    a\rb\n')
  })
})

describe('paragraphs', () => {
  const run = (ops: ReadonlyArray<readonly [1 | 2, string] | 'end'>): string => {
    let s = Paragraphs.initial
    let out = ''
    for (const op of ops) {
      const [next, writes] = op === 'end' ? Paragraphs.end(s) : Paragraphs.write(s, op[0], op[1])
      s = next
      out += writes.map((w) => w.text).join('')
    }
    return out
  }

  it('starts with a newline, and ends paragraphs with one blank line', () => {
    expect(run(['end'])).toBe('')
    expect(run([[1, 'a\n'], 'end', [2, '!! b\n'], 'end', 'end'])).toBe('\na\n\n!! b\n\n')
    expect(run([[1, 'a'], 'end'])).toBe('\na\n\n')
    expect(run([[1, 'a\n'], [1, '\n'], [1, '\n'], 'end'])).toBe('\na\n\n\n')
  })

  test.prop([fc.array(fc.oneof(fc.constant('end' as const), fc.tuple(fc.constantFrom(1 as const, 2 as const), fc.string({ maxLength: 6 }))), { maxLength: 12 })])(
    'after a paragraph ends, any output ends in a blank line; without output, nothing is written',
    (ops) => {
      const text = run([...ops, 'end'])
      const wrote = ops.some((op) => op !== 'end' && op[1] !== '')
      expect(wrote ? text.startsWith('\n') && text.endsWith('\n\n') : text === '').toBe(true)
    },
  )
})

describe("Holo's diff form", () => {
  it('names the files as the plugin did and drops index lines', () => {
    const git = 'diff --git a/tmp/x/expected.toml b/tmp/x/actual.toml\nindex 1234..5678 100644\n--- a/tmp/x/expected.toml\n+++ b/tmp/x/actual.toml\n@@ -1 +1 @@\n-a\n+b\n'
    expect(GitDiff.rewrite(git, 'target/tmp/holo/e.toml', 'target/tmp/holo/a.toml')).toBe(
      'diff --holo target/tmp/holo/e.toml target/tmp/holo/a.toml\n--- target/tmp/holo/e.toml\n+++ target/tmp/holo/a.toml\n@@ -1 +1 @@\n-a\n+b\n',
    )
  })

  it('keeps /dev/null lines and mode lines of a new file', () => {
    const git = 'diff --git a/target/etc/x b/target/etc/x\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/target/etc/x\n@@ -0,0 +1 @@\n+x\n'
    expect(GitDiff.rewrite(git, 'target/var/lib/holo/files/provisioned/etc/x', 'target/etc/x')).toBe(
      'diff --holo target/var/lib/holo/files/provisioned/etc/x target/etc/x\nnew file mode 100644\n--- /dev/null\n+++ target/etc/x\n@@ -0,0 +1 @@\n+x\n',
    )
  })

  test.prop([fc.string({ maxLength: 300 })])('leaves a text without header lines as it is', (s) => {
    fc.pre(!/(^|\n)(index |diff --git |--- a\/|\+\+\+ b\/)/.test(s))
    expect(GitDiff.rewrite(s, 'a', 'b')).toBe(s)
  })
})

describe('resource paths', () => {
  const names = { root: './target/', virtualRoots: ['target/tmp/holo.123/generated-resources', '/w/case/target/tmp/holo.123/generated-resources'], generated: new Map([['files/etc/gen.conf', 'make.sh']]) }

  it('names a static resource file by its physical path and a generated one by its generator', () => {
    const t = ResourcePath.translate(names)
    expect(t('target/tmp/holo.123/generated-resources/run-scripts/01.sh')).toBe('target/usr/share/holo/run-scripts/01.sh')
    expect(t('/w/case/target/tmp/holo.123/generated-resources/files/etc/gen.conf')).toBe('target/usr/share/holo/generators/make.sh::files/etc/gen.conf')
    expect(t('target/etc/other')).toBe('target/etc/other')
    expect(t('target/tmp/holo.123/generated-resources')).toBe('target/tmp/holo.123/generated-resources')
  })
})
