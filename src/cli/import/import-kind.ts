import type { z } from 'zod';
import type { BulkChunkReport, PartnerEquity } from '../../index.js';

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
  /** Required fields a flag fills when the file has no column for them (`--currency`, `--share-class`). */
  filled?: readonly string[];
  /**
   * Header names (as the file writes them) read as no field: another kind's columns of the same sheet
   * (a subscriptions sheet's investor columns without `--with-investors`), which `--check` lists.
   */
  ignoredColumns?(header: readonly string[]): string[];
  /** Fields of the row echoed in the results file, before `status`. */
  echoFields: readonly string[];
  /** The results file's column for the created thing's id. */
  idColumn: string;
  /** Refuses a header this kind cannot import with the options given (a usage error). */
  checkColumns?(columns: { has(field: string): boolean }): void;
  /**
   * Fills fields from {@link extraFields} (partnerInvestorId → servicePersonId) and from flags, and checks
   * what the target says of the row (its SPV's currency); the field at fault and why, or undefined.
   */
  resolve?(row: Record<string, unknown>): { field: string; reason: string } | undefined;
  /**
   * Sends the rows through the SDK's bulk call (`null` holds the place of a row refused locally: the SDK
   * refuses it too). `onChunk` gets each chunk's outcomes, one per row in order, and its requests.
   */
  send(
    client: PartnerEquity,
    rows: AsyncIterable<Record<string, unknown> | null>,
    options: SendOptions,
  ): Promise<void>;
}

/** How {@link ImportKind.send} sends: the SDK's bulk options, and where each chunk's outcomes go. */
export interface SendOptions {
  idempotencyKey: string;
  chunkSize: number;
  concurrency: number;
  onChunk(outcomes: RowOutcome[], reports: readonly BulkChunkReport[]): Promise<void>;
}
