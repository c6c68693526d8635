// Shebang: the interpreter line of a task file (`#!/usr/bin/env python3`), read as Linux reads it:
// the interpreter is the first word, and everything after it, trimmed, is one optional argument.
// plait runs a task as `INTERPRETER [ARG] FILE`, never through a shell.
import * as E from 'fp-ts/lib/Either.js'

// model

export interface Shebang {
  /** An absolute path. */
  readonly interpreter: string
  readonly arg?: string
}

/** How many bytes of the first line are read (Linux reads 256 since 5.1). */
export const maxLine = 256

// constructors

/** The interpreter line of a file's head, or why there is none to run it by. */
export const parse = (task: string, head: string): E.Either<string, Shebang> => {
  if (!head.startsWith('#!')) return E.left(`task ${task} has no interpreter line (#!): plait runs a task by its interpreter, for example #!/bin/sh`)
  const end = head.indexOf('\n')
  if (end === -1 && head.length >= maxLine) return E.left(`task ${task}: its interpreter line is longer than ${maxLine} characters`)
  const line = (end === -1 ? head : head.slice(0, end)).slice(2).replace(/\r$/, '').trim()
  const m = /^(\S+)(?:[ \t]+(.*))?$/.exec(line)
  if (m === null) return E.left(`task ${task}: its interpreter line names no interpreter`)
  const interpreter = m[1]!
  if (!interpreter.startsWith('/')) return E.left(`task ${task}: its interpreter ${JSON.stringify(interpreter)} is not an absolute path`)
  const arg = m[2]?.trim()
  return E.right(Object.freeze(arg === undefined || arg === '' ? { interpreter } : { interpreter, arg }))
}
