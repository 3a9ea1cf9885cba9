#!/usr/bin/env node
// `npm audit --omit=dev`, made explicit about what it could and could not check.
//
// - Advisories found in the runtime tree → exit 1 with the list.
// - The registry answered but has no advisory service (some mirrors answer 405 to the bulk advisory
//   endpoint) → say so loudly and exit 0, because nothing was learnt either way; set AUDIT_REQUIRED=1 to
//   make that a failure instead.
// - Anything else we cannot read → exit 1: a check that silently did nothing is worse than none.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// A saved report can be given as the first argument (to check this script's own verdicts).
const run =
  process.argv[2] === undefined
    ? spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' })
    : { status: 0, stdout: readFileSync(process.argv[2], 'utf8'), stderr: '' };
const required = process.env.AUDIT_REQUIRED === '1';

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`npm audit printed no JSON (exit ${run.status}).`);
  console.error(run.stderr.trim());
  process.exit(1);
}

const counts = report?.metadata?.vulnerabilities;
if (counts !== undefined) {
  const total = Object.values(counts).reduce((sum, n) => sum + Number(n), 0);
  const deps = report.metadata.dependencies?.prod ?? report.metadata.dependencies?.total ?? '?';
  if (total === 0) {
    console.log(`npm audit --omit=dev: 0 vulnerabilities in ${deps} runtime packages.`);
    process.exit(0);
  }
  console.error(`npm audit --omit=dev: ${total} vulnerabilities in runtime dependencies:`);
  for (const [name, entry] of Object.entries(report.vulnerabilities ?? {})) {
    const titles = (entry.via ?? []).map((via) => (typeof via === 'string' ? via : via.title)).join('; ');
    console.error(`  ${name} (${entry.severity}): ${titles}`);
  }
  process.exit(1);
}

// npm's JSON for a failed request to the advisory service: { message, statusCode, uri, ... }.
if (report?.statusCode !== undefined || report?.error !== undefined) {
  const status = report.statusCode ?? report.error?.code ?? 'an error';
  console.log('!!! npm audit could NOT check runtime dependencies against advisories:');
  console.log(
    `!!! the registry's advisory endpoint answered ${status} (${report.uri ?? report.message ?? 'no detail'}).`,
  );
  console.log(
    '!!! Runtime dependencies are still limited to the reviewed set by test/security/runtime-dependencies.test.ts.',
  );
  process.exit(required ? 1 : 0);
}

console.error('npm audit: unrecognised report:', JSON.stringify(report).slice(0, 500));
process.exit(1);
