import { encodeBase64, encodeHex } from './base64.js';
import type { HmacEngine } from './hmac-engine.js';

const encoder = new TextEncoder();

function concat(prefix: string, body: string | Uint8Array, suffix = ''): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(prefix + body + suffix);
  const head = encoder.encode(prefix);
  const tail = encoder.encode(suffix);
  const out = new Uint8Array(head.length + body.length + tail.length);
  out.set(head, 0);
  out.set(body, head.length);
  out.set(tail, head.length + body.length);
  return out;
}

/** HMAC-SHA256 through Web Crypto (`crypto.subtle`): Workers, Deno, Bun, edge runtimes, browsers and Node. */
export const webCryptoEngine: HmacEngine<CryptoKey> = {
  importKey: (raw) => crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
  sign: async (key, prefix, body, suffix, encoding) => {
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, concat(prefix, body, suffix)));
    return encoding === 'hex' ? encodeHex(mac) : encodeBase64(mac);
  },
  digest: async (body) => encodeHex(new Uint8Array(await crypto.subtle.digest('SHA-256', concat('', body)))),
};
