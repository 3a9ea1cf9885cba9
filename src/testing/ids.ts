import { randomBytes } from 'node:crypto';

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random id such as `spvr_3k9x…`: a readable prefix and 20 base-36 characters (~103 bits). */
export function randomId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  // The modulo favours the first few characters slightly; ids need uniqueness, not uniformity.
  for (const byte of bytes) out += alphabet[byte % 36];
  return `${prefix}_${out}`;
}

/** A bearer-style secret: a prefix and 32 random bytes in base64url. */
export function randomSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
