// bin: the command package.json ships is the bundle: it answers as plait, and it needs nothing of
// dist/ but its own folder (so a start reads a few files, not the module graph tsc emits).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { binary, ensureBuilt, plait, repo, show } from './helpers.js'

beforeAll(ensureBuilt)

const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string; bin: { plait: string } }

describe('the shipped command', () => {
  it('is the bundle the tests run, and prints the package version', async () => {
    expect(path.join(repo, pkg.bin.plait)).toBe(binary)
    const r = await plait(['--version'])
    expect(r.code, show(r)).toBe(0)
    expect(r.stdout).toBe(`${pkg.version}\n`)
  })

  it('imports only its own chunks and packages Node has, never a module of dist/ or node_modules', () => {
    const dir = path.dirname(binary)
    const files = [binary, ...fs.readdirSync(path.join(dir, 'chunks')).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, 'chunks', f))]
    expect(files.length).toBeGreaterThan(1)
    const specifiers = files.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["']([^"']+)["']/g)].map((m) => [f, m[1]!] as const))
    expect(specifiers.length).toBeGreaterThan(0)
    const outside = specifiers.filter(([f, s]) => !s.startsWith('node:') && !path.resolve(path.dirname(f), s).startsWith(dir + path.sep))
    expect(outside).toEqual([])
  })
})
