// rewrite: `plait plan` of one file whose content is rewritten, at the size up to which a plan shows
// a diff (256 KiB), through the CLI. The least diff costs about the square of the lines it changes,
// so plait searches for it only up to an edit limit (src/core/UnifiedDiff.ts); these are the two
// costliest cases left: every line changed (the search gives up at once), and every fifth line
// changed (the search runs to its limit, then gives up). Prints the median of each.
//
//   node bench/rewrite.mjs [--runs 3]     (standalone; bench/run.mjs calls benchRewrite)
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { account } from './workload.mjs'

const LINES = 9000

/** 9,000 lines of about 28 bytes (some 250 KiB); line i is `tag`'s own when `changed(i)`, else shared. */
const text = (tag, changed) => Array.from({ length: LINES }, (_, i) => (changed(i) ? `${tag} setting ${i} = ${(i * 7919) % 100003}\n` : `shared setting ${i} = on\n`)).join('')

const run = (plait, args) =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn(process.execPath, [plait, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const out = []
    const err = []
    child.stdout.on('data', (b) => out.push(b))
    child.stderr.on('data', (b) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, ms: Number(process.hrtime.bigint() - t0) / 1e6, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
  })

/** Times the plan of each rewrite `runs` times; the bench's lines (median wall time of the CLI). */
export async function benchRewrite(plait, work, { runs = 3 } = {}) {
  const { owner, group } = account()
  const dir = mkdtempSync(join(work, 'rewrite-'))
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
      const ms = []
      for (let i = 0; i < runs; i++) {
        const r = await run(plait, ['plan', manifest, '--root', root])
        if (r.code !== 0 || !r.stdout.includes('Plan: 0 to create, 1 to change') || !r.stdout.includes('@@ ')) throw new Error(`plan of a rewritten file (${what}): unexpected result (exit ${r.code})\n${r.stdout.slice(0, 1500)}\n${r.stderr.slice(0, 1500)}`)
        ms.push(r.ms)
      }
      const median = [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]
      lines.push(`  ${what}: median ${median.toFixed(0)} ms`)
    }
    return [`plan of one rewritten file of ${LINES.toLocaleString('en-US')} lines (about 250 KiB, its diff shown), CLI:`, ...lines]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } })
  const plait = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin', 'plait.js')
  const work = mkdtempSync(join(tmpdir(), 'plait-bench-rewrite-'))
  try {
    console.log((await benchRewrite(plait, work, { runs: Number(values.runs) })).join('\n'))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
