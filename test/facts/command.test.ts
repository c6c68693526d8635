// `plait facts`, driven in process through a Commander program like main.ts's.
import * as fs from 'node:fs/promises'
import * as os from 'node:os'
import * as nodePath from 'node:path'
import { Command, CommanderError } from 'commander'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Diagnostic from '../../src/core/Diagnostic.js'
import * as FactsCommand from '../../src/cli/facts.js'
import type * as Gather from '../../src/interpreters/posix/facts.js'

const facts = { host: { info: { hostname: 'box', platformFamily: 'debian' } }, cpu: { info: [{ modelName: 'A' }, { modelName: 'B' }] } }

const run = async (args: ReadonlyArray<string>, gather?: (o: Gather.Options) => Promise<E.Either<ReadonlyArray<Diagnostic.Diagnostic>, Record<string, unknown>>>) => {
  let out = ''
  let err = ''
  const seen: Gather.Options[] = []
  const program = new Command().name('plait').exitOverride().configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (err += s) })
  FactsCommand.register(program, {
    out: (s) => (out += s),
    err: (s) => (err += s),
    dirs: () => ['/config/etc', '/config/user'],
    gather: async (o) => {
      seen.push(o)
      return gather === undefined ? E.right(facts) : gather(o)
    },
  })
  let code = 0
  try {
    await program.parseAsync(['node', 'plait', 'facts', ...args])
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e
    code = e.exitCode
  }
  return { out, err, code, seen }
}

describe('plait facts', () => {
  it('prints every fact as YAML, or as JSON with --json', async () => {
    expect(await run([])).toMatchObject({ code: 0, err: '', out: 'host:\n  info:\n    hostname: box\n    platformFamily: debian\ncpu:\n  info:\n    - modelName: A\n    - modelName: B\n' })
    expect(JSON.parse((await run(['--json'])).out)).toEqual(facts)
  })

  it('prints one value by a query: a string bare, a count, a list', async () => {
    expect((await run(['host.info.platformFamily'])).out).toBe('debian\n')
    expect((await run(['cpu.info.#'])).out).toBe('2\n')
    expect((await run(['cpu.info.#.modelName', '--json'])).out).toBe('[\n  "A",\n  "B"\n]\n')
  })

  it('passes the configuration directories, --facts and every --fact in order', async () => {
    const r = await run(['--facts', 'other.json', '--fact', 'a=1', '--fact', 'b.c=2'])
    expect(r.seen[0]).toMatchObject({ dirs: ['/config/etc', '/config/user'], factsFile: 'other.json', assignments: ['a=1', 'b.c=2'] })
    expect(r.seen[0]!.machine.root).toBe('/')
  })

  it('confines the machine to --root', async () => {
    const root = await fs.mkdtemp(nodePath.join(os.tmpdir(), 'plait-facts-root-'))
    try {
      const r = await run(['--root', root])
      expect(r.seen[0]!.machine.root).toBe(await fs.realpath(root))
    } finally {
      await fs.rm(root, { recursive: true })
    }
  })

  it('fails with exit code 1 and a message, never a stack', async () => {
    expect(await run(['nope'])).toMatchObject({ code: 1, out: '', err: 'error: no fact at "nope": the top level has no key "nope" (it has host, cpu)\n' })
    expect(await run(['--root', '/nonexistent/root'])).toMatchObject({ code: 1, err: 'error: --root /nonexistent/root: not an existing directory\n' })
    const bad = await run(['--fact', 'x'], async () => E.left([Diagnostic.make('Validation', '--fact "x": no "="', { hint: 'write --fact key=value' })]))
    expect(bad).toMatchObject({ code: 1, out: '', err: 'error: --fact "x": no "="\n  hint: write --fact key=value\n' })
  })
})
