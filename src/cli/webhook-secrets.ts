import { readFile, stat } from 'node:fs/promises';
import { cliSecrets } from './cli-secrets.js';
import type { CliIo, OptionSpec, OptionValues } from './command.js';
import { stringList, stringValue } from './parse-options.js';
import { CommandError, UsageError } from './usage-error.js';

/** Environment variable holding the webhook signing secret. */
export const WEBHOOK_SECRET_ENV = 'PE_WEBHOOK_SECRET';
/** Environment variable naming a file that holds the webhook signing secret(s). */
export const WEBHOOK_SECRET_FILE_ENV = 'PE_WEBHOOK_SECRET_FILE';

const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** The `--secret` / `--secret-file` options shared by the webhook commands. */
export const secretOptions: Record<'secret' | 'secret-file', OptionSpec> = {
  secret: {
    type: 'string',
    multiple: true,
    valueName: '<secret>',
    env: WEBHOOK_SECRET_ENV,
    description:
      'Signing secret; repeat during a rotation (visible in ps and shell history: prefer the file or env)',
  },
  'secret-file': {
    type: 'string',
    valueName: '<file>',
    env: WEBHOOK_SECRET_FILE_ENV,
    description: 'File holding the signing secret, one per line during a rotation (keep it mode 0600)',
  },
};

/** The secrets of one file: one per line, surrounding blanks and empty lines ignored. */
async function readSecretFile(file: string, io: CliIo): Promise<string[]> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CommandError(
      `cannot read the secret file '${file}'${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  if (!info.isFile()) throw new CommandError(`the secret file '${file}' is not a regular file`);
  if (info.size > MAX_SECRET_FILE_BYTES) throw new CommandError(`the secret file '${file}' is too large`);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    io.stderr.write(
      `warning: the secret file '${file}' is readable by other users (mode ${mode}): chmod 600 it\n`,
    );
  }
  const secrets = (await readFile(file, 'utf8'))
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (secrets.length === 0) throw new CommandError(`the secret file '${file}' holds no secret`);
  return secrets;
}

/**
 * Secrets from `--secret` (repeatable) or `--secret-file`, else from PE_WEBHOOK_SECRET, else from the file
 * PE_WEBHOOK_SECRET_FILE names. A secret on the command line works but earns a warning: other local users
 * see it in `ps`.
 */
export async function webhookSecrets(values: OptionValues, io: CliIo): Promise<string[]> {
  const secrets = await findWebhookSecrets(values, io);
  // Redacted by value from every error line this process writes (formatError).
  for (const secret of secrets) cliSecrets.add(secret);
  return secrets;
}

async function findWebhookSecrets(values: OptionValues, io: CliIo): Promise<string[]> {
  const given = stringList(values, 'secret');
  const file = stringValue(values, 'secret-file');
  if (given.length > 0 && file !== undefined)
    throw new UsageError('give --secret or --secret-file, not both');
  if (given.length > 0) {
    io.stderr.write(
      `warning: --secret is visible to other users in the process list; use --secret-file or ${WEBHOOK_SECRET_ENV}\n`,
    );
    return given;
  }
  if (file !== undefined) return readSecretFile(file, io);
  const fromEnv = io.env[WEBHOOK_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return [fromEnv];
  const envFile = io.env[WEBHOOK_SECRET_FILE_ENV];
  if (envFile !== undefined && envFile !== '') return readSecretFile(envFile, io);
  throw new UsageError(
    `no webhook secret: set ${WEBHOOK_SECRET_ENV} or ${WEBHOOK_SECRET_FILE_ENV}, or pass --secret-file`,
  );
}
