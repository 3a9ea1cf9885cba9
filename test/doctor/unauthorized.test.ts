import { createPrivateKey, sign } from 'node:crypto';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/auth/generate-key-pair.js';
import type { Signer } from '../../src/auth/signer.js';
import { PartnerEquity } from '../../src/client.js';
import type { Clock } from '../../src/core/clock.js';
import { formatDoctorReport } from '../../src/doctor/format-doctor-report.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { useTestServer } from '../helpers/test-server.js';
import { checkOf, type DoctorEnv, startDoctorEnv } from './harness.js';

let env: DoctorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A KMS-style signer that signs with the right key but puts its own `sub` in the claims. */
function signerWithSub(pem: string, sub: string): Signer {
  const key = createPrivateKey(pem);
  return async (claims, header) => {
    const input = `${b64(header)}.${b64({ ...claims, sub })}`;
    return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
  };
}

/** The fake's clock shifted by `ms` (negative: this machine is behind). */
const shifted = (clock: Clock, ms: number): Clock => ({
  now: () => clock.now() + ms,
  sleep: (wait, signal) => clock.sleep(wait, signal),
});

describe.each(['default', 'alternate'] as const)(
  'each 401 cause diagnosed in words (%s profile)',
  (profile) => {
    it('wrong aud: the base URL with a trailing slash; the probe finds the aud the service takes', async () => {
      env = await startDoctorEnv(profile);
      const baseUrl = `${env.partner.baseUrl}/`;
      const report = await env.client({ baseUrl }).doctor({ only: ['authentication'] });
      const check = checkOf(report, 'token-exchange');
      expect(check.status).toBe('fails');
      expect(check.explanation).toBe(
        `wrong aud: the service takes aud "${env.partner.baseUrl}", and the SDK sends the base URL "${baseUrl}" as aud`,
      );
      expect(check.fix).toBe(
        `Set baseUrl to ${env.partner.baseUrl} (exactly: the SDK sends it as the JWT aud)`,
      );
      expect(check.details?.[0]).toMatch(/^the token endpoint answered 401 "The aud claim must be exactly /);
      expect(check.details).toContain(`probe: aud "${env.partner.baseUrl}" → 201`);
      expect(report.ok).toBe(false);
      expect(checkOf(report, 'token-info').status).toBe('skipped');
    });

    it('sub != client_id: a signer that changes sub is caught in the assertion itself, the server quoted', async () => {
      env = await startDoctorEnv(profile);
      const signer = signerWithSub(env.partner.privateKey, 'client_someone_else');
      const report = await env.client({ privateKey: undefined, signer }).doctor({ only: ['authentication'] });
      const check = checkOf(report, 'token-exchange');
      expect(check.status).toBe('fails');
      expect(check.explanation).toBe(
        `the assertion is wrong before it is sent: its sub ("client_someone_else") differs from its client_id ("${env.partner.clientId}"); the service requires them equal`,
      );
      expect(check.fix).toMatch(/^A `signer` must sign the header and claims the SDK gives it unchanged/);
      expect(check.details?.[0]).toMatch(
        /^the token endpoint answered 401 "The sub claim must equal the client_id claim"/,
      );
      expect(check.details?.[1]).toContain('sub="client_someone_else"');
    });

    it('skewed clock: 120 s behind is named, and an assertion dated by the server passes (as the SDK does itself)', async () => {
      env = await startDoctorEnv(profile);
      const clock = shifted(env.fake.clock, -120_000);
      const report = await env.client({ clock }).doctor({ only: ['connection', 'authentication'] });
      expect(checkOf(report, 'server-clock')).toMatchObject({
        status: 'differs',
        explanation:
          "this machine's clock is 120 s behind the service's (from its Date header); the SDK corrects assertion times for it, at the cost of one refused token exchange",
      });
      const check = checkOf(report, 'token-exchange');
      expect(check.status).toBe('differs');
      expect(check.explanation).toMatch(/^clock skew: this machine's clock is 120 s behind the service's/);
      expect(check.fix).toBe("Synchronise this machine's clock with NTP");
      expect(check.details).toContain("clock: this machine's is 120 s behind the service's (Date header)");
      expect(check.details?.find((d) => d.startsWith('probe: an assertion dated'))).toMatch(/→ 201$/);
      // The token from the corrected exchange lets the remaining checks run.
      expect(checkOf(report, 'token-info').status).toBe('ok');
      expect(report.ok).toBe(true);
    });

    it('skewed clock ahead, beyond the webhook tolerance: the clock check fails', async () => {
      env = await startDoctorEnv(profile);
      const clock = shifted(env.fake.clock, 400_000);
      const report = await env.client({ clock }).doctor({ only: ['connection', 'authentication'] });
      expect(checkOf(report, 'server-clock')).toMatchObject({ status: 'fails' });
      expect(checkOf(report, 'server-clock').explanation).toMatch(
        /^this machine's clock is 400 s ahead of the service's/,
      );
      expect(checkOf(report, 'token-exchange').explanation).toMatch(
        /^clock skew: this machine's clock is 400 s ahead of/,
      );
    });

    it('unknown key: a key pair the service never registered', async () => {
      env = await startDoctorEnv(profile);
      const { privateKeyPem } = await generateKeyPair();
      const report = await env.client({ privateKey: privateKeyPem }).doctor({ only: ['authentication'] });
      const check = checkOf(report, 'token-exchange');
      expect(check.status).toBe('fails');
      expect(check.explanation).toBe(
        `unknown key: the service does not verify the assertion with the key it holds for ${env.partner.clientId}: this private key is not the registered one`,
      );
      expect(check.fix).toMatch(/^Register this key's public half with the service/);
      expect(check.details?.[0]).toMatch(/^the token endpoint answered 401 "The signature does not verify/);
    });

    it('unknown client id, and a wrong issuer', async () => {
      env = await startDoctorEnv(profile);
      const unknown = await env.client({ clientId: 'client_nobody' }).doctor({ only: ['authentication'] });
      expect(checkOf(unknown, 'token-exchange').explanation).toBe(
        'the service knows no client "client_nobody" in this environment',
      );
      const issuer = await env
        .client({ issuer: 'https://elsewhere.example' })
        .doctor({ only: ['authentication'] });
      expect(checkOf(issuer, 'token-exchange')).toMatchObject({
        status: 'fails',
        explanation: 'the service refused the iss claim "https://elsewhere.example"',
      });
    });

    it('403: a client not provisioned for the partner API is told so', async () => {
      env = await startDoctorEnv(profile);
      const stranger = await env.fake.createPartner({ provisioned: false });
      const report = await env.client({ ...stranger }).doctor({ only: ['authentication'] });
      const refused = report.checks.filter((check) => check.status === 'fails');
      expect(refused.length).toBeGreaterThan(0);
      for (const check of refused) {
        expect(check.explanation).toBe(
          'the service answered 403: this client is not provisioned for the partner API in this environment',
        );
        expect(check.fix).toBe(
          `Ask Partner Equity to enable the partner API for ${stranger.clientId} in this environment`,
        );
      }
      expect(checkOf(report, 'partner-access').status).toBe('fails');
    });
  },
);

describe('secrets stay out of the report', () => {
  const server = useTestServer();

  it('a whole run logged at debug: no token, refresh token or assertion in the log lines', async () => {
    env = await startDoctorEnv('default');
    const logger = memoryLogger();
    const report = await env.client({ logger, logLevel: 'debug' }).doctor();
    expect(report.ok).toBe(true);
    expect(logger.text()).toContain('/v1/oauth2/tokens');
    expect(logger.text()).not.toMatch(/pe_at_|pe_rt_|eyJ/);
  });

  it('a service that quotes the assertion and the token back: the report holds neither', async () => {
    const seen: string[] = [];
    server().fallback((request) => {
      if (request.path === '/public/hc') return { body: { status: 'ok' } };
      if (request.path === '/v1/oauth2/tokens') {
        const assertion = new URLSearchParams(request.text).get('assertion') ?? '';
        seen.push(assertion);
        return { status: 401, body: { code: 'nope', detail: `refused ${assertion} (aud)`, errorId: 'e1' } };
      }
      return { status: 404, body: {} };
    });
    const { privateKeyPem } = await generateKeyPair();
    const client = new PartnerEquity({
      baseUrl: server().url,
      clientId: 'client_1',
      issuer: 'https://partner.example',
      privateKey: privateKeyPem,
      logLevel: 'off',
    });
    const report = await client.doctor({ only: ['authentication'] });
    await client.close();
    const text = `${JSON.stringify(report)}\n${formatDoctorReport(report)}\n${inspect(report, { depth: 9 })}`;
    expect(seen.length).toBeGreaterThan(1); // the first exchange and the aud probes
    for (const assertion of seen) expect(text).not.toContain(assertion);
    expect(text).not.toContain(privateKeyPem.split('\n')[1]);
    expect(checkOf(report, 'token-exchange').details?.[0]).toBe(
      'the token endpoint answered 401 "refused [REDACTED] (aud)" (code nope)',
    );
  });
});

describe('an OAuth-style refusal', () => {
  const server = useTestServer();

  it('400 invalid_grant with an error_description is diagnosed like a 401', async () => {
    server().fallback((request) => {
      if (request.path !== '/v1/oauth2/tokens') return { status: 404, body: {} };
      return {
        status: 400,
        body: { error: 'invalid_grant', error_description: 'Audience validation failed' },
      };
    });
    const { privateKeyPem } = await generateKeyPair();
    const client = new PartnerEquity({
      baseUrl: server().url,
      clientId: 'client_1',
      issuer: 'https://partner.example',
      privateKey: privateKeyPem,
      logLevel: 'off',
    });
    const report = await client.doctor({ only: ['authentication'] });
    await client.close();
    const check = checkOf(report, 'token-exchange');
    expect(check.explanation).toBe(
      `wrong aud: the service wants the aud claim to be exactly its base URL, and this client sends "${server().url}"`,
    );
    expect(check.details?.[0]).toBe(
      'the token endpoint answered 400 "Audience validation failed" (code invalid_grant)',
    );
    expect(check.details).toContain(
      `probe: aud "${server().url}/" → 400 "Audience validation failed" (code invalid_grant)`,
    );
  });
});
