/**
 * One request's worth of rows: chunk `index` holds the rows sent from input positions
 * `[index * chunkSize, (index + 1) * chunkSize)`. Rows refused client-side leave holes rather than shifting
 * later rows into other chunks, so fixing one row and running the call again changes only that row's chunk
 * (and its derived idempotency key); slots with nothing to send send nothing.
 */
export interface BulkChunk {
  index: number;
  /** Input positions of the rows it sends, ascending. */
  positions: number[];
}
