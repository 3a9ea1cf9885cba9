/**
 * Exit statuses of `partner-equity import`, distinct so a script can branch on them. 1 (the command
 * failed: credentials, the API refusing every chunk) and 2 (usage error) are the CLI's own.
 */
export const IMPORT_EXIT = {
  /** Every row done. */
  done: 0,
  /** Some rows failed; the others are done (the results file says which). */
  rowsFailed: 3,
  /** The file is unreadable or has bad rows (`--check`), or its header does not map: nothing was sent. */
  badInput: 4,
  /** Stopped by SIGINT after the chunks in flight (128 + 2). */
  interrupted: 130,
} as const;

/** A problem with the input file found before anything was sent: exit {@link IMPORT_EXIT.badInput}. */
export class ImportInputError extends Error {
  override readonly name = 'ImportInputError';
}
