import { isRecord } from '../core/is-record.js';
import { type Unrecognized, unrecognized } from '../core/request/response-validation.js';

/** One available contract version; whatever else the server says about it is kept. */
export interface ContractVersionInfo {
  /** Usable as `{version}` in the contract document calls. */
  version: string;
  [field: string]: unknown;
}

/**
 * `client.contracts.versions()`: the versions, read out of a shape the SDK recognises, or (`unrecognized`)
 * the body as the server sent it, with no `versions` (never an empty list in place of one it cannot read).
 */
export type ContractVersions =
  | {
      /** The server's `latest` when it names one, else the highest listed version (numbers compared as numbers). */
      latest: string | undefined;
      /** Every listed version, in the server's order. */
      versions: ContractVersionInfo[];
    }
  | ({ latest: undefined; versions?: undefined } & Unrecognized);

/** A contract document list (`templates.list()` …): the documents, or the body as sent when unrecognised. */
export type ContractDocumentList<Document> = Document[] | Unrecognized;

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
 * The versions of a `GET /v1/contracts` body. Recognised: a list whose every entry names a version (a
 * string, or an object with `version`, `name` or `id`), alone or under `versions` with an optional
 * `latest`. Anything else (a map of versions, another wrapper, an entry that names none) comes back as sent.
 */
export function contractVersionsOf(body: unknown): ContractVersions {
  const entries = Array.isArray(body) ? body : isRecord(body) ? body['versions'] : undefined;
  const latest = isRecord(body) ? body['latest'] : undefined;
  if (!Array.isArray(entries) || (latest != null && typeof latest !== 'string'))
    return unrecognized(body, { latest: undefined });
  const versions = entries.map(versionOf);
  if (versions.includes(undefined)) return unrecognized(body, { latest: undefined });
  const listed = versions as ContractVersionInfo[];
  // Highest first; a stable sort keeps the first listed of versions that compare equal (`v1`, `v01`).
  const highest = listed.map((entry) => entry.version).sort((a, b) => compareVersions(b, a))[0];
  return { latest: latest ?? highest, versions: listed };
}

/**
 * The documents of a list body. Recognised: an array of objects, alone or under `key` (`{ templates: [...] }`).
 * Anything else (a map keyed by name, another wrapper, string entries, an empty object) comes back as sent.
 */
export function documentsOf<Document>(body: unknown, key: string): ContractDocumentList<Document> {
  const found = Array.isArray(body) ? body : isRecord(body) ? body[key] : undefined;
  if (!Array.isArray(found) || !found.every(isRecord)) return unrecognized(body);
  return found as Document[];
}
