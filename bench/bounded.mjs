// bounded: work that once grew with the square of its input, timed through the CLI as a user meets
// it, so that it stays linear.
//
// - `plait plan` of one file whose content is rewritten, at the size up to which a plan shows a
//   diff (256 KiB). The least diff costs about the square of the lines it changes, so plait
//   searches for it only up to an edit limit (src/core/UnifiedDiff.ts); these are the two costliest
//   cases left: every line changed (the search is not begun), and every fifth line changed.
// - `plait validate` of a manifest whose `data` map has 20,000 keys and an anchor (so the yaml
//   library reads it, not plait's block reader). The library's own check that keys are unique
//   compares each key with every earlier one; plait checks them in one pass (src/manifest/YamlKeys.ts).
// - `plait compile` of a data hierarchy of 10,000 `merge: deep` sections over 10,000 keys, each
//   section setting one key. The merge rebuilt the whole data map for each section; it now merges
//   every section into one tree (src/manifest/DeepMerge.ts).
// - `plait plan` of 10,000 commands and one more that subscribes to all of them. Planners scanned
//   the earlier resources for each id; they look ids up now (src/compiler/plan.ts, earlier).
//
// Prints the median of each.
//
//   node bench/bounded.mjs [--runs 3]     (standalone; bench/run.mjs calls benchBounded)
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { runCli } from './diff.mjs'
import { account } from './workload.mjs'

const LINES = 9000
const KEYS = 20000
const SECTIONS = 10000
const EXECS = 10000

/** A data hierarchy of `n` deep-merge sections over `n` keys, each section setting one key. */
const hierarchy = (n) => {
  const out = ['hierarchy:', '  merge: deep', '  order:', ...Array.from({ length: n }, (_, i) => `    - s${i}`), 'data:']
  for (let i = 0; i < n; i++) out.push(`  k${i}: ${i}`)
  out.push('overrides:')
  for (let i = 0; i < n; i++) out.push(`  s${i}:`, `    k${i}: x${i}`)
  out.push('ccm:', '  resources:', '    - exec:', '        - x:', `            command: "/bin/echo {{ lookup('data.k${n - 1}') }}"`)
  return out.join('\n') + '\n'
}

/** `n` commands, then one that subscribes to every one of them. */
const subscriber = (n) => {
  const out = ['ccm:', '  resources:', '    - exec:']
  for (let i = 0; i < n; i++) out.push(`        - c${i}:`, '            command: /bin/true')
  out.push('        - last:', '            command: /bin/true', '            subscribe:', ...Array.from({ length: n }, (_, i) => `              - exec#c${i}`))
  return out.join('\n') + '\n'
}

/** 9,000 lines of about 28 bytes (some 250 KiB); line i is `tag`'s own when `changed(i)`, else shared. */
const text = (tag, changed) => Array.from({ length: LINES }, (_, i) => (changed(i) ? `${tag} setting ${i} = ${(i * 7919) % 100003}\n` : `shared setting ${i} = on\n`)).join('')

/** The median wall time of `runs` runs of `plait ARGS`, each checked by `ok` (else an error naming `what`). */
const medianOf = async (plait, args, runs, what, ok) => {
  const ms = []
  for (let i = 0; i < runs; i++) {
    const r = await runCli(plait, args)
    if (!ok(r)) throw new Error(`${what}: unexpected result (exit ${r.code})\n${r.stdout.slice(0, 1500)}\n${r.stderr.slice(0, 1500)}`)
    ms.push(r.ms)
  }
  return [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]
}

/** Times each case `runs` times; the bench's lines (median wall time of the CLI). */
export async function benchBounded(plait, work, { runs = 3 } = {}) {
  const { owner, group } = account()
  const dir = mkdtempSync(join(work, 'bounded-'))
  try {
    const cases = [
      ['every line changed', () => true],
      ['every fifth line changed', (i) => i % 5 === 0],
    ]
    const lines = []
    for (const [what, changed] of cases) {
      const here = join(dir, String(lines.length))
      mkdirSync(join(here, 'root', 'etc'), { recursive: true })
      const root = realpathSync(join(here, 'root'))
      writeFileSync(join(root, 'etc', 'app.conf'), text('old', changed))
      writeFileSync(join(here, 'app.conf'), text('new', changed))
      const manifest = join(here, 'manifest.yaml')
      writeFileSync(manifest, `ccm:\n  resources:\n    - file:\n        - /etc/app.conf:\n            ensure: present\n            source: app.conf\n            owner: ${owner}\n            group: ${group}\n            mode: "0644"\n`)
      const ms = await medianOf(plait, ['plan', manifest, '--root', root], runs, `plan of a rewritten file (${what})`, (r) => r.code === 0 && r.stdout.includes('Plan: 0 to create, 1 to change') && r.stdout.includes('@@ '))
      lines.push(`  ${what}: median ${ms.toFixed(0)} ms`)
    }
    const manifest = join(dir, 'data.yaml')
    writeFileSync(manifest, `data:\n  first: &first 1\n${Array.from({ length: KEYS }, (_, i) => `  key${i}: ${i}\n`).join('')}ccm:\n  resources:\n    - file:\n        - /absent: {ensure: absent}\n`)
    const ms = await medianOf(plait, ['validate', manifest], runs, `validate of a data map of ${KEYS} keys`, (r) => r.code === 0 && r.stdout.includes('valid'))
    const hiera = join(dir, 'hierarchy.yaml')
    writeFileSync(hiera, hierarchy(SECTIONS))
    const merged = await medianOf(plait, ['compile', hiera], runs, `compile of ${SECTIONS} deep-merge sections`, (r) => r.code === 0 && r.stdout.includes(`x${SECTIONS - 1}`))
    const subscribing = join(dir, 'subscribe.yaml')
    writeFileSync(subscribing, subscriber(EXECS))
    mkdirSync(join(dir, 'root'))
    const planned = await medianOf(plait, ['plan', subscribing, '--root', join(dir, 'root')], runs, `plan of a command subscribing to ${EXECS}`, (r) => r.code === 0 && r.stdout.includes('exec#last'))
    return [
      `plan of one rewritten file of ${LINES.toLocaleString('en-US')} lines (about 250 KiB, its diff shown), CLI:`,
      ...lines,
      `validate of a manifest whose data map has ${KEYS.toLocaleString('en-US')} keys, read by the yaml library, CLI: median ${ms.toFixed(0)} ms`,
      `compile of a data hierarchy of ${SECTIONS.toLocaleString('en-US')} deep-merge sections over as many keys, CLI: median ${merged.toFixed(0)} ms`,
      `plan of ${EXECS.toLocaleString('en-US')} commands and one subscribing to them all, CLI: median ${planned.toFixed(0)} ms`,
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } })
  const plait = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin', 'plait.js')
  const work = mkdtempSync(join(tmpdir(), 'plait-bench-bounded-'))
  try {
    console.log((await benchBounded(plait, work, { runs: Number(values.runs) })).join('\n'))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
