import { generateKeyPair } from '../../auth/generate-key-pair.js';
import type { Command } from '../command.js';
import { flag, stringValue } from '../parse-options.js';
import { writeSecretFile } from '../write-secret-file.js';

/** `partner-equity keys generate`: a new Ed25519 key pair for client assertions. */
export const keysGenerate: Command = {
  path: ['keys', 'generate'],
  summary: 'Generate an Ed25519 key pair: private key to a file (0600), public key to register on stdout',
  synopsis: '[--out <file>] [--force] [--pem]',
  details: [
    'Writes the private key as PKCS#8 PEM, readable by you only, and prints the public key as a JWK',
    '(or SPKI PEM with --pem) for registration with Partner Equity. Store the private key in your secret',
    'manager and pass it to the SDK as `privateKey`, or to `partner-equity token` as PE_PRIVATE_KEY_FILE.',
  ].join('\n'),
  options: {
    out: {
      type: 'string',
      short: 'o',
      valueName: '<file>',
      description: 'Where to write the private key (default: partner-equity-private-key.pem)',
    },
    force: { type: 'boolean', description: 'Overwrite the file if it exists' },
    pem: { type: 'boolean', description: 'Print the public key as SPKI PEM instead of a JWK' },
  },
  async run(values, io) {
    const out = stringValue(values, 'out') ?? 'partner-equity-private-key.pem';
    const { privateKeyPem, publicKeyJwk, publicKeyPem } = await generateKeyPair();
    const written = await writeSecretFile(out, privateKeyPem, flag(values, 'force'));
    io.stderr.write(
      `Wrote the private key to ${written} (mode 0600); keep it secret.\n` +
        'Register this public key with Partner Equity for your client_id:\n',
    );
    io.stdout.write(flag(values, 'pem') ? publicKeyPem : `${JSON.stringify(publicKeyJwk, null, 2)}\n`);
    return 0;
  },
};
