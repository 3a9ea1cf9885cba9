// Base64 without Buffer so the default (Web) entry runs on Workers, Deno, Bun and edge runtimes alike.
// atob/btoa exist on all of them and on Node >= 16.

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** Standard base64 (with padding) of `bytes`. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/**
 * Decodes standard base64 (padding optional); `undefined` for anything else — whitespace, the URL-safe
 * alphabet and stray characters are refused rather than skipped the way `atob` would.
 */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!STANDARD_BASE64.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Lower-case hex of `bytes`. */
export function encodeHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += bytes[i]!.toString(16).padStart(2, '0');
  return hex;
}
