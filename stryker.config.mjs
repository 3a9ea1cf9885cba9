// Mutation testing (issues 27, 36). Run through `npm run test:mutation -- <group|path>…`
// (scripts/mutation.mjs), which sets --mutate and --testFiles. `.ci/run` runs the three groups
// incrementally against the committed reports; `npm run test:mutation:refresh` re-runs them in full.
const report = process.env.MUTATION_REPORT ?? 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // scripts/mutation.mjs picks each module group's test files (--testFiles); `related` narrows them further.
  vitest: { configFile: 'vitest.stryker.config.ts', pool: 'forks', related: true },
  coverageAnalysis: 'perTest',
  // Mutants that run only while a module loads (module-level constants, class member keys) are never
  // activated under this runner: `new TextDecoder('')`, which throws on load, survived. They are left out
  // of the score; what they would break has tests of its own (strict UTF-8 decoding, inspect output).
  ignoreStatic: true,
  // TypeScript 7 has no Stryker checker plugin; a mutant that does not compile fails at run time instead.
  checkers: [],
  // Stryker rewrites the tsconfig's `extends`/`references` with the TypeScript JS API, which TypeScript 7
  // no longer ships; ours has neither, so point that step at no file (the sandbox keeps tsconfig.json).
  tsconfigFile: 'no-tsconfig-rewrite',
  // The machine is shared: one worker.
  concurrency: 1,
  timeoutMS: 10_000,
  // A score under 90 % fails the run, so the committed scores are guards and not claims.
  thresholds: { high: 95, low: 90, break: 90 },
  // Only mutants in changed code, or reached by changed tests, run again; the rest keep the result recorded
  // in this file (committed for the three groups; `--force` runs everything and rewrites it).
  incremental: true,
  incrementalFile: `reports/mutation/${report}.incremental.json`,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  ignorePatterns: ['dist', 'docs/api', 'coverage', 'reports', '.bench-tmp'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
