import type { MachineInfo } from './machine.js';
import { type BenchRow, shortfall } from './result.js';

/** The results as a Markdown table: scenario, figure, value, target, holds. */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['Scenario', 'Figure', 'Value', 'Target', 'Holds?'];
  const body = rows.map((row) => [
    row.scenario,
    row.figure,
    row.value,
    row.target,
    row.holds === undefined ? '-' : row.holds ? 'yes' : '**NO**',
  ]);
  const widths = header.map((_, i) => Math.max(header[i]!.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** What RESULTS.md records about one full run. */
export interface ResultsInput {
  date: Date;
  machine: MachineInfo;
  /** Load averages when the run ended. */
  loadAfter: [number, number, number];
  command: string;
  seconds: number;
  table: string;
  rows: readonly BenchRow[];
  notes: readonly string[];
  /** Where the time or memory goes for figures that miss, from profiles (bench/lib/findings.ts). */
  findings: readonly string[];
}

/** bench/RESULTS.md: when, where, how, the table, and the notes that explain the figures. */
export function renderResults(input: ResultsInput): string {
  const { machine } = input;
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); the last full run is kept here. Figures are ratios measured',
    'side by side in one run on one machine, so they travel between machines better than absolute times do.',
    '',
    `- Date: ${input.date.toISOString()}`,
    `- Node: ${machine.node}`,
    `- CPU: ${machine.cpu} (${machine.cores} cores), ${machine.memoryGiB} GiB RAM`,
    `- Load average (1/5/15 min): ${machine.load.join(' / ')} at start, ${input.loadAfter.join(' / ')} at the end`,
    `- Command: \`${input.command}\` (took ${input.seconds.toFixed(0)} s)`,
    '',
    input.table,
    '',
    '## Missed targets',
    '',
    ...missed(input.rows),
    '',
    '## What the profiles show',
    '',
    ...input.findings.map((finding) => `- ${finding}`),
    '',
    '## Notes',
    '',
    ...input.notes.map((note) => `- ${note}`),
    '',
  ].join('\n');
}

function missed(rows: readonly BenchRow[]): string[] {
  const lines = rows
    .filter((row) => row.holds === false)
    .map(
      (row) =>
        `- ${row.scenario}, ${row.figure}: ${row.value} against ${row.target} (${shortfall(row) ?? 'failed'}).`,
    );
  return lines.length > 0 ? lines : ['Every target holds in this run.'];
}
