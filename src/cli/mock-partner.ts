import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FakeAdmin } from '../testing/admin.js';
import { randomId } from '../testing/ids.js';
import type { OptionSpec, OptionValues } from './command.js';
import { stringValue } from './parse-options.js';
import { CommandError, UsageError } from './usage-error.js';
import { writeSecretFile } from './write-secret-file.js';

/** The mock's flags that say which partner client it registers. */
export const mockPartnerOptions: Record<string, OptionSpec> = {
  'client-id': {
    type: 'string',
    valueName: '<id>',
    description: 'client_id to register (default: a random client_…)',
  },
  issuer: {
    type: 'string',
    valueName: '<url>',
    description: 'iss to register for it (default: https://partner.example)',
  },
  'public-key': {
    type: 'string',
    valueName: '<file|JWK>',
    description: 'Register this Ed25519 key instead of generating one: a PEM or JWK file, or inline JWK',
  },
  'key-out': {
    type: 'string',
    valueName: '<file>',
    description:
      'Where to write the generated private key (default: a private temp directory, removed on exit)',
  },
};

/** The partner client the mock registered, and where its private key is when the mock knows it. */
export interface MockPartner {
  clientId: string;
  issuer: string;
  /** Absent when only a public key was given: the caller signs with its own private key. */
  privateKeyFile: string | undefined;
  /** The end of the banner's "Partner client … registered" sentence: where the key came from. */
  keyNote: string;
}

/**
 * Registers the mock's partner: with `--public-key`, the key given (a private key file registers its public
 * half and becomes PE_PRIVATE_KEY_FILE); otherwise a fresh key written to a 0600 file, which goes when the
 * mock stops unless `--key-out` named it.
 */
export async function registerMockPartner(
  admin: FakeAdmin,
  values: OptionValues,
  cleanup: (() => Promise<void>)[],
): Promise<MockPartner> {
  const clientId = stringValue(values, 'client-id') ?? randomId('client', 12);
  const issuer = stringValue(values, 'issuer') ?? 'https://partner.example';
  if (!URL.canParse(issuer)) throw new UsageError(`--issuer '${issuer}' is not a URL`);
  const given = stringValue(values, 'public-key');
  const keyOut = stringValue(values, 'key-out');
  const register = (publicKey: Parameters<FakeAdmin['registerClient']>[0]['publicKey']) => {
    try {
      admin.registerClient({ clientId, issuer, publicKey, applicationName: 'partner-equity mock' });
    } catch (error) {
      throw new CommandError(`--public-key: ${(error as Error).message}`);
    }
  };

  if (given !== undefined) {
    if (keyOut !== undefined)
      throw new UsageError('--key-out writes a generated key; it does not go with --public-key');
    const inline = given.trimStart().startsWith('{');
    const text = inline ? given : await readKeyFile(given);
    const privateKeyFile = !inline && isPrivatePem(text) ? resolve(given) : undefined;
    register(text);
    return {
      clientId,
      issuer,
      privateKeyFile,
      keyNote:
        privateKeyFile === undefined
          ? ' with the public key you gave; sign with its private key (PE_PRIVATE_KEY_FILE for `partner-equity token`).'
          : ` with the public half of ${privateKeyFile}.`,
    };
  }

  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  register(publicKey);
  // Without --key-out the key goes in a fresh 0700 directory, under a fixed name (never the client id, which
  // could hold `../`), and the directory goes when the mock stops; a --key-out file is the user's.
  let keyFile = keyOut;
  if (keyFile === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'partner-equity-mock-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    keyFile = join(dir, 'partner.pem');
  }
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const written = await writeSecretFile(keyFile, pem, true);
  return {
    clientId,
    issuer,
    privateKeyFile: written,
    keyNote: `; its private key is in ${written} (mode 0600).`,
  };
}

async function readKeyFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CommandError(
      `--public-key: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
}

function isPrivatePem(text: string): boolean {
  if (!text.includes('PRIVATE KEY-----')) return false;
  try {
    return createPrivateKey(text).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}
