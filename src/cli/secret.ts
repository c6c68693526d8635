// secret: `plait secret createkeys|encrypt|decrypt`, Bolt's `bolt secret`: runs a secret plugin's
// secret_createkeys, secret_encrypt or secret_decrypt hook (the `pkcs7` plugin unless `--plugin`)
// with the parameters Bolt passes (`force`, `plaintext_value`, `encrypted_value`) on top of the
// plugin's configuration (`plugins.NAME` of bolt-project.yaml), and prints the value it gives.
// A value to encrypt or decrypt may come on stdin instead of the command line, where `ps` shows it.
import { Command, CommanderError } from 'commander'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../core/Diagnostic.js'
import * as Fault from '../core/Fault.js'
import * as Terminal from '../core/Terminal.js'
import * as Options from './options.js'
import * as Render from './render.js'
import * as Streams from './streams.js'

// model

interface Flags extends Options.PluginFlags {
  readonly plugin: string
  readonly force?: boolean
}

/** The secret plugin when `--plugin` names none (Bolt's default). */
export const defaultPlugin = 'pkcs7'

/** The most bytes of a value read from stdin. */
export const maxInput = 1024 * 1024

const fail = (ds: ReadonlyArray<Diagnostic.Diagnostic>): never => {
  Streams.err(Render.diagnostics(ds))
  throw new CommanderError(1, 'plait.secret', 'secret failed')
}

// constructors

/** Adds `plait secret` and its three commands to a program. */
export const register = (program: Command): void => {
  const secret = program.command('secret').description('create a key pair, encrypt or decrypt a value with a Bolt secret plugin (default pkcs7), as `bolt secret` does')
  const common = (c: Command): Command =>
    c
      .option('--plugin <name>', 'the secret plugin', defaultPlugin)
      .addOption(Options.project('the Bolt project whose plugin modules and configuration are used (default: the project around the working directory)'))
      .addOption(Options.modulepath())
      .addOption(Options.pluginTimeout())
  common(secret.command('createkeys').description('create the key pair of the secret plugin (an existing pair is kept unless --force)').option('--force', 'overwrite an existing key pair')).action(
    async (o: Flags) => run(o, 'secret_createkeys', { force: o.force === true }),
  )
  common(secret.command('encrypt').description('print the ciphertext of a value').argument('[plaintext]', 'the value to encrypt (default: stdin, without its final newline)')).action(
    async (text: string | undefined, o: Flags) => run(o, 'secret_encrypt', { plaintext_value: text ?? (await stdin()) }),
  )
  common(secret.command('decrypt').description('print the value of a ciphertext').argument('[ciphertext]', 'the ciphertext, e.g. ENC[PKCS7,...] (default: stdin)')).action(
    async (text: string | undefined, o: Flags) => run(o, 'secret_decrypt', { encrypted_value: text ?? (await stdin()) }),
  )
}

/** Runs one secret hook and prints its value (a list of strings one per line, other data as JSON). */
const run = async (o: Flags, hook: string, params: Readonly<Record<string, unknown>>): Promise<void> => {
  const Discover = await import('../interpreters/bolt/discover.js')
  const Resolvers = await import('../interpreters/bolt/resolvers.js')
  const projectDir = o.project !== undefined ? nodePath.resolve(o.project) : await Discover.projectOf(process.cwd())
  const p = Options.plugins(o)
  const plugins = await Resolvers.pluginsFor({ projectDir, modulepath: p.modulepath.map((d) => nodePath.resolve(d)), ...(p.timeoutSeconds !== undefined ? { timeoutSeconds: p.timeoutSeconds } : {}) })
  if (E.isLeft(plugins)) return fail([Diagnostic.make('Io', `secret plugins: ${plugins.left}`)])
  const host = plugins.right.host
  const has = await host.has(o.plugin, hook)
  if (E.isLeft(has)) return fail([Diagnostic.make('Validation', Fault.render(has.left))])
  if (!has.right) {
    const known = host.names.length === 0 ? 'no plugins are available' : `plugins: ${host.names.join(', ')}`
    return fail([Diagnostic.make('Validation', `${o.plugin.includes('\n') ? JSON.stringify(o.plugin) : o.plugin}: ${host.names.includes(o.plugin) ? `Plugin ${o.plugin} does not support ${hook}` : 'no plugin of that name'}`, { hint: known })])
  }
  const r = await host.run(o.plugin, hook, params, true)
  if (E.isLeft(r)) return fail([Diagnostic.make('Validation', Fault.render(r.left))])
  const value = r.right['value']
  const text = typeof value === 'string' ? value : Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join('\n') : JSON.stringify(value)
  Streams.out(`${Terminal.text(text)}\n`)
}

/** All of stdin as text, without one final newline. */
const stdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of process.stdin as AsyncIterable<Buffer>) {
    size += c.length
    if (size > maxInput) return fail([Diagnostic.make('Validation', `the value on stdin is longer than ${maxInput} bytes`)])
    chunks.push(c)
  }
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '')
}
