/** One request's worth of rows: `index` is the chunk's slot in the input, stable across runs. */
export interface BulkChunk {
  index: number;
  /** Input positions of the rows it sends, ascending. */
  positions: number[];
}

/**
 * Groups the positions of rows to send into chunks by input slot: chunk `k` holds the rows sent from input
 * positions `[k * chunkSize, (k + 1) * chunkSize)`. Rows refused client-side leave holes rather than
 * shifting later rows into other chunks, so fixing one row and running the call again changes only that
 * row's chunk (and its derived idempotency key); empty slots send nothing.
 *
 * @example
 * ```ts
 * splitChunks([0, 1, 3, 4, 5], 2); // [{ index: 0, positions: [0, 1] }, { index: 1, positions: [3] }, { index: 2, positions: [4, 5] }]
 * ```
 */
export function splitChunks(positions: readonly number[], chunkSize: number): BulkChunk[] {
  const chunks: BulkChunk[] = [];
  for (const position of positions) {
    const index = Math.floor(position / chunkSize);
    const last = chunks.at(-1);
    if (last?.index === index) last.positions.push(position);
    else chunks.push({ index, positions: [position] });
  }
  return chunks;
}
