/**
 * One request's worth of rows: chunk `index` holds the rows sent from input positions
 * `[index * chunkSize, (index + 1) * chunkSize)`. Rows refused client-side leave holes rather than shifting
 * later rows into other chunks, so fixing one row and running the call again changes only that row's chunk
 * (and its derived idempotency key); slots with nothing to send send nothing.
 */
export interface BulkChunk {
  index: number;
  /** The slot's first input position. */
  start: number;
  /** How many rows it sends. */
  count: number;
  /**
   * Input positions of the rows it sends, ascending, when some rows of the slot were refused; `undefined`
   * in the usual case, a slot sent whole (positions `start … start + count - 1`).
   */
  positions: number[] | undefined;
}

/** The input position of the chunk's `i`-th row. */
export function positionOf(chunk: BulkChunk, i: number): number {
  return chunk.positions === undefined ? chunk.start + i : (chunk.positions[i] as number);
}
