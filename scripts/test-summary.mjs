// Prints vitest's JSON results as the plain closing line CI readers look for: "tests: N passed, N failed".
import { readFileSync } from 'node:fs';

const results = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const skipped = results.numPendingTests + results.numTodoTests;
console.log(
  `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
);
