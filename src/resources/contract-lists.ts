import type { ContractVersionList } from '../schemas/contracts.js';

/** One available contract version; whatever else the server says about it is kept. */
export interface ContractVersionInfo {
  /** Usable as `{version}` in the contract document calls. */
  version: string;
  [field: string]: unknown;
}

/** `client.contracts.versions()`: the versions, read out of whichever shape the server answers with. */
export interface ContractVersions {
  /** The server's `latest` when it names one, else the highest listed version (numbers compared as numbers). */
  latest: string | undefined;
  /** Every listed version, in the server's order. */
  versions: ContractVersionInfo[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function versionOf(entry: unknown): ContractVersionInfo | undefined {
  if (typeof entry === 'string' && entry !== '') return { version: entry };
  if (!isRecord(entry)) return undefined;
  const name = [entry['version'], entry['name'], entry['id']].find((v) => typeof v === 'string' && v !== '');
  return name === undefined ? undefined : { ...entry, version: name as string };
}

// Digit runs compared as numbers (`v10` after `v9`, `2025-06` after `2024-12`), without ICU collation.
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.match(/\d+|\D+/g) ?? [];
  const [left, right] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const [x, y] = [left[i] ?? '', right[i] ?? ''];
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    const order = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The versions of a `GET /v1/contracts` body: a plain list (of strings or objects), or an object that holds
 * one under `versions` (or any other array field) and maybe names the `latest`.
 */
export function contractVersionsOf(body: ContractVersionList | unknown): ContractVersions {
  const entries = Array.isArray(body) ? body : isRecord(body) ? firstArray(body, 'versions') : [];
  const versions = entries.map(versionOf).filter((entry) => entry !== undefined);
  const named = isRecord(body) && typeof body['latest'] === 'string' ? body['latest'] : undefined;
  const highest = versions
    .map((entry) => entry.version)
    .reduce<string | undefined>(
      (max, v) => (max === undefined || compareVersions(v, max) > 0 ? v : max),
      undefined,
    );
  return { latest: named ?? highest, versions };
}

/** The documents of a list body: the body itself when it is an array, else its `key` (or first array) field. */
export function documentsOf<Document>(body: unknown, key: string): Document[] {
  const found = Array.isArray(body) ? body : isRecord(body) ? firstArray(body, key) : [];
  return found.filter(isRecord) as Document[];
}

function firstArray(body: Record<string, unknown>, key: string): unknown[] {
  const named = body[key];
  if (Array.isArray(named)) return named;
  const other = Object.values(body).find(Array.isArray);
  return other ?? [];
}
