// bin: the command package.json ships is the bundle (scripts/bundle.mjs): it answers as plait, it
// needs nothing of dist/ or node_modules but its own folder (fast-check aside, which only `plait
// provider test` loads, from the package's dependencies), and V8 accepts its code cache (else every
// start would compile plait's code again, which the cache is there to spare).
import * as fs from 'node:fs'
import { builtinModules } from 'node:module'
import * as path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { binary, ensureBuilt, plait, repo, show } from './helpers.js'

beforeAll(ensureBuilt)

const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string; bin: { plait: string }; dependencies: Record<string, string> }

describe('the shipped command', () => {
  it('is the bundle the tests run, and prints the package version', async () => {
    expect(path.join(repo, pkg.bin.plait)).toBe(binary)
    const r = await plait(['--version'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toBe(`${pkg.version}\n`)
  })

  it('starts with the code cache the build made', async () => {
    const r = await plait(['--version'], { env: { PLAIT_DEBUG: '1' } })
    expect(r.code, show(r)).toBe(0)
    expect(r.stderr).toBe('code cache: used\n')
  })

  it('requires only Node\'s own modules and fast-check (a dependency, for `provider test`): everything else is inside the bundle', () => {
    const text = fs.readFileSync(path.join(path.dirname(binary), 'plait.cjs'), 'utf8')
    const required = [...new Set([...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!))]
    expect(required.length).toBeGreaterThan(0)
    expect(required.filter((s) => !(s.startsWith('node:') || builtinModules.includes(s)))).toEqual(['fast-check'])
    expect(Object.keys(pkg.dependencies)).toContain('fast-check')
    const launcher = fs.readFileSync(binary, 'utf8')
    expect([...launcher.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((m) => m[1]!).filter((s) => !s.startsWith('node:'))).toEqual([])
  })
})
