import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';

// Security review of issue 46: PE_PRIVATE_KEY_FILE holding the key itself rather than a path (easy in an
// env file or a CI variable) was quoted whole in the CLI's error line; only PEM was redacted there.
const { privateKey } = generateKeyPairSync('ed25519');
const der = privateKey.export({ format: 'der', type: 'pkcs8' });
const jwk = privateKey.export({ format: 'jwk' });
const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

const forms: [string, string, string][] = [
  ['base64 PKCS#8', der.toString('base64'), der.toString('base64')],
  ['base64url PKCS#8', der.toString('base64url'), der.toString('base64url')],
  ['a JWK', JSON.stringify(jwk), jwk.d!],
  ['PEM', pem, pem.split('\n')[1]!],
];

describe('a key given where the key file name belongs', () => {
  it.each(forms)(
    'as %s: the error names the variable and the fix, and never quotes the key',
    async (_, value, secret) => {
      const result = await runCli(['token'], {
        env: {
          PE_BASE_URL: 'http://127.0.0.1:9',
          PE_CLIENT_ID: 'client_1',
          PE_ISSUER: 'https://partner.example',
          PE_PRIVATE_KEY_FILE: value,
        },
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        'PE_PRIVATE_KEY_FILE (or --private-key-file) seems to hold a key itself',
      );
      expect(result.stderr + result.stdout).not.toContain(secret);
      expect(result.stderr + result.stdout).not.toContain(secret.slice(8, 28));
    },
  );
});
