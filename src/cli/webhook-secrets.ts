import type { CliIo, OptionSpec, OptionValues } from './command.js';
import { stringList } from './parse-options.js';
import { UsageError } from './usage-error.js';

/** Environment variable holding the webhook signing secret. */
export const WEBHOOK_SECRET_ENV = 'PE_WEBHOOK_SECRET';

/** The `--secret` option shared by the webhook commands. */
export const secretOption: OptionSpec = {
  type: 'string',
  multiple: true,
  valueName: '<whsec_…>',
  env: WEBHOOK_SECRET_ENV,
  description: 'Signing secret; repeat during a rotation (prefer the env var: flags land in shell history)',
};

/** Secrets from `--secret` (repeatable), else from PE_WEBHOOK_SECRET. */
export function webhookSecrets(values: OptionValues, io: CliIo): string[] {
  const given = stringList(values, 'secret');
  if (given.length > 0) return given;
  const fromEnv = io.env[WEBHOOK_SECRET_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return [fromEnv];
  throw new UsageError(`no webhook secret: pass --secret or set ${WEBHOOK_SECRET_ENV}`);
}
