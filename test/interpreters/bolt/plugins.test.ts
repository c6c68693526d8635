// Bolt plugins beyond one reference: plugin configuration (bolt-project.yaml and bolt-defaults.yaml
// `plugins`, with references inside), `_cache`, secret plugins (their values are sensitive), and the
// pkcs7 plugin: plait's own (lib/bolt/pkcs7, openssl cms) round trip, its interoperability with
// Ruby's OpenSSL::PKCS7 used as Bolt's Forge module uses it, and Ruby task modules of our own
// written in the Forge modules' style, run unchanged (with their own task helper, or with plait's
// lib/bolt/ruby_task_helper when the project has none); the pkcs7 plugin's deprecated keys; the
// puppet_library hook. Every plugin runs for real under a temp dir.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as Fault from '../../../src/core/Fault.js'
import * as Cache from '../../../src/interpreters/bolt/cache.js'
import * as Config from '../../../src/interpreters/bolt/config.js'
import * as PluginConfig from '../../../src/interpreters/bolt/protocol/PluginConfig.js'
import * as Library from '../../../src/interpreters/bolt/library.js'
import * as Resolvers from '../../../src/interpreters/bolt/resolvers.js'
import type * as Resolve from '../../../src/load/resolve.js'

let tmp: string
let n = 0
beforeAll(async () => {
  tmp = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-bolt-plugins-'))
})
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true })
})

/** A fresh project directory holding these files (paths relative to it). */
const project = async (files: Readonly<Record<string, string>>): Promise<string> => {
  const dir = nodePath.join(tmp, `p${n++}`)
  await fs.mkdir(dir, { recursive: true })
  for (const [p, text] of Object.entries(files)) {
    await fs.mkdir(nodePath.dirname(nodePath.join(dir, p)), { recursive: true })
    await fs.writeFile(nodePath.join(dir, p), text, { mode: 0o755 })
  }
  return dir
}

const at = { file: 'm.yaml', line: 1, col: 1 }

const pluginsOf = async (dir: string, o: Partial<Resolvers.Options> = {}): Promise<Resolvers.Plugins> => {
  const p = await Resolvers.pluginsFor({ projectDir: dir, env: { ...process.env }, tmpdir: tmp, cacheFile: nodePath.join(dir, 'cache.json'), defaults: [], ...o })
  if (E.isLeft(p)) throw new Error(p.left)
  return p.right
}

/** What plugin NAME answers for these parameters (value and sensitivity), or its fault rendered. */
const answer = async (dir: string, plugin: string, parameters: Record<string, unknown>, o: Partial<Resolvers.Options> = {}): Promise<E.Either<string, Resolve.Answer>> => {
  const r = (await pluginsOf(dir, o)).resolvers.get(plugin)
  if (r === undefined) throw new Error(`no plugin ${plugin}`)
  return E.mapLeft((f: Fault.Fault) => `${f._tag}: ${f.description}`)(await r({ plugin, parameters, at })())
}

const value = async (dir: string, plugin: string, parameters: Record<string, unknown>, o: Partial<Resolvers.Options> = {}): Promise<E.Either<string, unknown>> =>
  E.map((a: Resolve.Answer) => a.value)(await answer(dir, plugin, parameters, o))

/** A hook of a plugin run through the host (as `plait secret` runs it): its value, or its fault rendered. */
const hook = async (dir: string, plugin: string, name: string, params: Record<string, unknown>): Promise<E.Either<string, unknown>> =>
  E.bimap((f: Fault.Fault) => f.description, (r: Readonly<Record<string, unknown>>) => r['value'])(await (await pluginsOf(dir)).host.run(plugin, name, params, true))

/** A module whose resolve_reference echoes its stdin parameters and appends a line to `count` in the project (its working directory). */
const counting = (name: string, parameters: object): Record<string, string> => ({
  [`modules/${name}/bolt_plugin.json`]: '{}',
  [`modules/${name}/tasks/resolve_reference.sh`]: '#!/bin/sh\necho run >> count\nprintf \'{"value": %s}\' "$(cat)"\n',
  [`modules/${name}/tasks/resolve_reference.json`]: JSON.stringify({ input_method: 'stdin', parameters }),
})

const runs = async (dir: string): Promise<number> => (await fs.readFile(nodePath.join(dir, 'count'), 'utf8').catch(() => '')).split('\n').filter((l) => l !== '').length

describe('plugin configuration (plugins: in bolt-project.yaml and bolt-defaults.yaml)', () => {
  it("merges a plugin's configuration into its task's parameters, the reference's own winning", async () => {
    const dir = await project({ ...counting('c', { a: { type: 'String' }, b: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    a: from config\n    b: config b\n' })
    expect(await value(dir, 'c', { b: 'from the reference' })).toEqual(E.right(expect.objectContaining({ a: 'from config', b: 'from the reference' })))
  })

  it('layers the defaults files under the project, key by key', async () => {
    const defaults = nodePath.join(tmp, `defaults${n++}.yaml`)
    await fs.writeFile(defaults, 'plugins:\n  c:\n    a: default a\n    b: default b\n')
    const dir = await project({ ...counting('c', { a: { type: 'String' }, b: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    b: project b\n' })
    expect(await value(dir, 'c', {}, { defaults: [defaults] })).toEqual(E.right(expect.objectContaining({ a: 'default a', b: 'project b' })))
  })

  it('resolves references inside the configuration', async () => {
    const dir = await project({ ...counting('c', { a: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    a:\n      _plugin: env_var\n      var: PLAIT_TEST_CONFIGURED\n' })
    expect(await value(dir, 'c', {}, { env: { ...process.env, PLAIT_TEST_CONFIGURED: 'from the environment' } })).toEqual(E.right(expect.objectContaining({ a: 'from the environment' })))
  })

  it('refuses a configuration key that none of the plugin\'s tasks takes, and one that refers to its own plugin', async () => {
    const dir = await project({ ...counting('c', { a: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    nope: 1\n' })
    expect(await value(dir, 'c', {})).toEqual(E.left("Failed: the configuration of plugin c (plugins.c) has 'nope', which none of its tasks takes"))
    const self = await project({ ...counting('c', { a: { type: 'Data' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    a:\n      _plugin: c\n' })
    expect(await value(self, 'c', {})).toEqual(E.left(expect.stringContaining('the configuration of plugin c refers to the plugin itself')))
  })

  it('refuses a bolt-project.yaml that gives a key twice, naming where, as for any YAML error', async () => {
    const dir = await project({ ...counting('c', { a: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  c:\n    a: one\n    a: two\n' })
    const r = await Config.read(dir, [])
    expect(r).toEqual(E.left(`${nodePath.join(dir, 'bolt-project.yaml')} is not YAML: Map keys must be unique at line 4, column 5`))
  })

  it('decodes only mappings of mappings, naming the file and key', () => {
    expect(Config.decode('f.yaml', { plugins: { a: { x: 1 } }, 'plugin-hooks': { puppet_library: { plugin: 'task' } }, other: 1 })).toEqual(E.right({ plugins: { a: { x: 1 } }, pluginHooks: { puppet_library: { plugin: 'task' } } }))
    expect(Config.decode('f.yaml', { plugin_hooks: { puppet_library: { plugin: 'old' } } })).toEqual(E.right({ plugins: {}, pluginHooks: { puppet_library: { plugin: 'old' } } }))
    expect(Config.decode('f.yaml', { 'plugin-hooks': { puppet_library: { plugin: 'a' } }, plugin_hooks: { puppet_library: { plugin: 'b' } } })).toEqual(E.left('f.yaml: give plugin-hooks or plugin_hooks (its older, deprecated spelling), not both'))
    expect(Config.decode('f.yaml', { 'plugin-hooks': [] })).toEqual(E.left('f.yaml: plugin-hooks must be a mapping of names to mappings'))
    expect(Config.decode('f.yaml', { plugins: [] })).toEqual(E.left('f.yaml: plugins must be a mapping of names to mappings'))
    expect(Config.decode('f.yaml', { plugins: { a: 'x' } })).toEqual(E.left('f.yaml: plugins.a must be a mapping, not string'))
    expect(Config.decode('f.yaml', 'text')).toEqual(E.left('f.yaml must hold a mapping'))
    expect(Config.merge({ plugins: { a: { x: 1, y: 1 } }, pluginHooks: {} }, { plugins: { a: { y: 2 }, b: { z: 3 } }, pluginHooks: {} }).plugins).toEqual({ a: { x: 1, y: 2 }, b: { z: 3 } })
  })
})

describe('_cache: {ttl}', () => {
  it('runs a plugin once for the same parameters within the ttl, again after it or for other parameters', async () => {
    const dir = await project(counting('c', { a: { type: 'Integer' } }))
    let now = 1_000_000
    const o = { now: () => now }
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 60 } }, o)).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 60 } }, o)).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await runs(dir)).toBe(1)
    expect(await value(dir, 'c', { a: 2, _cache: { ttl: 60 } }, o)).toEqual(E.right(expect.objectContaining({ a: 2 })))
    expect(await runs(dir)).toBe(2)
    now += 61_000
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 60 } }, o)).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await runs(dir)).toBe(3)
    expect(await value(dir, 'c', { a: 1 }, o)).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await runs(dir)).toBe(4) // without _cache: always run
  })

  it('refuses a _cache that is not {ttl: whole seconds}', async () => {
    const dir = await project(counting('c', {}))
    for (const bad of [60, { ttl: -1 }, { ttl: 1.5 }, { ttl: '60' }, { ttl: 60, other: 1 }]) {
      expect(await value(dir, 'c', { _cache: bad })).toEqual(E.left(expect.stringMatching(/^Failed: _cache must be \{ttl: SECONDS\}, a whole number from 0 to 31536000, not /)))
    }
    expect(await runs(dir)).toBe(0)
  })

  it("never caches a secret plugin's value: it runs every time and the cache file never holds it", async () => {
    const dir = await project({
      ...counting('s', { a: { type: 'String' } }),
      'modules/s/tasks/secret_decrypt.sh': '#!/bin/sh\necho \'{"value": "x"}\'\n',
    })
    const cacheFile = nodePath.join(dir, 'cache.json')
    expect(await answer(dir, 's', { a: 'Qv7-cached-secret', _cache: { ttl: 60 } }, { cacheFile })).toEqual(E.right({ value: expect.objectContaining({ a: 'Qv7-cached-secret' }), sensitive: true }))
    expect(await answer(dir, 's', { a: 'Qv7-cached-secret', _cache: { ttl: 60 } }, { cacheFile })).toEqual(E.right({ value: expect.objectContaining({ a: 'Qv7-cached-secret' }), sensitive: true }))
    expect(await runs(dir)).toBe(2)
    expect(await fs.readFile(cacheFile, 'utf8').catch(() => '')).not.toContain('Qv7')
  })
})

describe('secret plugins', () => {
  it('a plugin with a secret_* hook gives sensitive values; one without gives plain ones', async () => {
    const dir = await project({ ...counting('plain', {}), ...counting('hush', {}), 'modules/hush/tasks/secret_encrypt.sh': '#!/bin/sh\necho \'{"value": "x"}\'\n' })
    expect(await answer(dir, 'plain', {})).toEqual(E.right({ value: expect.objectContaining({ _task: 'plain::resolve_reference' }), sensitive: false }))
    expect(await answer(dir, 'hush', {})).toEqual(E.right({ value: expect.objectContaining({ _task: 'hush::resolve_reference' }), sensitive: true }))
  })
})

/** Runs a Ruby script in a directory; its stdout. */
const ruby = (dir: string, script: string): string => execFileSync('ruby', ['-e', script], { cwd: dir, encoding: 'utf8' })

describe("plait's own pkcs7 plugin (lib/bolt/pkcs7)", () => {
  it('creates a key pair where Bolt keeps it, refuses to overwrite it without force, encrypts and decrypts', async () => {
    const dir = await project({})
    const keys = [nodePath.join(dir, 'keys/public_key.pkcs7.pem'), nodePath.join(dir, 'keys/private_key.pkcs7.pem')]
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.right(keys))
    expect(((await fs.stat(keys[1]!)).mode & 0o777).toString(8)).toBe('600')
    expect(await fs.readFile(keys[1]!, 'utf8')).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/)
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.left(expect.stringContaining("Found existing key pair ['" + keys[0])))
    const cipher = await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'Wk3 distinctive pässword' })
    expect(cipher).toEqual(E.right(expect.stringMatching(/^ENC\[PKCS7,[A-Za-z0-9+/=]+\]$/)))
    const text = (cipher as E.Right<string>).right
    expect(await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: text })).toEqual(E.right('Wk3 distinctive pässword'))
    expect(await answer(dir, 'pkcs7', { encrypted_value: text })).toEqual(E.right({ value: 'Wk3 distinctive pässword', sensitive: true }))
    expect(await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: 'ENC[PKCS7,not base64!]' })).toEqual(E.left(expect.stringContaining('Could not parse as an encrypted value')))
    // A new pair (force) cannot decrypt what the old one encrypted. openssl usually says so, but
    // against Bleichenbacher's attack it decrypts a wrong key's block with a random key, and about
    // one time in 256 the garbage passes the padding check: then the plugin refuses the garbage
    // when it is not UTF-8, or gives it. Never is the old plaintext given.
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: true })).toEqual(E.right(keys))
    const wrong = await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: text })
    if (E.isLeft(wrong)) expect(wrong.left).toMatch(/openssl cms failed|the decrypted value is not UTF-8 text/)
    else expect(wrong.right).not.toBe('Wk3 distinctive pässword')
  })

  it('takes its key paths and key size from plugins.pkcs7 of bolt-project.yaml', async () => {
    const dir = await project({ 'bolt-project.yaml': 'plugins:\n  pkcs7:\n    keysize: 3072\n    private_key: secret/priv.pem\n    public_key: secret/pub.pem\n' })
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', {})).toEqual(E.right([nodePath.join(dir, 'secret/pub.pem'), nodePath.join(dir, 'secret/priv.pem')]))
    expect(execFileSync('openssl', ['rsa', '-in', nodePath.join(dir, 'secret/priv.pem'), '-noout', '-text'], { encoding: 'utf8' })).toMatch(/Private-Key: \(3072 bit/)
    const cipher = await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'configured' })
    expect(E.isRight(cipher) && (await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: cipher.right }))).toEqual(E.right('configured'))
  })

  it("interoperates with Ruby's OpenSSL::PKCS7 as Bolt's Forge module uses it, both ways, with either's keys", async () => {
    const dir = await project({})
    await hook(dir, 'pkcs7', 'secret_createkeys', {})
    const rubyHead = "require 'openssl'; require 'base64'; pub = OpenSSL::X509::Certificate.new(File.read('keys/public_key.pkcs7.pem')); key = OpenSSL::PKey::RSA.new(File.read('keys/private_key.pkcs7.pem'));"
    // Ruby encrypts as the Forge module's secret_encrypt does (AES-256-CBC, binary, DER, Base64.encode64 with its newlines)
    const fromRuby = ruby(dir, `${rubyHead} print "ENC[PKCS7,#{Base64.encode64(OpenSSL::PKCS7.encrypt([pub], "Rb-made secret", OpenSSL::Cipher::AES.new(256, :CBC), OpenSSL::PKCS7::BINARY).to_der).strip}]"`)
    expect(fromRuby).toContain('\n')
    expect(await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: fromRuby })).toEqual(E.right('Rb-made secret'))
    // Ruby decrypts ours as the Forge module's secret_decrypt does
    const ours = await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'made by plait' })
    if (E.isLeft(ours)) throw new Error(ours.left)
    await fs.writeFile(nodePath.join(dir, 'cipher'), ours.right as string)
    expect(ruby(dir, `${rubyHead} m = File.read('cipher').match(/\\AENC\\[PKCS7,([\\w\\s+=\\/-]+)\\]\\s*\\z/); print OpenSSL::PKCS7.new(Base64.decode64(m[1])).decrypt(key, pub)`)).toBe('made by plait')
    // a key pair made by Ruby as the Forge module's secret_createkeys makes it
    const other = await project({})
    ruby(
      other,
      "require 'openssl'; require 'fileutils'; key = OpenSSL::PKey::RSA.new(2048); c = OpenSSL::X509::Certificate.new; c.subject = OpenSSL::X509::Name.parse('/'); c.serial = 1; c.version = 2; c.not_before = Time.now; c.not_after = Time.now + 3600; c.public_key = key.public_key; c.sign(key, OpenSSL::Digest.new('SHA512')); FileUtils.mkdir_p('keys'); File.write('keys/private_key.pkcs7.pem', key.to_pem); File.write('keys/public_key.pkcs7.pem', c.to_pem)",
    )
    const sealed = await hook(other, 'pkcs7', 'secret_encrypt', { plaintext_value: 'with Ruby keys' })
    expect(E.isRight(sealed) && (await hook(other, 'pkcs7', 'secret_decrypt', { encrypted_value: sealed.right }))).toEqual(E.right('with Ruby keys'))
  })
})

// Ruby task modules of our own, written the way the Forge modules (puppetlabs-pkcs7, -yaml) are:
// Ruby tasks whose metadata names a helper of another module (ruby_task_helper) in `files`, which
// they load with require_relative from _installdir; keyword parameters; errors as TaskHelper::Error.
const taskHelper = `# frozen_string_literal: true
require 'json'

# Reads the task's JSON from stdin, calls task(**params), prints its result or its error as JSON.
class TaskHelper
  class Error < RuntimeError
    attr_reader :kind, :details
    def initialize(msg, kind, details = {})
      super(msg)
      @kind = kind
      @details = details
    end
  end

  def self.run
    params = JSON.parse($stdin.read, symbolize_names: true)
    puts JSON.generate(new.task(**params))
  rescue TaskHelper::Error => e
    puts JSON.generate(_error: { msg: e.message, kind: e.kind, details: e.details })
  end
end
`

const rubyTask = (body: string): string => `# !/usr/bin/env ruby
# frozen_string_literal: true

require 'openssl'
require 'base64'
require_relative "../../ruby_task_helper/files/task_helper.rb"

class Step < TaskHelper
${body}
end

Step.run if $PROGRAM_NAME == __FILE__
`

const rubyMeta = (parameters: object): string => JSON.stringify({ input_method: 'stdin', parameters, files: ['ruby_task_helper/files/task_helper.rb'] })

const rubyPkcs7: Record<string, string> = {
  'modules/ruby_task_helper/files/task_helper.rb': taskHelper,
  'modules/pkcs7/bolt_plugin.json': '{"hooks": {"resolve_reference": {"task": "pkcs7::secret_decrypt"}}}',
  'modules/pkcs7/tasks/secret_createkeys.json': rubyMeta({ force: { type: 'Boolean', default: false }, keysize: { type: 'Integer', default: 2048 }, private_key: { type: 'String', default: 'keys/private_key.pkcs7.pem' }, public_key: { type: 'String', default: 'keys/public_key.pkcs7.pem' } }),
  'modules/pkcs7/tasks/secret_createkeys.rb': rubyTask(`  def task(force:, keysize:, private_key:, public_key:, _boltdir:, **)
    pub = File.expand_path(public_key, _boltdir)
    priv = File.expand_path(private_key, _boltdir)
    raise TaskHelper::Error.new('keys exist', 'bolt.plugin/key-error') if (File.exist?(pub) || File.exist?(priv)) && !force
    key = OpenSSL::PKey::RSA.new(keysize)
    cert = OpenSSL::X509::Certificate.new
    cert.subject = OpenSSL::X509::Name.parse('/')
    cert.serial = 1
    cert.version = 2
    cert.not_before = Time.now
    cert.not_after = Time.now + 3600
    cert.public_key = key.public_key
    cert.sign(key, OpenSSL::Digest.new('SHA512'))
    [pub, priv].each { |p| Dir.mkdir(File.dirname(p)) unless File.exist?(File.dirname(p)) }
    File.write(priv, key.to_pem)
    File.chmod(0o600, priv)
    File.write(pub, cert.to_pem)
    { value: [pub, priv] }
  end`),
  'modules/pkcs7/tasks/secret_encrypt.json': rubyMeta({ plaintext_value: { type: 'String' }, public_key: { type: 'String', default: 'keys/public_key.pkcs7.pem' } }),
  'modules/pkcs7/tasks/secret_encrypt.rb': rubyTask(`  def task(plaintext_value:, public_key:, _boltdir:, **)
    cert = OpenSSL::X509::Certificate.new(File.read(File.expand_path(public_key, _boltdir)))
    der = OpenSSL::PKCS7.encrypt([cert], plaintext_value, OpenSSL::Cipher::AES.new(256, :CBC), OpenSSL::PKCS7::BINARY).to_der
    { value: "ENC[PKCS7,#{Base64.encode64(der).strip}]" }
  end`),
  'modules/pkcs7/tasks/secret_decrypt.json': rubyMeta({ encrypted_value: { type: 'String' }, private_key: { type: 'String', default: 'keys/private_key.pkcs7.pem' }, public_key: { type: 'String', default: 'keys/public_key.pkcs7.pem' } }),
  'modules/pkcs7/tasks/secret_decrypt.rb': rubyTask(`  def task(encrypted_value:, private_key:, public_key:, _boltdir:, **)
    cert = OpenSSL::X509::Certificate.new(File.read(File.expand_path(public_key, _boltdir)))
    key = OpenSSL::PKey::RSA.new(File.read(File.expand_path(private_key, _boltdir)))
    m = /\\AENC\\[PKCS7,(?<encoded>[\\w\\s+=\\/-]+)\\]\\s*\\z/.match(encrypted_value)
    raise TaskHelper::Error.new('Could not parse as an encrypted value', 'pkcs7/parse-error') unless m
    { value: OpenSSL::PKCS7.new(Base64.decode64(m[:encoded])).decrypt(key, cert) }
  end`),
  'modules/env_lookup/bolt_plugin.json': '{}',
  'modules/env_lookup/tasks/resolve_reference.json': rubyMeta({ var: { type: 'String' }, default: { type: 'Optional[String]' } }),
  'modules/env_lookup/tasks/resolve_reference.rb': rubyTask(`  def task(var:, default: nil, **)
    value = ENV.fetch(var, default)
    raise TaskHelper::Error.new("env_lookup requires that the var '#{var}' be set", 'env_lookup/unset', { 'backtrace' => caller }) if value.nil?
    { value: value }
  end`),
}

describe('Ruby task modules in the Forge modules\' style, in modules/, run unchanged', () => {
  it('a Ruby pkcs7 module replaces ours: createkeys, encrypt, decrypt and references, interoperable with ours', async () => {
    const dir = await project(rubyPkcs7)
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.right([nodePath.join(dir, 'keys/public_key.pkcs7.pem'), nodePath.join(dir, 'keys/private_key.pkcs7.pem')]))
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.left('Error executing plugin pkcs7 from secret_createkeys in pkcs7: keys exist'))
    const cipher = await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'through Ruby' })
    if (E.isLeft(cipher)) throw new Error(cipher.left)
    expect(await answer(dir, 'pkcs7', { encrypted_value: cipher.right })).toEqual(E.right({ value: 'through Ruby', sensitive: true }))
    // plait's own module (in a project without the Ruby one) decrypts what the Ruby one made, with the same keys
    const plain = await project({})
    await fs.cp(nodePath.join(dir, 'keys'), nodePath.join(plain, 'keys'), { recursive: true })
    expect(await hook(plain, 'pkcs7', 'secret_decrypt', { encrypted_value: cipher.right })).toEqual(E.right('through Ruby'))
    const ours = await hook(plain, 'pkcs7', 'secret_encrypt', { plaintext_value: 'back to Ruby' })
    expect(E.isRight(ours) && (await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: ours.right }))).toEqual(E.right('back to Ruby'))
  })

  it("a Ruby reference module answers references, and its errors read as Bolt's: the _error's msg, never its kind or details", async () => {
    const dir = await project(rubyPkcs7)
    expect(await value(dir, 'env_lookup', { var: 'PLAIT_TEST_RUBY' }, { env: { ...process.env, PLAIT_TEST_RUBY: 'from Ruby' } })).toEqual(E.right('from Ruby'))
    expect(await value(dir, 'env_lookup', { var: 'PLAIT_TEST_UNSET_X' })).toEqual(E.left("Failed: Error executing plugin env_lookup from resolve_reference in env_lookup: env_lookup requires that the var 'PLAIT_TEST_UNSET_X' be set"))
  })

  it("a module named env_var on the module path never replaces plait's env_var, which stands for Bolt's built-in", async () => {
    const dir = await project({ ...rubyPkcs7, ...Object.fromEntries(Object.entries(rubyPkcs7).filter(([k]) => k.startsWith('modules/env_lookup/')).map(([k, v]) => [k.replace('env_lookup', 'env_var'), v])) })
    expect(await fs.readFile(nodePath.join(dir, 'modules/env_var/tasks/resolve_reference.rb'), 'utf8')).toContain('env_lookup requires')
    expect(await value(dir, 'env_var', { var: 'PLAIT_TEST_UNSET_X', default: { any: ['data'] } })).toEqual(E.right({ any: ['data'] }))
    expect(await value(dir, 'env_var', { var: 'PLAIT_TEST_UNSET_X' })).toEqual(E.left("Failed: Error executing plugin env_var from resolve_reference in env_var: env_var plugin requires that the var 'PLAIT_TEST_UNSET_X' be set"))
  })
})

describe('puppet_library (plugin-hooks.puppet_library)', () => {
  const installer = {
    'modules/agent/bolt_plugin.json': '{}',
    'modules/agent/tasks/puppet_library.sh': '#!/bin/sh\nif [ "$PT_version" = bad ]; then echo \'{"_error": {"msg": "no such version", "kind": "agent/bad"}}\'; exit 1; fi\necho "agent $PT_version" >> installed\necho \'{}\'\n',
    'modules/agent/tasks/puppet_library.json': JSON.stringify({ parameters: { version: { type: 'String' } } }),
    'modules/pkg/tasks/init.sh': '#!/bin/sh\necho "task $PT_name" >> installed\necho \'{}\'\n',
  }

  it("runs a plugin's puppet_library hook with the configured parameters, and Bolt's task plugin", async () => {
    const dir = await project({ ...installer, 'bolt-project.yaml': 'plugin-hooks:\n  puppet_library:\n    plugin: agent\n    version: "7.1"\n' })
    expect(await Library.prepare(await pluginsOf(dir))).toEqual(E.right('puppet_library: ran plugin agent'))
    const viaTask = await project({ ...installer, 'bolt-project.yaml': 'plugin_hooks:\n  puppet_library:\n    plugin: task\n    task: pkg\n    parameters:\n      name:\n        _plugin: env_var\n        var: PLAIT_TEST_PKG\n' })
    expect(await Library.prepare(await pluginsOf(viaTask, { env: { ...process.env, PLAIT_TEST_PKG: 'ruby' } }))).toEqual(E.right('puppet_library: ran task pkg'))
    expect(await fs.readFile(nodePath.join(dir, 'installed'), 'utf8')).toBe('agent 7.1\n')
    expect(await fs.readFile(nodePath.join(viaTask, 'installed'), 'utf8')).toBe('task ruby\n')
  })

  it("fails with the plugin's message, and says what is missing when nothing is configured", async () => {
    const bad = await project({ ...installer, 'bolt-project.yaml': 'plugin_hooks:\n  puppet_library:\n    plugin: agent\n    version: bad\n' })
    expect(await Library.prepare(await pluginsOf(bad))).toEqual(E.left('puppet_library agent: Error executing plugin agent from puppet_library in agent: no such version'))
    expect(await Library.prepare(await pluginsOf(await project({})))).toEqual(E.left('no puppet_library hook is configured: give plugin-hooks.puppet_library ({plugin: NAME, ...}) in bolt-project.yaml or bolt-defaults.yaml'))
    const noHook = await project({ 'bolt-project.yaml': 'plugin_hooks:\n  puppet_library:\n    plugin: env_var\n' })
    expect(await Library.prepare(await pluginsOf(noHook))).toEqual(E.left('Plugin env_var does not support puppet_library'))
    const noTask = await project({ 'bolt-project.yaml': 'plugin_hooks:\n  puppet_library:\n    plugin: task\n    task: nosuch\n' })
    expect(await Library.prepare(await pluginsOf(noTask))).toEqual(E.left("puppet_library task: Could not find a task named 'nosuch' on the module path"))
  })
  it('runs only when the project in effect configures it, unless required; no project around: nothing is read', async () => {
    const configured = await project({ ...installer, 'bolt-project.yaml': 'plugin-hooks:\n  puppet_library:\n    plugin: agent\n    version: "8"\n' })
    const o = { env: { ...process.env }, tmpdir: tmp, defaults: [] }
    await fs.mkdir(nodePath.join(configured, 'sub/dir'), { recursive: true })
    expect(await Library.prepareFor({ ...o, required: false, cwd: nodePath.join(configured, 'sub/dir') })).toEqual(E.right('puppet_library: ran plugin agent'))
    expect(await Library.prepareFor({ ...o, required: false, project: configured, cwd: '/' })).toEqual(E.right('puppet_library: ran plugin agent'))
    expect(await fs.readFile(nodePath.join(configured, 'installed'), 'utf8')).toBe('agent 8\nagent 8\n')
    const plain = await project({ ...installer, 'bolt-project.yaml': 'name: plain\n' })
    expect(await Library.prepareFor({ ...o, required: false, cwd: plain })).toEqual(E.right(undefined))
    expect(await Library.prepareFor({ ...o, required: true, cwd: plain })).toEqual(E.left(expect.stringMatching(/^no puppet_library hook is configured/)))
    // no bolt-project.yaml at or above the directory: even a defaults file that configures the hook is not read
    const defaults = nodePath.join(tmp, `defaults${n++}.yaml`)
    await fs.writeFile(defaults, 'plugin-hooks:\n  puppet_library:\n    plugin: agent\n    version: "9"\n')
    const nowhere = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-no-project-'))
    try {
      expect(await Library.prepareFor({ ...o, defaults: [defaults], required: false, cwd: nowhere })).toEqual(E.right(undefined))
    } finally {
      await fs.rm(nowhere, { recursive: true, force: true })
    }
    // a broken project file is an error only when it is read, and then names the file
    const broken = await project({ 'bolt-project.yaml': 'plugin-hooks: [not, a, mapping]\n' })
    expect(await Library.prepareFor({ ...o, required: false, cwd: broken })).toEqual(E.left(`${broken}/bolt-project.yaml: plugin-hooks must be a mapping of names to mappings`))
  })
})

describe("the pkcs7 plugin's deprecated keys (private-key, public-key)", () => {
  it('reads them as private_key and public_key in the configuration and in a reference, warning once', async () => {
    const warnings: string[] = []
    const o = { warn: (m: string) => void warnings.push(m) }
    const dir = await project({ 'bolt-project.yaml': 'plugins:\n  pkcs7:\n    private-key: secret/priv.pem\n    public-key: secret/pub.pem\n' })
    const plugins = await pluginsOf(dir, o)
    const keys = await plugins.host.run('pkcs7', 'secret_createkeys', {}, true)
    expect(E.map((r: Readonly<Record<string, unknown>>) => r['value'])(keys)).toEqual(E.right([nodePath.join(dir, 'secret/pub.pem'), nodePath.join(dir, 'secret/priv.pem')]))
    const cipher = await plugins.host.run('pkcs7', 'secret_encrypt', { plaintext_value: 'old keys' }, true)
    if (E.isLeft(cipher)) throw new Error(cipher.left.description)
    // a reference's own deprecated key wins over the configuration, as the new one would
    await fs.rename(nodePath.join(dir, 'secret'), nodePath.join(dir, 'moved'))
    const r = plugins.resolvers.get('pkcs7')!
    const given = { encrypted_value: cipher.right['value'], 'private-key': 'moved/priv.pem', 'public-key': 'moved/pub.pem' }
    expect(await r({ plugin: 'pkcs7', parameters: given, at })()).toEqual(E.right({ value: 'old keys', sensitive: true }))
    expect(warnings).toEqual([PluginConfig.pkcs7Deprecation])
  })

  it('renames them only for pkcs7: another plugin with such a key is refused', async () => {
    const dir = await project({ ...counting('other', { public_key: { type: 'String' } }), 'bolt-project.yaml': 'plugins:\n  other:\n    public-key: x\n' })
    expect(await value(dir, 'other', {})).toEqual(E.left("Failed: the configuration of plugin other (plugins.other) has 'public-key', which none of its tasks takes"))
  })
})

describe('configuration values are checked against the types of the hook tasks that take them (Bolt\'s validate_config)', () => {
  const typed = (extra: Record<string, string> = {}): Record<string, string> => ({
    ...counting('c', { size: { type: 'Integer' }, name: { type: 'Optional[String]' } }),
    'modules/c/tasks/secret_createkeys.sh': '#!/bin/sh\necho \'{"value": "made"}\'\n',
    'modules/c/tasks/secret_createkeys.json': JSON.stringify({ input_method: 'stdin', parameters: { size: { type: 'Integer[1024, 8192]' } } }),
    ...extra,
  })

  it('refuses a value that does not fit, naming the plugin, the key, the type and the hook, before anything runs', async () => {
    const dir = await project({ ...typed(), 'bolt-project.yaml': 'plugins:\n  c:\n    size: "4096"\n' })
    expect(await value(dir, 'c', {})).toEqual(E.left("Failed: the configuration of plugin c (plugins.c): 'size' expects an Integer value, got String, the type its resolve_reference hook (task c::resolve_reference) takes"))
    // checked against every hook that takes the key, whichever hook runs
    const small = await project({ ...typed(), 'bolt-project.yaml': 'plugins:\n  c:\n    size: 512\n' })
    expect(await value(small, 'c', {})).toEqual(E.left("Failed: the configuration of plugin c (plugins.c): 'size' expects an Integer[1024, 8192] value, got Integer, the type its secret_createkeys hook (task c::secret_createkeys) takes"))
    expect(await runs(dir)).toBe(0)
    expect(await runs(small)).toBe(0)
  })

  it('checks a value a reference in the configuration gave, and accepts fitting values and null', async () => {
    const dir = await project({ ...typed(), 'bolt-project.yaml': 'plugins:\n  c:\n    size:\n      _plugin: env_var\n      var: PLAIT_TEST_SIZE\n    name: null\n' })
    expect(await value(dir, 'c', {}, { env: { ...process.env, PLAIT_TEST_SIZE: '2048' } })).toEqual(E.left(expect.stringContaining("'size' expects an Integer value, got String")))
    const json = await project({ ...typed(), 'bolt-project.yaml': 'plugins:\n  c:\n    size:\n      _plugin: env_var\n      var: PLAIT_TEST_SIZE\n      json: true\n' })
    expect(await value(json, 'c', {}, { env: { ...process.env, PLAIT_TEST_SIZE: '2048' } })).toEqual(E.right(expect.objectContaining({ size: 2048 })))
  })
})

describe('_cache: ttl 0 and the cache key', () => {
  it('ttl 0 never reads or writes the cache: the plugin runs every time', async () => {
    const dir = await project(counting('c', { a: { type: 'Integer' } }))
    const cacheFile = nodePath.join(dir, 'cache.json')
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 60 } }, { cacheFile })).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 0 } }, { cacheFile })).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await value(dir, 'c', { a: 1, _cache: { ttl: 0 } }, { cacheFile })).toEqual(E.right(expect.objectContaining({ a: 1 })))
    expect(await runs(dir)).toBe(3)
    expect(Cache.parse(await fs.readFile(cacheFile, 'utf8')).entries.size).toBe(1)
  })

  it("the key covers every key of the reference but _cache: another metaparameter is another entry", async () => {
    const dir = await project(counting('c', { a: { type: 'Integer' } }))
    const o = { now: () => 1_000_000 }
    await value(dir, 'c', { a: 1, _run_as: 'x', _cache: { ttl: 60 } }, o)
    await value(dir, 'c', { a: 1, _run_as: 'x', _cache: { ttl: 30 } }, o)
    expect(await runs(dir)).toBe(1)
    await value(dir, 'c', { a: 1, _run_as: 'y', _cache: { ttl: 60 } }, o)
    expect(await runs(dir)).toBe(2)
  })
})

describe("Forge modules that need ruby_task_helper, in a project that lacks it: plait's lib/bolt/ruby_task_helper", () => {
  const forgeOnly = Object.fromEntries(Object.entries(rubyPkcs7).filter(([k]) => !k.startsWith('modules/ruby_task_helper/')))

  it('lays out our task helper for a Ruby pkcs7 module: createkeys, encrypt, and a reference decrypt', async () => {
    const dir = await project(forgeOnly)
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.right([nodePath.join(dir, 'keys/public_key.pkcs7.pem'), nodePath.join(dir, 'keys/private_key.pkcs7.pem')]))
    expect(await hook(dir, 'pkcs7', 'secret_createkeys', { force: false })).toEqual(E.left('Error executing plugin pkcs7 from secret_createkeys in pkcs7: keys exist'))
    const cipher = await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'helped by plait' })
    if (E.isLeft(cipher)) throw new Error(cipher.left)
    expect(await answer(dir, 'pkcs7', { encrypted_value: cipher.right })).toEqual(E.right({ value: 'helped by plait', sensitive: true }))
  })

  it('an unexpected Ruby exception is its message only: no backtrace reaches the user', async () => {
    const dir = await project(forgeOnly)
    await hook(dir, 'pkcs7', 'secret_createkeys', {})
    // a ciphertext that parses but is not PKCS#7: OpenSSL raises, the helper reports it with its backtrace in details
    const r = await hook(dir, 'pkcs7', 'secret_decrypt', { encrypted_value: 'ENC[PKCS7,bm90IGRlcg==]' })
    expect(r).toEqual(E.left(expect.stringMatching(/^Error executing plugin pkcs7 from secret_decrypt in pkcs7: \S.*$/)))
    expect(E.isLeft(r) && r.left).not.toMatch(/\.rb:\d+|backtrace|OpenSSL::PKCS7::PKCS7Error/)
    expect(E.isLeft(r) && r.left.length).toBeLessThan(300)
  })

  it("a project's own ruby_task_helper wins over ours", async () => {
    const dir = await project({ ...rubyPkcs7, 'modules/ruby_task_helper/files/task_helper.rb': `${taskHelper}\nclass TaskHelper\n  def self.run\n    puts JSON.generate(value: 'the project helper')\n  end\nend\n` })
    expect(await hook(dir, 'pkcs7', 'secret_encrypt', { plaintext_value: 'x' })).toEqual(E.right('the project helper'))
  })
})
