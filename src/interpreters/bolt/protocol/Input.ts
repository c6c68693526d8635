// Input: how a task receives its parameters, by its input method, as Bolt hands them: `stdin` is
// one JSON object of every parameter (metaparameters too), `environment` one `PT_name` variable
// per parameter (a string as it is, anything else as JSON), `both` (Bolt's default) does the two.
// `powershell` needs PowerShell's named arguments and is refused on this controller.
import * as E from 'fp-ts/lib/Either.js'
import type * as Metadata from './Metadata.js'
import type * as Params from './Params.js'

// model

export interface Input {
  /** Variables added to the task's environment. */
  readonly env: Readonly<Record<string, string>>
  /** What the task reads on stdin (empty for `environment`). */
  readonly stdin: string
}

// constructors

/** The input of a task run with these parameters (metaparameters included), or why it cannot be given. */
export const make = (task: string, method: Metadata.InputMethod, params: Params.Params): E.Either<string, Input> => {
  if (method === 'powershell') return E.left(`task ${task} uses the powershell input method, which plait cannot give on this controller (it needs PowerShell's named arguments); use stdin, environment or both`)
  const env: Record<string, string> = {}
  if (method === 'environment' || method === 'both') {
    for (const [k, v] of Object.entries(params)) if (v !== undefined) env[`PT_${k}`] = typeof v === 'string' ? v : JSON.stringify(v)
  }
  return E.right(Object.freeze({ env, stdin: method === 'stdin' || method === 'both' ? JSON.stringify(params) : '' }))
}
