import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One line of a profile summary: a function and its share of the samples. */
export interface ProfileLine {
  /** `function file:line` (the last two path segments). */
  frame: string;
  /** Percent of all sampled time spent in the function itself. */
  selfPercent: number;
  /** Percent of all sampled time spent in the function or anything it called. */
  totalPercent: number;
}

const label = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;

/**
 * The functions of a `.cpuprofile` (as written by `node --cpu-prof`) by self time, with their inclusive
 * time; recursion is counted once per sample.
 */
export async function summarizeProfile(path: string, limit = 30): Promise<ProfileLine[]> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const timeOf = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    timeOf.set(id, (timeOf.get(id) ?? 0) + dt);
    total += dt;
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of timeOf) {
    const node = byId.get(id)!;
    const frame = label(node.callFrame);
    self.set(frame, (self.get(frame) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
  }
  const percent = (time: number) => Math.round((1000 * time) / total) / 10;
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([frame, time]) => ({
      frame,
      selfPercent: percent(time),
      totalPercent: percent(inclusive.get(frame) ?? 0),
    }));
}

/** Top functions by inclusive time (where the time goes, callers included). */
export async function summarizeInclusive(path: string, limit = 30, filter = ''): Promise<ProfileLine[]> {
  const all = await summarizeProfile(path, Number.POSITIVE_INFINITY);
  return all
    .filter((line) => line.frame.includes(filter))
    .sort((a, b) => b.totalPercent - a.totalPercent)
    .slice(0, limit);
}
