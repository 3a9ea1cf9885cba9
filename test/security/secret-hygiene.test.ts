import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { format } from 'node:util';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { ClientOptions } from '../../src/core/client-options.js';
import { FakePartnerEquity } from '../../src/testing/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { createNodeHandler } from '../../src/webhooks/node-handler.js';
import { WebhookReceiver } from '../../src/webhooks/webhook-receiver.js';
import { drivingClock } from '../helpers/driving-clock.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { type CliRuns, runCliScenarios } from './cli-scenarios.js';
import { Exposure, type Secret, secretsOnWire } from './exposure.js';
import { runQuotedSecretScenarios } from './quoted-secret-scenarios.js';
import { startQuotingProxy } from './quoting-proxy.js';
import { startRecordingProxy } from './recording-proxy.js';
import { runPartnerScenarios } from './secret-scenarios.js';

/**
 * Secret hygiene: partners' workflows at debug logging, through a proxy that records every byte (where the
 * test learns each assertion, access token and refresh token the SDK used), with faults, renewals, a 401
 * recovery, errors of every kind and webhooks; a careless server that quotes those secrets back in error
 * bodies, headers and HTML pages; and the `partner-equity token` command at debug level. Then no private
 * key (PEM body, JWK `d`), assertion signature, access token, refresh token or webhook secret may appear —
 * whole or as any 16-character window — in a log line, an error message or stack, `util.inspect`/
 * `JSON.stringify` of an SDK object, or the CLI's output (beyond the one token it prints).
 */
const exposure = new Exposure();
const secrets: Secret[] = [];
let closeAll: () => Promise<void>;
let wireSecrets: Secret[] = [];
let quotedSecrets: Secret[] = [];
let cli: CliRuns;

function keySecrets(pem: string): Secret[] {
  const body = pem.replace(/-----[^-]+-----|\s/g, '');
  const jwk = createPrivateKey(pem).export({ format: 'jwk' });
  return [
    { kind: 'private key (PEM body)', value: body },
    { kind: 'private key (JWK d)', value: String(jwk.d) },
  ];
}

beforeAll(async () => {
  const proxy = await startRecordingProxy();
  const fake = new FakePartnerEquity({ accessTokenTtlSeconds: 300 });
  const { baseUrl } = await fake.listen();
  // recording proxy → quoting proxy (answers for armed paths, quoting secrets back) → the fake.
  const quoting = await startQuotingProxy(Number(new URL(baseUrl).port));
  proxy.forwardTo(quoting.port);
  // Every connection the clients open goes through the recording proxy; URLs (and so `aud`) stay the fake's.
  const proxyPort = Number(new URL(proxy.origin).port);
  const dispatcher = new Agent({
    connect: (_options, callback) => {
      const socket = connect(proxyPort, '127.0.0.1');
      socket.once('connect', () => callback(null, socket));
      socket.once('error', (error) => callback(error, null));
    },
  });
  const partner = await fake.createPartner();
  const wrongPem = generateKeyPairSync('ed25519')
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString();
  secrets.push(...keySecrets(partner.privateKey), ...keySecrets(wrongPem));

  // Webhooks: the fake signs deliveries to a receiver built from the SDK's node handler (two secrets: a
  // rotation in progress).
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const retired = `whsec_${randomBytes(24).toString('base64')}`;
  const receiverErrors: unknown[] = [];
  const webhook = new Webhook({ secrets: [secret, retired] });
  const receiver = new WebhookReceiver(webhook).onError((error) => receiverErrors.push(error));
  const hookServer: Server = createServer(createNodeHandler(receiver));
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/hooks`;
  fake.webhooks.register({ url: hookUrl, secret });
  for (const value of [secret, retired])
    secrets.push({ kind: 'webhook secret', value: value.slice('whsec_'.length) });

  const logger = memoryLogger();
  const consoleLines: string[] = [];
  for (const level of ['debug', 'info', 'warn', 'error', 'log'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      consoleLines.push(format(...args));
    });
  }
  const base: ClientOptions = {
    baseUrl: partner.baseUrl,
    dispatcher,
    clientId: partner.clientId,
    issuer: partner.issuer,
    privateKey: partner.privateKey,
    clock: drivingClock(fake.clock),
    logger,
    logLevel: 'debug',
    retry: { random: () => 0 },
  };
  const clients = {
    pem: new PartnerEquity(base),
    jwk: new PartnerEquity({
      ...base,
      privateKey: createPrivateKey(partner.privateKey).export({ format: 'jwk' }) as never,
    }),
    console: new PartnerEquity({ ...base, logger: undefined }),
    wrongKey: new PartnerEquity({ ...base, privateKey: wrongPem }),
  };

  await runPartnerScenarios({ fake, clients, exposure, webhook, hookUrl });
  await fake.idle();
  const quotedClients = await runQuotedSecretScenarios({ fake, base, pem: clients.pem, quoting, exposure });
  await fake.idle();
  cli = await runCliScenarios(quoting, exposure, partner);

  for (const line of logger.lines) {
    exposure.add(`log ${line.level}: ${line.message}`, line.message);
    exposure.addObject(`log fields of "${line.message}"`, line.fields);
  }
  for (const [i, line] of consoleLines.entries()) exposure.add(`console line ${i}`, line);
  for (const [i, error] of receiverErrors.entries()) exposure.addError(`webhook receiver error ${i}`, error);
  for (const [name, client] of Object.entries(clients)) {
    exposure.addObject(`client ${name}`, client);
    exposure.addObject(`client ${name} requester`, client._requester);
    exposure.addObject(`client ${name} token manager`, client._requester.config.authenticator);
    exposure.addObject(`client ${name}.withOptions()`, client.withOptions({ maxRetries: 1 }));
  }
  for (const [name, value] of Object.entries({ webhook, receiver, partner })) {
    exposure.addObject(name, value);
  }
  wireSecrets = secretsOnWire(proxy.sent(), proxy.received());
  quotedSecrets = quoting.secrets();
  secrets.push(...wireSecrets, ...quotedSecrets, ...cli.secrets);
  vi.restoreAllMocks();

  closeAll = async () => {
    for (const client of [...Object.values(clients), ...quotedClients]) await client.close();
    await quoting.close();
    await new Promise((resolve) => hookServer.close(resolve));
    await dispatcher.close();
    await fake.close();
    await proxy.close();
  };
}, 180_000); // CLI processes among the scenarios: 13 s at load average 16, so a hang detector
afterAll(() => closeAll?.());

describe('secret hygiene at debug level', () => {
  it('saw every kind of secret on the wire and collected plenty of output (the check below is not vacuous)', () => {
    const kinds = new Set(secrets.map((secret) => secret.kind));
    for (const kind of [
      'assertion',
      'access token',
      'refresh token',
      'private key (PEM body)',
      'private key (JWK d)',
      'webhook secret',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(wireSecrets.filter((s) => s.kind === 'refresh token').length).toBeGreaterThan(1); // a refresh happened
    expect(exposure.size).toBeGreaterThan(200);
  });

  it('a careless server quoted assertions, refresh and access tokens back, and the CLI ran at debug', () => {
    // Every kind of secret went through the quoting proxy (and so could be quoted back).
    const quotedKinds = new Set(quotedSecrets.map((secret) => secret.kind));
    expect([...quotedKinds].sort()).toEqual(['access token', 'assertion', 'refresh token']);
    // The CLI printed its token, alone, on stdout, and logged its attempts on stderr.
    expect(cli.ok.status).toBe(0);
    expect(cli.ok.stdout).toBe(`${cli.issued.accessToken}\n`);
    expect(cli.ok.stderr).toMatch(/^partner-equity debug: POST \/v1\/oauth2\/tokens → 201/m);
  });

  it('no secret appears in any log line, error, inspect or JSON output', () => {
    expect(exposure.leaks(secrets)).toEqual([]);
  });

  it('the detector finds a secret planted in the output (whole or truncated)', () => {
    const planted = new Exposure();
    const token = wireSecrets.find((s) => s.kind === 'access token')?.value ?? '';
    planted.add('a careless log line', `using token ${token.slice(3, 30)}…`);
    expect(planted.leaks(secrets)).toEqual(['access token in a careless log line']);
  });
});
