/** One line of the results table: a figure, what it is held against, and whether it holds. */
export interface BenchRow {
  /** Scenario number and short name, e.g. `1 request overhead`. */
  scenario: string;
  /** What was measured, e.g. `SDK / raw undici throughput`. */
  figure: string;
  /** The measured value, formatted. */
  value: string;
  /** The target, formatted (`-` when the figure is only reported). */
  target: string;
  /** `undefined` for figures without a target. */
  holds: boolean | undefined;
}

/** What a scenario hands back: its rows and free-text notes for RESULTS.md (method, caveats, profile). */
export interface ScenarioResult {
  rows: BenchRow[];
  notes: string[];
}

/** Settings every scenario receives. */
export interface BenchContext {
  /** Smoke run: few iterations, figures not judged. */
  quick: boolean;
  /** Progress lines go here (stderr), so stdout stays the table. */
  log: (line: string) => void;
}

/** A scenario of the suite. */
export interface Scenario {
  id: string;
  title: string;
  run(context: BenchContext): Promise<ScenarioResult>;
}

/** `value >= min` as a row (ratios where bigger is better). */
export function atLeast(scenario: string, figure: string, value: number, min: number, unit = 'x'): BenchRow {
  return { scenario, figure, value: fmt(value, unit), target: `>= ${fmt(min, unit)}`, holds: value >= min };
}

/** `value <= max` as a row (costs, memory, counts). */
export function atMost(scenario: string, figure: string, value: number, max: number, unit = ''): BenchRow {
  return { scenario, figure, value: fmt(value, unit), target: `<= ${fmt(max, unit)}`, holds: value <= max };
}

/** `value === expected` as a row. */
export function exactly(scenario: string, figure: string, value: number, expected: number): BenchRow {
  return { scenario, figure, value: String(value), target: `= ${expected}`, holds: value === expected };
}

/** A reported figure without a target. */
export function reported(scenario: string, figure: string, value: string): BenchRow {
  return { scenario, figure, value, target: '-', holds: undefined };
}

/** Two decimals for ratios, one for the rest; integers stay integers. */
export function fmt(value: number, unit = ''): string {
  const digits = unit === 'x' ? 2 : Number.isInteger(value) ? 0 : 1;
  const text = value.toFixed(digits);
  if (unit === '') return text;
  return unit === 'x' ? `${text}x` : `${text} ${unit}`;
}
