/**
 * Compares two strings without an early exit, so the time taken does not reveal how many leading
 * characters of a forged signature were right. Lengths are public (every v1 signature is 44 characters).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
