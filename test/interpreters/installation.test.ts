import * as fs from 'node:fs'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Installation from '../../src/interpreters/installation.js'

// A package laid out as the installed one is: plait's package.json at the top, and the bundled
// command's directory with a package.json of its own (`{"type": "commonjs"}`) that is not plait's.
let tmp: string
beforeAll(() => {
  tmp = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'plait-installation-'))
})
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

const layout = (name: string, top: object): { readonly dir: string; readonly url: string } => {
  const dir = nodePath.join(tmp, name)
  fs.mkdirSync(nodePath.join(dir, 'dist', 'bin'), { recursive: true })
  fs.writeFileSync(nodePath.join(dir, 'package.json'), JSON.stringify(top))
  fs.writeFileSync(nodePath.join(dir, 'dist', 'bin', 'package.json'), '{\n  "type": "commonjs"\n}\n')
  return { dir, url: pathToFileURL(nodePath.join(dir, 'dist', 'bin', 'plait.cjs')).href }
}

describe('installation', () => {
  it('finds this checkout from a source module, and its version is package.json\'s', () => {
    const repo = nodePath.resolve(import.meta.dirname, '..', '..')
    const pkg = JSON.parse(fs.readFileSync(nodePath.join(repo, 'package.json'), 'utf8')) as { version: string }
    expect(Installation.packageDir(import.meta.url)).toBe(repo)
    expect(Installation.version(import.meta.url)).toBe(pkg.version)
  })

  it('walks past a package.json that is not plait\'s, from the bundled command\'s directory', () => {
    const p = layout('walk', { name: 'plait', version: '1.2.3' })
    expect(Installation.packageDir(p.url)).toBe(p.dir)
    expect(Installation.version(p.url)).toBe('1.2.3')
  })

  it('skips a package.json named plait without a version, and one that is not JSON', () => {
    const outer = layout('outer', { name: 'plait', version: '2.0.0' })
    const inner = nodePath.join(outer.dir, 'nested')
    fs.mkdirSync(nodePath.join(inner, 'lib'), { recursive: true })
    fs.writeFileSync(nodePath.join(inner, 'package.json'), '{"name": "plait"}')
    fs.writeFileSync(nodePath.join(inner, 'lib', 'package.json'), '{ not json')
    const url = pathToFileURL(nodePath.join(inner, 'lib', 'module.js')).href
    expect(Installation.packageDir(url)).toBe(outer.dir)
    expect(Installation.version(url)).toBe('2.0.0')
  })

  it('reads package.json once per directory asked from: a later change is not seen by this process', () => {
    const p = layout('once', { name: 'plait', version: '3.0.0' })
    expect(Installation.version(p.url)).toBe('3.0.0')
    fs.writeFileSync(nodePath.join(p.dir, 'package.json'), JSON.stringify({ name: 'plait', version: '4.0.0' }))
    expect(Installation.version(p.url)).toBe('3.0.0')
    expect(Installation.packageDir(p.url)).toBe(p.dir)
  })
})
