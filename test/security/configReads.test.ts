// security: the configuration and metadata files plait's interpreters read (Bolt's project, defaults,
// plugin and task files, its cache and the key of sensitive values; a libral provider's metadata;
// the facts of a host directory) are regular files of bounded size, as the manifest is. A FIFO
// there used to be waited on for ever (Node's readFile blocks on one until a writer comes), and a
// file of gigabytes was read whole. Each case below hung or read without bound before.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Cache from '../../src/interpreters/bolt/cache.js'
import * as Config from '../../src/interpreters/bolt/config.js'
import * as BoltDiscover from '../../src/interpreters/bolt/discover.js'
import * as Key from '../../src/interpreters/bolt/key.js'
import * as Plugin from '../../src/interpreters/bolt/plugin.js'
import * as Task from '../../src/interpreters/bolt/task.js'
import * as LibralDiscover from '../../src/interpreters/libral/discover.js'
import * as Session from '../../src/interpreters/libral/Session.js'
import * as HostFile from '../../src/interpreters/posix/hostFile.js'

const made: string[] = []
const tempDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'plait-config-reads-'))
  made.push(d)
  return d
}
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true })
})

const fifoAt = (file: string): string => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  execFileSync('mkfifo', [file])
  return file
}

/** A sparse file one byte over `limit`: its size is what is checked, nothing is written. */
const bigAt = (file: string, limit: number): string => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, '')
  fs.truncateSync(file, limit + 1)
  return file
}

const notRegular = /is not a regular file/
const tooBig = (limit: number): RegExp => new RegExp(`is larger than the limit of ${limit} bytes`)

describe('HostFile.readText', () => {
  it("reads what fs.readFile(path, 'utf8') reads, a byte-order mark and bad bytes included", () => {
    const file = path.join(tempDir(), 'text')
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62, 0xe2, 0x82, 0x0a])
    fs.writeFileSync(file, bytes)
    expect(HostFile.readText(file)).toBe(fs.readFileSync(file, 'utf8'))
  })

  it('refuses a FIFO, and a file over the limit before reading it', () => {
    const d = tempDir()
    expect(() => HostFile.readText(fifoAt(path.join(d, 'fifo')))).toThrow(notRegular)
    expect(() => HostFile.readText(bigAt(path.join(d, 'big'), HostFile.maxConfig))).toThrow(tooBig(HostFile.maxConfig))
    expect(() => HostFile.readText(bigAt(path.join(d, 'small'), 10), 10)).toThrow(tooBig(10))
  })
})

describe("Bolt's files", () => {
  it('a defaults file or bolt-project.yaml that is a FIFO or too large stops with the file named', async () => {
    for (const make of [fifoAt, (f: string) => bigAt(f, HostFile.maxConfig)]) {
      const d = tempDir()
      const defaults = make(path.join(d, 'defaults', 'bolt-defaults.yaml'))
      const config = await Config.read(d, [defaults])
      expect(config).toEqual(E.left(expect.stringContaining(`cannot read ${defaults}: `)))
      const project = make(path.join(d, 'bolt-project.yaml'))
      const fromConfig = await Config.read(d, [])
      expect(fromConfig).toEqual(E.left(expect.stringContaining(`cannot read ${project}: `)))
      expect(await BoltDiscover.readProject(d)).toEqual(E.left(expect.stringContaining(`cannot read ${project}: `)))
    }
  })

  it("a plugin's bolt_plugin.json or a task's metadata that is a FIFO stops with the file named", async () => {
    const d = tempDir()
    const module: BoltDiscover.Module = { name: 'hostile', dir: path.join(d, 'hostile') }
    const modules = new Map([[module.name, module]])
    const pluginFile = fifoAt(path.join(module.dir, 'bolt_plugin.json'))
    const plugin = await Plugin.load(modules, module)
    expect(E.isLeft(plugin) && plugin.left).toMatch(new RegExp(`^Invalid Plugin Data for hostile: cannot read ${pluginFile}: .*${notRegular.source}`))
    fs.mkdirSync(path.join(module.dir, 'tasks'))
    fs.writeFileSync(path.join(module.dir, 'tasks', 'init.sh'), '#!/bin/sh\n', { mode: 0o755 })
    const metaFile = fifoAt(path.join(module.dir, 'tasks', 'init.json'))
    const task = await Task.load(modules, 'hostile')
    expect(task !== undefined && E.isLeft(task) && task.left).toMatch(new RegExp(`^task hostile::init: cannot read ${metaFile}: .*${notRegular.source}`))
  })

  it('a key of sensitive values that is a FIFO or too large is refused, not waited on or read', async () => {
    const d = tempDir()
    const fifo = fifoAt(path.join(d, 'fifo.key'))
    expect(await Key.readOrCreate(fifo)).toEqual(E.left(expect.stringMatching(notRegular)))
    const big = bigAt(path.join(d, 'big.key'), 4096)
    expect(await Key.readOrCreate(big)).toEqual(E.left(expect.stringMatching(tooBig(4096))))
  })

  it('a cache file that is a FIFO is an empty cache', async () => {
    const d = tempDir()
    const cache = Cache.open(fifoAt(path.join(d, 'cache.json')))
    expect(await cache.get('k')).toBeUndefined()
  })
})

describe("a libral provider's metadata", () => {
  it('a .yaml beside the provider that is a FIFO or too large stops with the file named', async () => {
    for (const make of [fifoAt, (f: string) => bigAt(f, HostFile.maxConfig)]) {
      const d = tempDir()
      const prov = path.join(d, 'hostile.prov')
      fs.writeFileSync(prov, '#!/bin/sh\nexit 1\n', { mode: 0o755 })
      const yaml = make(path.join(d, 'hostile.yaml'))
      const s = Session.make({ root: tempDir(), hostEnv: { PATH: process.env['PATH'] } })
      const loaded = await LibralDiscover.load(s.context, prov)
      expect(E.isLeft(loaded) && loaded.left.map(Diagnostic.render).join('\n')).toContain(`cannot read ${yaml}: `)
    }
  })
})
