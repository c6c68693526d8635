// Lint: typescript-eslint's recommended rules, plus the purity rule of DESIGN.md: the pure folders
// (core, manifest, compiler, planfile, resource types, and the parsers) import no effects.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const pure = [
  'src/core/**/*.ts',
  'src/manifest/**/*.ts',
  'src/re2/**/*.ts',
  'src/goss/**/*.ts',
  'src/compiler/**/*.ts',
  'src/planfile/**/*.ts',
  'src/types/**/*.ts',
  'src/interpreters/libral/protocol/**/*.ts',
  'src/interpreters/libral/type/**/*.ts',
  'src/interpreters/bolt/protocol/**/*.ts',
  'src/interpreters/holo/protocol/**/*.ts',
  'src/facts/**/*.ts',
  'src/review/**/*.ts',
  'src/generations/**/*.ts',
  'src/cli/render.ts',
  'src/cli/Colour.ts',
  'src/cli/Progress.ts',
  'src/cli/Review.ts',
  'src/cli/Markdown.ts',
  'src/cli/Github.ts',
  'src/cli/PlanDiff.ts',
  'src/policy/**/*.ts',
  'src/ensure/**/*.ts',
  'src/executor/Journal.ts',
  'src/executor/Report.ts',
  'src/interpreters/posix/accounts.ts',
  'src/interpreters/posix/proc.ts',
  'src/interpreters/memory/machineFile.ts',
  'src/interpreters/Machine.ts',
  'src/interpreters/Snapshot.ts',
  'src/interpreters/Accounts.ts',
  'src/interpreters/steps.ts',
  'src/observe/Observations.ts',
]

/** What pure modules may not import. */
const purePatterns = [
  { regex: '^node:(?!crypto$)', message: 'pure modules import no node:* (hashing from node:crypto aside)' },
  { regex: '^(fs|fs/promises|child_process|os|path|net|http|https|process)$', message: 'pure modules import no effects' },
  { regex: '^execa$', message: 'pure modules do not run commands' },
  // a plugin protocol's pure parts (its wire format, its resource type) live in its folder: protocol/ and type/
  { regex: '/interpreters/(?!steps\\.js$|[^/]+/(protocol|type)/)', message: 'pure modules do not depend on interpreters' },
  { regex: '/executor/(?!Journal|Report)', message: 'pure modules do not depend on the executor' },
]

/**
 * The stages (compile, observe, plan, the executor, the CLI) loop over the registry of resource
 * types and name none of them: a new type is a folder under src/types/ and a line in the registry.
 */
const stages = ['src/compiler/**/*.ts', 'src/observe/**/*.ts', 'src/executor/**/*.ts', 'src/cli/**/*.ts']
const stagePatterns = [
  { regex: '/types/[^/]+/', message: 'stages name no resource type: look it up in src/types/registry.ts' },
  { regex: '/interpreters/[^/]+/type/', message: "stages name no plugin protocol's resource type: look it up in src/types/registry.ts" },
]

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.stryker/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', performance: 'readonly', NodeJS: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: pure,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: purePatterns,
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'pure modules read no environment or process state' },
        { name: 'setTimeout', message: 'pure modules use no clock' },
        { name: 'performance', message: 'pure modules use no clock' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'pure modules use no clock: pass time in' },
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'pure modules use no clock: pass time in' },
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'pure modules use no randomness' },
        { selector: "MemberExpression[object.name='crypto'][property.name=/random/]", message: 'pure modules use no randomness' },
      ],
    },
  },
  { files: stages, ignores: pure, rules: { 'no-restricted-imports': ['error', { patterns: stagePatterns }] } },
  { files: pure.filter((p) => stages.some((st) => p.startsWith(st.slice(0, st.indexOf('**'))))), rules: { 'no-restricted-imports': ['error', { patterns: [...purePatterns, ...stagePatterns] }] } },
)
