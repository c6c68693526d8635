// Words.split: go-shellquote's Split, as CCM's posix exec provider parses commands.
import { fc, test as fcTest } from '@fast-check/vitest'
import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import * as Words from '../../../src/types/exec/ShellWords.js'

const words = (line: string) => {
  const r = Words.split(line)
  if (E.isLeft(r)) throw new Error(r.left)
  return r.right
}

describe('Words.split', () => {
  it.each([
    ['echo hello world', ['echo', 'hello', 'world']],
    ["echo 'hello world'", ['echo', 'hello world']],
    ['echo "hello world"', ['echo', 'hello world']],
    ['echo hello\\ world', ['echo', 'hello world']],
    [`echo "it's a test"`, ['echo', "it's a test"]],
    ['  a\t b\n c  ', ['a', 'b', 'c']],
    ['a"b"\'c\'d', ['abcd']],
    ['echo $USER `id` $(id)', ['echo', '$USER', '`id`', '$(id)']],
    ['"a\\"b" "\\$x" "\\n"', ['a"b', '$x', '\\n']],
    ["'a\\b'", ['a\\b']],
    ['a\\\nb', ['ab']],
    ['printf first \\\nsecond', ['printf', 'first', 'second']],
    ["'' x", ['', 'x']],
    ['', []],
  ])('%j', (line, expected) => {
    expect(words(line)).toEqual(expected)
  })

  it.each([
    ["echo 'open", 'Unterminated single-quoted string'],
    ['echo "open', 'Unterminated double-quoted string'],
    ['echo \\', 'Unterminated backslash-escape'],
  ])('refuses %j', (line, message) => {
    expect(Words.split(line)).toEqual(E.left(message))
  })

  fcTest.prop([fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 })])('quoting each word and splitting gives the words back', (ws) => {
    expect(words(ws.map(Words.quote).join(' '))).toEqual(ws)
  })
})
