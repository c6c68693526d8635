// Spec: the service resource's properties, decoded and validated from a manifest entry (CCM's
// service type: `ensure` running or stopped, a three-state `enable`, the systemd provider), and
// the service name check that keeps a name from being read as anything but one unit.
import * as E from 'fp-ts/lib/Either.js'
import * as Diagnostic from '../../core/Diagnostic.js'
import type { Position } from '../../core/Position.js'
import * as ResourceId from '../../core/ResourceId.js'
import * as Fields from '../Fields.js'
import type { RawResource, Scope } from '../../manifest/Manifest.js'
import * as Node from '../../manifest/Node.js'

// model

export interface ServiceSpec {
  readonly _tag: 'service'
  readonly id: string
  /** The unit's name (checked by nameProblem). */
  readonly name: string
  readonly at: Position
  readonly ensure: 'running' | 'stopped'
  /** true: enabled at boot; false: disabled; undefined: the boot state is left as it is. */
  readonly enable?: boolean
  readonly provider: 'systemd'
}

/** The properties a service resource accepts. */
export const keys = ['ensure', 'enable', 'provider'] as const

/** The longest service name plait accepts (systemd's own limit on unit names). */
export const maxName = 255

// validation

/**
 * Why a service name cannot be used (undefined: it can): only letters, digits and `. _ + : ~ -`
 * (CCM's table: no shell metacharacters, whitespace, path separators or `@`), not starting with
 * `-` (systemctl would read it as an option), at most maxName characters.
 */
export const nameProblem = (name: string): string | undefined => {
  if (name === '') return 'a service name cannot be empty'
  if (name.length > maxName) return `service name is longer than ${maxName} characters`
  if (!/^[A-Za-z0-9._+:~-]+$/.test(name)) return `service name contains dangerous characters: ${JSON.stringify(name)}`
  if (name.startsWith('-')) return `service name must not start with "-": ${JSON.stringify(name)}`
  return undefined
}

// decoding

/** Decodes a service entry; every problem is reported with its position. */
export const decode = (raw: RawResource, scope: Scope): E.Either<ReadonlyArray<Diagnostic.Diagnostic>, ServiceSpec> => {
  const id = ResourceId.make(raw.type, raw.name)
  const { problems, fail, str } = Fields.make(id, scope)
  const nameWhy = nameProblem(raw.name)
  if (nameWhy !== undefined) fail('Validation', nameWhy, raw.nameAt, 'service names use letters, digits and . _ + : ~ - (use the real unit name, not an alias or template instance)')
  let ensure: ServiceSpec['ensure'] = 'running'
  let enable: boolean | undefined
  for (const e of raw.props) {
    switch (e.key) {
      case 'ensure': {
        const v = str(e)
        if (v === 'running' || v === 'stopped') ensure = v
        else if (v !== undefined) fail('Validation', `unknown ensure "${v}" for a service resource`, e.value.at, 'ensure is running (the default) or stopped')
        break
      }
      case 'enable':
        if (e.value._tag === 'Scalar' && typeof e.value.value === 'boolean') enable = e.value.value
        else fail('Decode', `enable must be a boolean, found ${Node.describe(e.value)}`, e.value.at, 'leave enable out to keep the boot state as it is')
        break
      case 'provider': {
        const v = str(e)
        if (v !== undefined && v !== 'systemd') fail('Validation', `unknown service provider "${v}"`, e.value.at, 'service providers: systemd')
        break
      }
      default:
        fail('UnknownKey', `unknown property "${e.key}" for a service resource`, e.keyAt, `allowed: ${keys.join(', ')}`)
    }
  }
  if (problems.length > 0) return E.left(problems)
  return E.right({ _tag: 'service', id, name: raw.name, at: raw.nameAt, ensure, ...(enable !== undefined ? { enable } : {}), provider: 'systemd' })
}
