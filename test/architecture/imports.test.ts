// architecture: the import graph of src/ has no cycles (static imports, `import type` included:
// a cycle of types is a cycle of ideas), and the stages reach resource types only through the
// registry (the lint rule says the same per import; this checks the whole graph at once).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src')

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []))

/** Each module's static imports of other modules of src/, as paths relative to src/. */
const graph = (): Map<string, string[]> => {
  const out = new Map<string, string[]>()
  for (const f of files(src)) {
    const text = fs.readFileSync(f, 'utf8')
    const deps = [...text.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => path.relative(src, path.resolve(path.dirname(f), m[1]!.replace(/\.js$/, '.ts'))))
    out.set(path.relative(src, f), [...new Set(deps)])
  }
  return out
}

/** The cycles of a graph, each once, as the modules on it. */
const cycles = (g: Map<string, string[]>): string[][] => {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (n: string): void => {
    state.set(n, 'open')
    stack.push(n)
    for (const d of g.get(n) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d])
      else if (state.get(d) === undefined) visit(d)
    }
    stack.pop()
    state.set(n, 'done')
  }
  for (const n of [...g.keys()].sort()) if (state.get(n) === undefined) visit(n)
  return found
}

describe('the import graph of src/', () => {
  const g = graph()

  it('is read from every module', () => {
    expect(g.size).toBeGreaterThan(100)
    expect(g.get('executor/run.ts')).toContain('types/registry.ts')
  })

  it('has no cycles', () => {
    expect(cycles(g).map((c) => c.join(' → '))).toEqual([])
  })

  it('finds a cycle when there is one (the check itself)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']])
  })

  it('keeps the pure modules pure: they import only pure modules (the lint rule sees specifiers; this sees where they lead)', () => {
    const pure = [
      /^core\//,
      /^manifest\//,
      /^re2\//,
      /^goss\//,
      /^compiler\//,
      /^planfile\//,
      /^types\//,
      /^facts\//,
      /^review\//,
      /^generations\//,
      /^interpreters\/[^/]+\/(protocol|type)\//,
      /^interpreters\/steps\.ts$/,
      /^cli\/(render|Colour|Progress|Review|Markdown|Github|PlanDiff)\.ts$/,
      /^executor\/(Journal|Report)\.ts$/,
      /^interpreters\/posix\/(accounts|proc)\.ts$/,
      /^interpreters\/memory\/machineFile\.ts$/,
      /^interpreters\/(Machine|Snapshot|Accounts)\.ts$/,
      /^observe\/Observations\.ts$/,
      /^policy\//,
      /^ensure\//,
    ]
    const isPure = (m: string): boolean => pure.some((p) => p.test(m))
    const bad = [...g].flatMap(([m, deps]) => (isPure(m) ? deps.filter((d) => !isPure(d)).map((d) => `${m} → ${d}`) : []))
    expect(bad).toEqual([])
  })

  it('lets the stages reach a resource type only through the registry', () => {
    const stages = /^(compiler|observe|executor|cli)\//
    const specific = /^types\/[^/]+\/|^interpreters\/[^/]+\/type\//
    const bad = [...g].flatMap(([m, deps]) => (stages.test(m) ? deps.filter((d) => specific.test(d)).map((d) => `${m} → ${d}`) : []))
    expect(bad).toEqual([])
  })
})
