/** Joins byte chunks into one array of `total` bytes (the caller has already summed their lengths). */
export function concatBytes(parts: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.byteLength;
  }
  return joined;
}
