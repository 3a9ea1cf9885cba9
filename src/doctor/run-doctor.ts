import { z } from 'zod';
import { checkAccess } from './check-access.js';
import { checkConnection } from './check-connection.js';
import { checkContracts } from './check-contracts.js';
import { checkOpenApi } from './check-openapi.js';
import { checkToken } from './check-token.js';
import { checkWebhook, type DoctorWebhookOptions } from './check-webhook.js';
import {
  DOCTOR_GROUPS,
  type DoctorCheck,
  type DoctorGroup,
  type DoctorReport,
  worstStatus,
} from './doctor-report.js';
import type { DoctorTarget } from './doctor-target.js';
import { checkOptions } from './sdk-core.js';

/**
 * Options of `client.doctor()`.
 *
 * @example
 * ```ts
 * await client.doctor({ only: ['authentication'] });                        // just the token exchange
 * await client.doctor({ webhook: { url, secret, scheme: 'standard-webhooks' } }); // and your endpoint
 * await client.doctor({ openapi: JSON.parse(await readFile('openapi.json', 'utf8')) });
 * ```
 */
export interface DoctorOptions {
  /** Also probe your webhook endpoint with signed test events (only that URL is called for it). */
  webhook?: DoctorWebhookOptions | undefined;
  /** Compare this OpenAPI document (parsed JSON) instead of the service's `GET /openapi.json`. */
  openapi?: unknown;
  /** Run only these groups of checks. @default every group */
  only?: readonly DoctorGroup[] | undefined;
  signal?: AbortSignal | undefined;
}

const Options = z.strictObject({
  webhook: z
    .strictObject({
      url: z.url({ protocol: /^https?$/, error: 'Expected an http(s) URL' }),
      secret: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], 'Expected the signing secret'),
      scheme: z.unknown().optional(),
    })
    .optional(),
  openapi: z.unknown().optional(),
  only: z.array(z.enum(DOCTOR_GROUPS)).min(1).optional(),
  signal: z.instanceof(AbortSignal).optional(),
});

const skipped = (group: DoctorGroup, id: string, title: string, explanation: string): DoctorCheck => ({
  id,
  group,
  title,
  status: 'skipped',
  explanation,
});

/**
 * Runs one check; if it throws all the same (a bug, an answer no check foresaw), it ends in the report as
 * failed with the error's first line instead of ending the run. The caller's abort still throws.
 */
async function settled<T>(
  signal: AbortSignal | undefined,
  [group, id, title]: [DoctorGroup, string, string],
  run: () => Promise<T>,
  asResult: (failed: DoctorCheck) => T,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (signal?.aborted) throw error;
    const line = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
    return asResult({ id, group, title, status: 'fails', explanation: `the check stopped: ${line}` });
  }
}

/**
 * Runs the doctor's checks against `target` in order: connection, authentication, contracts, OpenAPI
 * comparison, webhook endpoint. Only reads and token exchanges reach the service; the webhook probes go
 * to the partner's own endpoint.
 */
export async function runDoctor(target: DoctorTarget, options: DoctorOptions = {}): Promise<DoctorReport> {
  checkOptions('doctor options', Options, options ?? {});
  const { signal, only } = options;
  const want = (group: DoctorGroup) => only === undefined || only.includes(group);
  const clock = target.requester.config.clock;
  const startedAt = new Date(clock.now()).toISOString();
  const checks: DoctorCheck[] = [];

  const serviceGroups = DOCTOR_GROUPS.filter((group) => group !== 'webhooks' && want(group));
  if (serviceGroups.length > 0) {
    const connection = await settled(
      signal,
      ['connection', 'reachability', 'Reachability'],
      () => checkConnection(target, signal),
      (check) => ({ reachable: false, checks: [check] }),
    );
    if (want('connection')) checks.push(...connection.checks);
    if (!connection.reachable) {
      for (const group of serviceGroups.filter((g) => g !== 'connection')) {
        checks.push(
          skipped(
            group,
            group,
            'Every check of this group',
            'not run: no usable answer from the service (see Reachability)',
          ),
        );
      }
    } else {
      let token: string | undefined;
      if (want('authentication') || want('contracts')) {
        const facts = await settled(
          signal,
          ['authentication', 'token-exchange', 'Token exchange'],
          () => checkToken(target, signal),
          (check) => ({ check, token: undefined }),
        );
        token = facts.token;
        if (want('authentication')) {
          checks.push(facts.check);
          if (token !== undefined) {
            const access = () => checkAccess(target, token!, signal);
            const where: [DoctorGroup, string, string] = [
              'authentication',
              'partner-access',
              'Partner API access',
            ];
            checks.push(...(await settled(signal, where, access, (check) => [check])));
          } else if (facts.check.status !== 'skipped') {
            const why = 'not run: no token (see the token exchange)';
            checks.push(
              skipped('authentication', 'token-info', 'Token info (oauth.info)', why),
              skipped('authentication', 'partner-access', 'Partner API access', why),
            );
          }
        }
      }
      if (want('contracts')) {
        const where: [DoctorGroup, string, string] = [
          'contracts',
          'contracts-auth',
          'Contracts with and without a token',
        ];
        checks.push(
          await settled(
            signal,
            where,
            () => checkContracts(target, token, signal),
            (c) => c,
          ),
        );
      }
      if (want('openapi')) {
        const hasCredentials = target.credentials !== undefined || target.authenticator !== undefined;
        const compare = () => checkOpenApi(target, { document: options.openapi, hasCredentials, signal });
        const where: [DoctorGroup, string, string] = ['openapi', 'openapi', 'OpenAPI description vs the SDK'];
        checks.push(await settled(signal, where, compare, (check) => check));
      }
    }
  }
  if (want('webhooks')) {
    checks.push(
      options.webhook === undefined
        ? skipped(
            'webhooks',
            'webhook-endpoint',
            'Webhook endpoint',
            'no endpoint given (--webhook-url and its secret)',
          )
        : await settled(
            signal,
            ['webhooks', 'webhook-endpoint', 'Webhook endpoint'],
            () => checkWebhook(target, options.webhook!, signal),
            (check) => check,
          ),
    );
  }
  const status = worstStatus(checks.map((check) => check.status));
  return {
    ok: status !== 'fails',
    status,
    baseUrl: target.baseUrl,
    responseValidation: target.responseValidation,
    startedAt,
    checks,
  };
}
