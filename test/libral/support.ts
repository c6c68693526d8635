// support: metadata builders, fixture providers, sandboxes and an in-process CLI runner for the
// libral tests.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as Metadata from '../../src/interpreters/libral/protocol/Metadata.js'
import * as ProviderCli from '../../src/cli/provider.js'
import * as RalCli from '../../src/cli/ral.js'

export const here = path.dirname(fileURLToPath(import.meta.url))
export const repo = path.resolve(here, '..', '..')
/** Fixture providers: test/libral/fixtures/providers/*.prov. */
export const fixtures = path.join(here, 'fixtures')
export const fixtureProvider = (name: string): string => path.join(fixtures, 'providers', `${name}.prov`)
/** plait's own providers. */
export const ownProvider = (name: string): string => path.join(repo, 'lib', 'libral', 'providers', `${name}.prov`)

/** Parses metadata text, or throws the rendered diagnostics. */
export const meta = (yaml: string, name = 'test'): Metadata.Metadata => {
  const m = Metadata.parse('test.yaml', name, yaml)
  if (E.isLeft(m)) throw new Error(m.left.map(Diagnostic.render).join('\n'))
  return m.right
}

/** A host-like provider's metadata: ensure, ip, aliases (array), enabled (boolean), target (r), secret (w). */
export const hostMeta = meta(`
provider:
  type: host
  name: test
  invoke: simple
  actions: [list, find, update]
  suitable: true
  attributes:
    name: { desc: the host name }
    ensure: { type: 'enum[present, absent]' }
    ip: {}
    aliases: { type: 'array[string]' }
    enabled: { type: boolean }
    target: { kind: r }
    secret: { kind: w }
`)

const made: string[] = []

/** A fresh temporary directory (removed by `cleanup`). */
export const tempDir = (prefix = 'plait-libral-'): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  made.push(d)
  return d
}

/** Removes every temporary directory made so far. */
export const cleanup = (): void => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
}

/** Writes an executable provider (and its metadata beside it, when given) into DIR/providers. */
export const writeProvider = (dir: string, name: string, script: string, yaml?: string): string => {
  const p = path.join(dir, 'providers', `${name}.prov`)
  fs.mkdirSync(path.dirname(p), { recursive: true })
  fs.writeFileSync(p, script, { mode: 0o755 })
  if (yaml !== undefined) fs.writeFileSync(path.join(dir, 'providers', `${name}.yaml`), yaml)
  return p
}

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `plait ARGS` in this process with only the libral commands registered (as main.ts will
 * register them), capturing output; the exit status is what main returns for an `exitCode` error.
 */
export const cli = async (args: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>> = {}): Promise<CliRun> => {
  let stdout = ''
  let stderr = ''
  const io: RalCli.Io = {
    out: (s) => {
      stdout += s
    },
    err: (s) => {
      stderr += s
    },
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
  }
  const program = new Command()
    .name('plait')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
  RalCli.register(program, io)
  ProviderCli.register(program, io)
  try {
    await program.parseAsync(['node', 'plait', ...args])
    return { code: 0, stdout, stderr }
  } catch (e) {
    if (e instanceof CommanderError) return { code: e.code === RalCli.exitCode ? e.exitCode : e.exitCode === 0 ? 0 : 1, stdout, stderr }
    throw e
  }
}
