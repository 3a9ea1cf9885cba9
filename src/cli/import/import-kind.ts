import type { z } from 'zod';
import type { PartnerEquity } from '../../index.js';
import type { ColumnMap } from './columns.js';

/** What `partner-equity import` can import. */
export type ImportKindName = 'investors' | 'subscriptions';

/** Why a row has no result: the API's row error, the local check's, or its chunk's. */
export interface RowError {
  code: string;
  message: string;
  retryable: boolean;
  /** The field (API) or column (local check) at fault, when one is. */
  field?: string | null | undefined;
}

/** One row's outcome, as the results file shows it. */
export interface RowOutcome {
  /** The API's status for the row (`created`, `existing`, a subscription status…), or `failed`. */
  status: string;
  /** `servicePersonId` or `subscriptionSlug` on success. */
  id?: string | undefined;
  error?: RowError | undefined;
}

/** How one kind of row is read, checked, sent and reported. */
export interface ImportKind {
  name: ImportKindName;
  /** The SDK's own input schema: it names the fields and checks every row. */
  schema: z.ZodObject;
  /** Header names (lower case) read as a field. */
  aliases: Readonly<Record<string, string>>;
  /** Columns read besides the schema's fields (resolved before the check). */
  extraFields: readonly string[];
  /** A required field that may be missing when this other column is there. */
  substitutes: Readonly<Record<string, string>>;
  /** Fields of the row echoed in the results file, before `status`. */
  echoFields: readonly string[];
  /** The results file's column for the created thing's id. */
  idColumn: string;
  /**
   * Whether a chunk with a locally refused row is held back whole: the API takes a subscriptions request
   * whole, and a re-run after the fix must not re-send rows it already created under another key.
   */
  holdBackChunkWithBadRow: boolean;
  /** Refuses a header this kind cannot import with the options given (a usage error). */
  checkColumns?(columns: ColumnMap): void;
  /** Fills fields from {@link extraFields} (partnerInvestorId → servicePersonId); a problem, or undefined. */
  resolve?(row: Record<string, unknown>): string | undefined;
  /** Sends one chunk of checked rows under `idempotencyKey`; one outcome per row, in order. */
  send(client: PartnerEquity, rows: Record<string, unknown>[], idempotencyKey: string): Promise<RowOutcome[]>;
  /** The outcome of each row of a chunk the API refused with a 400, or `undefined` if it cannot say. */
  refused?(error: unknown, rowCount: number): RowOutcome[] | undefined;
}
