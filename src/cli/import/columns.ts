import { z } from 'zod';
import { UsageError } from '../usage-error.js';
import { closestFields, headerKey, headerKeys } from './header-names.js';
import { ImportInputError } from './import-exit.js';
import type { ImportKind } from './import-kind.js';
import { type IdSource, investorIdFromEmail } from './investor-id.js';

/** Which field each column of the file holds, and back. */
export interface ColumnMap {
  /** The header as read (trimmed). */
  readonly header: readonly string[];
  /** Field path (`email`, `lumpSum.value`) per column; `undefined` for an ignored column. */
  readonly fields: readonly (string | undefined)[];
  /** The same paths split at their dots, once for the file rather than per cell. */
  readonly paths: readonly (readonly string[] | undefined)[];
  /** The e-mail column `partnerInvestorId` is derived from (`--id-from email`), if it is. */
  readonly idSource?: number | undefined;
  /** The column a field is read from, or the field itself when no column holds it. */
  columnOf(field: string): string;
  has(field: string): boolean;
}

/**
 * Every field path of an input schema, nested objects dotted (`lumpSum.currency`), each with whether the
 * schema requires it: read from the SDK's own zod schema, so the CLI knows no field list of its own.
 */
export function fieldPaths(schema: z.ZodObject, prefix = '', parentRequired = true): Map<string, boolean> {
  const paths = new Map<string, boolean>();
  for (const [name, field] of Object.entries(schema.shape)) {
    const required = parentRequired && !(field as z.ZodType).safeParse(undefined).success;
    if (field instanceof z.ZodObject) {
      for (const [path, inner] of fieldPaths(field, `${prefix}${name}.`, required)) paths.set(path, inner);
    } else paths.set(`${prefix}${name}`, required);
  }
  return paths;
}

/**
 * Matches the header to fields: `--map column=field` first, then field names and the column names people
 * use in six languages (`HEADER_NAMES`), both compared by {@link headerKey} (case, spaces and punctuation ignored).
 * A column matching nothing, a field read from two columns or a required field with no column is an
 * {@link ImportInputError} naming the closest fields (nothing is sent); a `--map` naming an unknown field a
 * usage error. With `idFrom` (`--id-from email`), `partnerInvestorId` is derived from the e-mail column,
 * which the file must have, and must not have an id column besides.
 */
export function mapColumns(
  header: readonly string[],
  kind: ImportKind,
  maps: readonly string[],
  idFrom?: IdSource,
): ColumnMap {
  const paths = fieldPaths(kind.schema);
  const known = [...paths.keys(), ...kind.extraFields];
  const byKey = new Map<string, string>();
  // Suggestions for a name that matches nothing come from the field names and English names only: short
  // names of other languages (Nome, Land) would make near misses of unrelated columns (Notes, Band).
  const nearKey = new Map<string, string>();
  for (const [name, field] of headerKeys(['en'])) if (known.includes(field)) nearKey.set(name, field);
  for (const [name, field] of headerKeys()) if (known.includes(field)) byKey.set(name, field);
  for (const [alias, field] of Object.entries(kind.aliases)) byKey.set(headerKey(alias), field);
  for (const field of known) {
    byKey.set(headerKey(field), field);
    nearKey.set(headerKey(field), field);
  }
  const names = header.map((name) => name.trim());
  const explicit = new Map<string, string | undefined>();
  for (const map of maps) {
    const at = map.lastIndexOf('=');
    const column = map.slice(0, at).trim().toLowerCase();
    const field = map.slice(at + 1).trim();
    if (at <= 0 || (field !== '' && !known.includes(field))) {
      throw new UsageError(`--map '${map}': expected column=field, field one of ${known.join(', ')}`);
    }
    if (!names.some((name) => name.toLowerCase() === column)) {
      throw new ImportInputError(`--map '${map}': the header has no column '${map.slice(0, at)}'`);
    }
    explicit.set(column, field === '' ? undefined : field);
  }
  const emails = headerKeys();
  const emailAt = names.findIndex((name) => {
    const lower = name.toLowerCase();
    if (explicit.has(lower)) return explicit.get(lower) === 'email';
    const key = headerKey(name);
    return key === 'email' || emails.get(key) === 'email';
  });
  const idSource = idFrom === 'email' ? emailAt : undefined;
  if (idSource === -1) {
    throw new ImportInputError(
      `--id-from email: the header has no e-mail column (${names.map((name) => `'${name}'`).join(', ')})`,
    );
  }
  const unknown: string[] = [];
  const fields = names.map((name, index) => {
    const lower = name.toLowerCase();
    if (explicit.has(lower)) return explicit.get(lower);
    if (name === '') return undefined;
    // The e-mail column of a kind without an e-mail field is read only for the id.
    if (index === idSource && !known.includes('email')) return undefined;
    const field = byKey.get(headerKey(name));
    if (field === undefined) unknown.push(name);
    return field;
  });
  if (unknown.length > 0) {
    const lines = unknown.map((name) => {
      const near = closestFields(name, nearKey);
      const guess = near.length > 0 ? `closest: ${near.join(', ')}; ` : '';
      return `column '${name}' matches no ${kind.name} field (${guess}read it with --map '${name}=<field>' or skip it with --map '${name}=')`;
    });
    throw new ImportInputError(`${lines.join('; ')}; fields: ${known.join(', ')}${oneColumnHint(names)}`);
  }
  const columnOfField = new Map<string, string>();
  fields.forEach((field, index) => {
    if (field === undefined) return;
    const other = columnOfField.get(field);
    const name = names[index] ?? field;
    if (other !== undefined) {
      const near = closestFields(name, nearKey).filter((candidate) => candidate !== field);
      const hint = near.length > 0 ? ` (closest other fields: ${near.join(', ')})` : '';
      throw new ImportInputError(
        `columns '${other}' and '${name}' both hold ${field}: read one as another field with --map '${name}=<field>'${hint}, or skip it with --map '${name}='`,
      );
    }
    columnOfField.set(field, name);
  });
  if (idSource !== undefined) {
    const idColumn = columnOfField.get('partnerInvestorId');
    if (idColumn !== undefined) {
      throw new ImportInputError(
        `the file has an investor id column ('${idColumn}'): drop --id-from email, or skip that column with --map '${idColumn}='`,
      );
    }
    columnOfField.set('partnerInvestorId', names[idSource] ?? 'email');
  }
  const missing = [...paths]
    .filter(([field, required]) => required && !columnOfField.has(field))
    .filter(
      ([field]) => !columnOfField.has(kind.substitutes[field] ?? field) && !kind.filled?.includes(field),
    )
    .map(([field]) => field);
  if (missing.length > 0) {
    const unread = names.filter((_, index) => fields[index] === undefined && names[index] !== '');
    const hint = unread.length > 0 ? `; unread columns: ${unread.map((name) => `'${name}'`).join(', ')}` : '';
    const derive =
      missing.includes('partnerInvestorId') && emailAt >= 0
        ? `, or derive it from '${names[emailAt]}' with --id-from email`
        : '';
    throw new ImportInputError(
      `no column for ${missing.join(', ')} (required): name one with --map '<column>=${missing[0]}'${derive}${hint}`,
    );
  }
  return {
    header: names,
    fields,
    paths: fields.map((field) => field?.split('.')),
    idSource,
    columnOf: (field) => columnOfField.get(field) ?? field,
    has: (field) => columnOfField.has(field),
  };
}

/**
 * A header read as one column was most likely split by a character other than `,`, `;` or TAB: the hint
 * names `--delimiter` with the likeliest one (the commonest punctuation in the header).
 */
function oneColumnHint(names: readonly string[]): string {
  if (names.length !== 1) return '';
  const counts = new Map<string, number>();
  for (const char of names[0] ?? '') {
    if (/[\p{L}\p{N}\s_.()'-]/u.test(char)) continue;
    counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  const [likeliest] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['<char>'];
  return `. The file reads as one column: if another character splits its values, name it with --delimiter '${likeliest}'`;
}

/** The mapping as `--check` prints it: one `  'E-mail' → email` line per column. */
export function describeColumns(columns: ColumnMap): string {
  const width = Math.max(...columns.header.map((name) => name.length + 2));
  return columns.header
    .map((name, index) => {
      const field = columns.fields[index];
      const read =
        index === columns.idSource
          ? `${field === undefined ? '' : `${field}, `}partnerInvestorId (--id-from email)`
          : (field ?? '(skipped)');
      return `  ${`'${name}'`.padEnd(width)}  → ${read}`;
    })
    .join('\n');
}

/**
 * One record as the object the schema checks: every cell trimmed (the same in every column), non-empty
 * cells only, dotted fields nested, and `partnerInvestorId` derived from the e-mail with `--id-from email`.
 */
export function rowObject(cells: readonly string[], columns: ColumnMap): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const { paths } = columns;
  for (let index = 0; index < paths.length; index += 1) {
    const path = paths[index];
    const value = cells[index]?.trim();
    if (path === undefined || value === undefined || value === '') continue;
    let target = row;
    for (let depth = 0; depth < path.length - 1; depth += 1) {
      const key = path[depth] as string;
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[path[path.length - 1] as string] = value;
  }
  const source = columns.idSource;
  if (source !== undefined) {
    const email = cells[source]?.trim();
    if (email !== undefined && email !== '') row['partnerInvestorId'] = investorIdFromEmail(email);
  }
  return row;
}

/** How many read cells of the record {@link rowObject} trimmed: spaces around a value, shown in the summary. */
export function trimmedCells(cells: readonly string[], columns: ColumnMap): number {
  let count = 0;
  columns.fields.forEach((field, index) => {
    const value = cells[index];
    if (field !== undefined && value !== undefined && value !== value.trim()) count += 1;
  });
  return count;
}
