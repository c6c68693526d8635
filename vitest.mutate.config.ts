// The tests StrykerJS runs against each mutant (`npm run mutate`): the in-process tests of the
// executor, the plan file and the posix interpreter. Tests that run the built binary (test/e2e and
// the CLI cases of test/security) are left out: a mutant lives in the sources Stryker instruments,
// not in dist/, so they could not see it. The posix contract sets the umask, which worker threads
// (how Stryker runs vitest) cannot; the agreement test compares the two machines instead.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'test/executor/**/*.test.ts',
      'test/types/registered.test.ts',
      'test/compiler/plan.test.ts',
      'test/planfile/**/*.test.ts',
      'test/properties/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/interpreters/posix/**/*.test.ts',
      'test/golden.test.ts',
      'test/security/fuzz-plan.test.ts',
      'test/security/races.test.ts',
    ],
    // Stryker runs vitest in worker threads, where process.umask() cannot be set
    exclude: ['test/contract/posix.test.ts', 'test/contract/memory.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
