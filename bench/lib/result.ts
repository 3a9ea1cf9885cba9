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
  /** For a judged figure: the number measured, its bound, and which side of it is good. */
  check?: { measured: number; bound: number; better: 'higher' | 'lower' | 'equal' };
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
  return {
    scenario,
    figure,
    value: fmt(value, unit),
    target: `>= ${fmt(min, unit)}`,
    holds: value >= min,
    check: { measured: value, bound: min, better: 'higher' },
  };
}

/** `value <= max` as a row (costs, memory, counts). */
export function atMost(scenario: string, figure: string, value: number, max: number, unit = ''): BenchRow {
  return {
    scenario,
    figure,
    value: fmt(value, unit),
    target: `<= ${fmt(max, unit)}`,
    holds: value <= max,
    check: { measured: value, bound: max, better: 'lower' },
  };
}

/** `value === expected` as a row. */
export function exactly(scenario: string, figure: string, value: number, expected: number): BenchRow {
  return {
    scenario,
    figure,
    value: String(value),
    target: `= ${expected}`,
    holds: value === expected,
    check: { measured: value, bound: expected, better: 'equal' },
  };
}

/** A reported figure without a target. */
export function reported(scenario: string, figure: string, value: string): BenchRow {
  return { scenario, figure, value, target: '-', holds: undefined };
}

/** Two decimals for ratios, one for the rest; integers stay integers. */
/** Milliseconds as seconds with two decimals (`1.23 s`). */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function fmt(value: number, unit = ''): string {
  const digits = unit === 'x' ? 2 : Number.isInteger(value) ? 0 : 1;
  const text = value.toFixed(digits);
  if (unit === '') return text;
  return unit === 'x' ? `${text}x` : `${text} ${unit}`;
}

/** How far a missed figure is from its target, in words: `short by 12%`, `over by 3.1 MB (19%)`. */
export function shortfall(row: BenchRow): string | undefined {
  if (row.holds !== false || row.check === undefined) return undefined;
  const { measured, bound, better } = row.check;
  if (better === 'equal') return `${measured} instead of ${bound}`;
  const percent = Math.abs((measured / bound - 1) * 100).toFixed(0);
  return better === 'higher' ? `short by ${percent}%` : `over by ${percent}%`;
}
