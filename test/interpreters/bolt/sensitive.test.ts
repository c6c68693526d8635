// sensitive (src/cli/sensitive.ts), between the resolve stage and apply, with resolvers of the test
// standing for plugins: sealing records every reference as a plan input and redacts the sensitive
// values; revealing gives them back from this process, or resolves the references again and refuses
// a changed value, a missing key or another host's key. The Bolt plugins themselves run for real in
// plugins.test.ts and test/e2e/bolt-secrets.test.ts.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { describe, expect, it } from 'vitest'
import * as Sensitive from '../../../src/cli/sensitive.js'
import type * as Plan from '../../../src/core/Plan.js'
import type * as Resolve from '../../../src/load/resolve.js'
import * as PlanFile from '../../../src/planfile/PlanFile.js'

const key = new Uint8Array(32).fill(3)
const keyOf = (k: Uint8Array) => async () => E.right(k)

const body = (text: string): Plan.Body =>
  ({
    format: 'plait.plan/2',
    plait: '0.1.0',
    root: '/',
    inputs: { manifest: { path: 'm.yaml', sha256: 'ab'.repeat(32) }, sources: [], reads: [] },
    failOnError: false,
    resources: [{ kind: 'note', id: 'note#x', type: 'note', name: 'x', at: 'm.yaml:5:3', action: 'run', observed: { summary: '', digest: '' }, steps: [{ _tag: 'note.say', reason: `says ${text}`, noop: 'Would say' }] }],
    summary: { create: 0, update: 0, delete: 0, unchanged: 0, run: 1 },
  }) as Plan.Body

const at = { file: 'm.yaml', line: 2, col: 3 }
const vault = (value: string): Resolve.Resolved => ({ plugin: 'vault', at, reference: { _plugin: 'vault', path: 'db' }, value, sensitive: true })
const plain: Resolve.Resolved = { plugin: 'env_var', at: { ...at, line: 9 }, reference: { _plugin: 'env_var', var: 'X' }, value: 'x', sensitive: false }

/** The plugins of an apply: vault answers `value`. */
const plugins = (value: string) => async () => E.right(new Map([['vault', (() => TE.right({ value, sensitive: true })) as Resolve.Resolver]]))

const sealed = async (secret: string): Promise<Plan.Plan> => {
  const p = await Sensitive.seal(body(secret), [vault(secret), plain], keyOf(key))
  if (E.isLeft(p)) throw new Error(p.left.map((d) => d.message).join('\n'))
  return p.right
}

describe('sensitive values between plan and apply', () => {
  it('records every reference with its digest, and redacts the sensitive ones', async () => {
    const plan = await sealed('Pw-1-distinct')
    const text = PlanFile.serialize(plan)
    expect(text).not.toContain('Pw-1-distinct')
    expect(plan.inputs.plugins).toEqual([
      { plugin: 'vault', at: 'm.yaml:2:3', reference: { _plugin: 'vault', path: 'db' }, digest: expect.stringMatching(/^hmac-sha256:/), sensitive: true },
      { plugin: 'env_var', at: 'm.yaml:9:3', reference: { _plugin: 'env_var', var: 'X' }, digest: expect.stringMatching(/^sha256:/) },
    ])
    expect(Sensitive.holdsSecrets(plan)).toBe(true)
  })

  it('needs no key, and changes nothing but inputs, without sensitive values', async () => {
    const p = await Sensitive.seal(body('public'), [plain])
    expect(E.isRight(p) && Sensitive.holdsSecrets(p.right)).toBe(false)
    expect(E.isRight(p) && p.right.resources).toEqual(body('public').resources)
    const refused = await Sensitive.seal(body('x'), [vault('x')])
    expect(E.isLeft(refused) && refused.left[0]!.message).toMatch(/^a secret plugin gave a sensitive value, and its digest needs the host's key/)
  })

  it('reveals the values this process sealed without running a plugin', async () => {
    const plan = await sealed('Pw-2-distinct')
    const r = await Sensitive.reveal(plan, async () => E.left([]), keyOf(key))
    expect(E.isRight(r) && (r.right.plan.resources[0]!.steps[0]!.reason)).toBe('says Pw-2-distinct')
    expect(E.isRight(r) && r.right.redact({ m: 'failed: Pw-2-distinct' })).toEqual({ m: `failed: ${PlanFile.serialize(plan).match(/⟦sensitive:[0-9a-f]{16}⟧/)![0]}` })
  })

  it('resolves a saved plan\'s sensitive references again, and refuses one whose value changed or another key', async () => {
    const saved = { ...(await sealed('Pw-3-distinct')) } // a copy: as read from a file
    const ok = await Sensitive.reveal(saved, plugins('Pw-3-distinct'), keyOf(key))
    expect(E.isRight(ok) && ok.right.plan.resources[0]!.steps[0]!.reason).toBe('says Pw-3-distinct')
    expect(E.isRight(ok) && ok.right.plan.hash).toBe(saved.hash)
    const changed = await Sensitive.reveal(saved, plugins('Pw-4-other'), keyOf(key))
    expect(E.isLeft(changed) && changed.left.map((d) => `${d.at?.line}:${d.at?.col} ${d.message}`)).toEqual(['2:3 the sensitive value of _plugin: vault changed since the plan was made (its digest differs); nothing was applied'])
    const otherHost = await Sensitive.reveal(saved, plugins('Pw-3-distinct'), keyOf(new Uint8Array(32).fill(4)))
    expect(E.isLeft(otherHost)).toBe(true)
    const noKey = await Sensitive.reveal(saved, plugins('Pw-3-distinct'), async () => E.left('cannot read it'))
    expect(E.isLeft(noKey) && noKey.left[0]!.message).toBe("the plan holds sensitive values, whose digests need the host's key: cannot read it")
  })
})
