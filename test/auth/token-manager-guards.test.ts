// Issue 36 (mutation scores that hold by themselves): what the token manager's single flight, its guard
// against unhandled rejections, its `once` abort listener and its redaction registration do, as a partner
// would see it.
import { getEventListeners } from 'node:events';
import { SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenManager } from '../../src/auth/token-manager.js';
import { REDACTED } from '../../src/core/logging/redact.js';
import { SecretRegistry } from '../../src/core/logging/secret-registry.js';
import { DEFAULT_RETRY } from '../../src/core/request/retry-policy.js';
import { Tracing } from '../../src/tracing/tracing.js';
import { useTracing } from '../tracing/otel-harness.js';
import { ManualClock } from './manual-clock.js';
import { flush, memoryEndpoint, signer } from './memory-token-endpoint.js';

const otel = useTracing();

async function traced(options: { hold?: Promise<void>; secrets?: SecretRegistry } = {}) {
  const clock = new ManualClock();
  const api = memoryEndpoint(clock, { hold: options.hold });
  const tracing = new Tracing({ tracerProvider: otel.provider });
  await tracing.loading;
  // What the endpoint is given, and what the registry redacts at that moment.
  const sent: { assertion: string | undefined; redacted: (text: string) => string }[] = [];
  const tokens = new TokenManager({
    identity: { issuer: 'https://i.example', clientId: 'c', audience: 'https://api.example' },
    sign: signer,
    endpoint: (form, signal) => {
      const held = options.secrets;
      sent.push({ assertion: form['assertion'], redacted: (text) => held?.replace(text) ?? text });
      return api.endpoint(form, signal);
    },
    clock,
    retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    tracing,
    secrets: options.secrets,
  });
  return { tokens, sent, ...api };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

describe('TokenManager guards', () => {
  it('callers that arrive while an exchange runs share it: one exchange span, one token request', async () => {
    let release = () => {};
    const { tokens, calls } = await traced({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const first = tokens.getToken();
    const second = tokens.getToken();
    const third = tokens.getToken();
    await flush();
    release();
    expect(await Promise.all([first, second, third])).toEqual(['at1', 'at1', 'at1']);
    expect(calls).toHaveLength(1);
    expect(otel.named('oauth.token_exchange', SpanKind.INTERNAL)).toHaveLength(1);
  });

  it("an exchange nobody is left to wait for (the caller's tracer threw) fails without an unhandled rejection", async () => {
    process.on('unhandledRejection', onUnhandled);
    let release = () => {};
    const { tokens, calls, failures } = await traced({
      hold: new Promise<void>((resolve) => (release = resolve)),
    });
    failures.push(400);
    const job = otel.provider.getTracer('partner-app');
    const thrown = new Error('tracer bug: addLink');
    const caught = await job.startActiveSpan('partner.job', async (span) => {
      span.addLink = () => {
        throw thrown;
      };
      try {
        return await tokens.getToken().catch((error: unknown) => error);
      } finally {
        span.end();
      }
    });
    expect(caught).toBe(thrown);
    release();
    // The exchange (started before the tracer threw) reaches the endpoint and fails there.
    await flush();
    await flush();
    expect(calls).toHaveLength(1);
    expect(otel.named('oauth.token_exchange')).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it("takes its listener off the caller's signal as the abort fires, before the exchange settles", async () => {
    let release = () => {};
    const { tokens } = await traced({ hold: new Promise<void>((resolve) => (release = resolve)) });
    const controller = new AbortController();
    const waiting = tokens.getToken(controller.signal).catch((error: unknown) => error);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await waiting).toMatchObject({ name: 'APIUserAbortError' });
    release();
    expect(await tokens.getToken()).toBe('at1');
  });

  it('registers the assertion, and each of its parts, before sending it: the registry alone redacts them', async () => {
    const { tokens, sent } = await traced({ secrets: new SecretRegistry() });
    await tokens.getToken();
    const [{ assertion, redacted } = { assertion: undefined, redacted: (t: string) => t }] = sent;
    expect(assertion).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const quoted = `grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion%3D${assertion}`;
    expect(redacted(quoted)).toBe(quoted.replace(assertion ?? '', REDACTED));
    const [header, claims, signature] = (assertion ?? '').split('.');
    expect(redacted(`header ${header}, claims ${claims}, signature ${signature}`)).toBe(
      `header ${REDACTED}, claims ${REDACTED}, signature ${REDACTED}`,
    );
  });
});
