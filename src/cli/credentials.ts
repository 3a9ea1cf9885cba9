import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import type { ClientOptions } from '../core/client-options.js';
import type { CliIo, OptionSpec, OptionValues } from './command.js';
import { stringValue } from './parse-options.js';
import { CommandError, UsageError } from './usage-error.js';

/** Environment variables the CLI, the examples and the README quickstart read credentials from. */
export const CREDENTIAL_ENV = {
  baseUrl: 'PE_BASE_URL',
  clientId: 'PE_CLIENT_ID',
  issuer: 'PE_ISSUER',
  privateKeyFile: 'PE_PRIVATE_KEY_FILE',
  keyId: 'PE_KEY_ID',
} as const;

/** Flags naming the client credentials; each falls back to its environment variable, then to --env-file. */
export const credentialOptions: Record<string, OptionSpec> = {
  'env-file': {
    type: 'string',
    valueName: '<file>',
    description:
      'Read PE_* variables from this file (NAME=value lines, as mock --env-out writes); set ones win',
  },
  'base-url': {
    type: 'string',
    valueName: '<url>',
    env: CREDENTIAL_ENV.baseUrl,
    description: 'Environment base URL, exactly as registered (the JWT aud)',
  },
  'client-id': {
    type: 'string',
    valueName: '<id>',
    env: CREDENTIAL_ENV.clientId,
    description: 'Your client_id',
  },
  issuer: {
    type: 'string',
    valueName: '<url>',
    env: CREDENTIAL_ENV.issuer,
    description: 'Your own API base URL (the JWT iss)',
  },
  'private-key-file': {
    type: 'string',
    valueName: '<file>',
    env: CREDENTIAL_ENV.privateKeyFile,
    description: 'Your Ed25519 private key (PKCS#8 PEM)',
  },
  'key-id': {
    type: 'string',
    valueName: '<kid>',
    env: CREDENTIAL_ENV.keyId,
    description: 'Registered key id, sent as the JWT kid (optional)',
  },
};

/**
 * The command's streams with the variables of `--env-file` added under the environment, as
 * `node --env-file` does: a variable already set wins. Without the flag, `io` itself.
 */
export async function withEnvFile(values: OptionValues, io: CliIo): Promise<CliIo> {
  const file = stringValue(values, 'env-file');
  if (file === undefined) return io;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CommandError(`cannot read --env-file '${file}' (${code})`);
  }
  return { ...io, env: { ...parseEnv(text), ...io.env } };
}

/** Client options from flags, else environment variables; every missing one is named in one error. */
export async function readCredentials(
  values: OptionValues,
  io: CliIo,
): Promise<Pick<ClientOptions, 'baseUrl' | 'clientId' | 'issuer' | 'privateKey' | 'keyId'>> {
  const read = (flag: string, env: string) => {
    const value = stringValue(values, flag) ?? io.env[env];
    return value === '' ? undefined : value;
  };
  const baseUrl = read('base-url', CREDENTIAL_ENV.baseUrl);
  const clientId = read('client-id', CREDENTIAL_ENV.clientId);
  const issuer = read('issuer', CREDENTIAL_ENV.issuer);
  const keyFile = read('private-key-file', CREDENTIAL_ENV.privateKeyFile);
  const keyId = read('key-id', CREDENTIAL_ENV.keyId);
  const missing = [
    baseUrl === undefined && `--base-url (${CREDENTIAL_ENV.baseUrl})`,
    clientId === undefined && `--client-id (${CREDENTIAL_ENV.clientId})`,
    issuer === undefined && `--issuer (${CREDENTIAL_ENV.issuer})`,
    keyFile === undefined && `--private-key-file (${CREDENTIAL_ENV.privateKeyFile})`,
  ].filter((item) => item !== false);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`);
  let privateKey: string;
  try {
    privateKey = await readFile(keyFile!, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    // A variable that holds the key itself (easy in an env file or a CI variable) is never quoted.
    if (looksLikeKey(keyFile!)) {
      throw new CommandError(
        `${CREDENTIAL_ENV.privateKeyFile} (or --private-key-file) seems to hold a key itself, not a file name (not shown): write the key to a file only you can read and name that file`,
      );
    }
    throw new CommandError(
      `cannot read the private key file '${keyFile}' (${code}): set ${CREDENTIAL_ENV.privateKeyFile} (or --private-key-file) to your PKCS#8 PEM key, e.g. the one partner-equity keys generate --out wrote`,
    );
  }
  return {
    baseUrl: baseUrl!,
    clientId: clientId!,
    issuer: issuer!,
    privateKey,
    ...(keyId !== undefined && { keyId }),
  };
}

// PEM, a JWK, or a run of base64 as long as an Ed25519 key's (a PKCS#8 DER is 64 characters, a raw `d` 43):
// no file name the CLI would quote. A long name without a dot or a separator may be refused too; it is
// then named only by its variable.
function looksLikeKey(value: string): boolean {
  const text = value.trim();
  return (
    text.includes('-----') || text.startsWith('{') || /\s/.test(text) || /^[A-Za-z0-9+/_=-]{40,}$/.test(text)
  );
}
