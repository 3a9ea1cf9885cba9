import { collectGarbage, median } from './stats.js';

/** One timed segment of one contender. */
export interface Segment {
  /** Operations completed. */
  ops: number;
  /** Wall-clock milliseconds. */
  ms: number;
  /** Milliseconds of this process's CPU (user + system) spent in the segment. */
  cpuMs: number;
}

/**
 * A contender: runs `ops` operations per call, timed here; or, when it runs in another process, returns the
 * whole {@link Segment} as that process measured it.
 */
export interface Contender {
  name: string;
  segment(): Promise<{ ops: number } | Segment>;
}

/** Optional callbacks of {@link interleave}. */
export interface InterleaveHooks {
  /** Progress: called after each timed segment. */
  onSegment?: (name: string, round: number, segment: Segment) => void;
  /** Untimed work before each timed segment (e.g. trimming a server's log). */
  between?: () => Promise<void>;
  /** Untimed warm-up segments per contender before the first round (default 1). */
  warmUps?: number;
}

/** Per-contender segments and their median throughput. */
export interface ContenderResult {
  name: string;
  segments: Segment[];
  /** Median of the segments' operations per second. */
  opsPerSecond: number;
  /** CPU microseconds per operation in this process over all its segments (the client's own cost). */
  cpuMicrosPerOp: number;
}

/**
 * Runs the contenders in interleaved rounds after untimed warm-up segments (`warmUps`, one by default), the
 * order rotated every round (A, B, C; B, C, A; C, A, B; …) so each follows each of the others equally often
 * (in one process; see contender-process.ts for contenders in processes of their own): without a forced
 * GC, a segment pays for collecting some of the garbage the one before it left (a fetch client's segment
 * leaves much), and a fixed order charged that to the same contender every round. With `--expose-gc`, a
 * full GC also runs between segments (the bench does not set it: forced full GCs shrink the heap and made
 * every contender slower, by half for some). Interleaving spreads the noise of a shared machine over every
 * contender alike.
 */
export async function interleave(
  contenders: readonly Contender[],
  rounds: number,
  hooks: InterleaveHooks = {},
): Promise<ContenderResult[]> {
  const { onSegment, between, warmUps = 1 } = hooks;
  for (const contender of contenders) {
    for (let i = 0; i < warmUps; i++) await contender.segment();
  }
  const segments = new Map<string, Segment[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < contenders.length; turn++) {
      const contender = contenders[(round + turn) % contenders.length] as Contender;
      await between?.();
      collectGarbage();
      const segment = await timed(() => contender.segment());
      segments.get(contender.name)!.push(segment);
      onSegment?.(contender.name, round, segment);
    }
  }
  return contenders.map(({ name }) => resultOf(name, segments.get(name)!));
}

function resultOf(name: string, segments: Segment[]): ContenderResult {
  return {
    name,
    segments,
    opsPerSecond: median(segments.map((s) => (s.ops * 1000) / s.ms)),
    cpuMicrosPerOp: cpuMicrosPerOpOf(segments),
  };
}

/** The results of several sets of the same contenders (in the same order) as one: every segment of each. */
export function mergeSets(sets: readonly (readonly ContenderResult[])[]): ContenderResult[] {
  return (sets[0] ?? []).map(({ name }, k) =>
    resultOf(
      name,
      sets.flatMap((set) => set[k]!.segments),
    ),
  );
}

/**
 * The median over rounds of `a`'s throughput divided by `b`'s in the same round: each ratio compares two
 * segments run back to back, so a slow patch of the machine weighs on both sides of it.
 */
/** The median wall time of a contender's segments, in ms. */
export function medianMs(result: ContenderResult): number {
  return median(result.segments.map((segment) => segment.ms));
}

export function pairedRatio(a: ContenderResult, b: ContenderResult): number {
  return pairedMedian(a, b, (segment) => segment.ops / segment.ms);
}

/**
 * `a`'s client CPU per operation over all its segments divided by `b`'s (below 1: `a` costs less). Totals,
 * not a median of per-round ratios: garbage collection comes in whole collections that land in some segments
 * and not in others (in the bulk scenario a 25,000-row segment costs 2 to 7 µs a row depending on what it
 * collected), so a round's ratio often compares a segment that paid for a collection with one that did not;
 * over all rounds, each contender pays for the collections its allocations bring about. Process CPU time is
 * little disturbed by other processes on the machine, unlike wall time, which {@link pairedRatio} pairs round
 * by round.
 */
export function cpuRatio(a: ContenderResult, b: ContenderResult): number {
  return a.cpuMicrosPerOp / b.cpuMicrosPerOp;
}

function cpuMicrosPerOpOf(segments: readonly Segment[]): number {
  let cpuMs = 0;
  let ops = 0;
  for (const segment of segments) {
    cpuMs += segment.cpuMs;
    ops += segment.ops;
  }
  return (cpuMs * 1000) / ops;
}

function pairedMedian(a: ContenderResult, b: ContenderResult, of: (segment: Segment) => number): number {
  return median(a.segments.map((segment, i) => of(segment) / of(b.segments[i]!)));
}

/** Times one segment: wall clock and this process's CPU (or the segment as another process measured it). */
export async function timed(run: () => Promise<{ ops: number } | Segment>): Promise<Segment> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const done = await run();
  if ('cpuMs' in done) return done;
  const { ops } = done;
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ops, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Runs `total` calls of `call` with at most `concurrency` in flight; resolves with `total`. */
export async function pool(
  total: number,
  concurrency: number,
  call: (index: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      await call(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return total;
}
