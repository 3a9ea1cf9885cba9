import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ResponseValidationError } from '../../src/core/errors/errors.js';
import { redact, redactText } from '../../src/core/logging/redact.js';
import { SecretRegistry } from '../../src/core/logging/secret-registry.js';
import { toAPIError } from '../../src/core/request/response-error.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { testRequester } from '../helpers/requester-factory.js';
import { useTestServer } from '../helpers/test-server.js';

// Issue 27, finding 1: redaction ran quadratic patterns over whole error bodies, synchronously, at every
// log level (a 120 KB "eyJ…" detail blocked for seconds). Redaction is now linear, and what is read of a
// body for an error or a log line is bounded.

const server = useTestServer();

/** The fastest of `runs` timings of `work`, in ms (the least disturbed by a busy machine). */
function fastest(work: () => unknown, runs = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// Runs of each secret pattern's prefix: the inputs that made the old patterns quadratic.
const adversarial: [string, (n: number) => string][] = [
  ['JWT prefix runs', (n) => 'eyJ'.repeat(n / 3)],
  ['JWT with one dot', (n) => `eyJ.${'a'.repeat(n)}`],
  ['bearer runs', (n) => 'Bearer '.repeat(n / 7)],
  ['bearer with blank runs', (n) => `Bearer ${' '.repeat(n)}!`],
  ['PEM header runs', (n) => '-----BEGIN '.repeat(n / 11)],
  ['webhook secret runs', (n) => 'whsec_'.repeat(n / 6)],
  ['e-mail local part runs', (n) => 'a'.repeat(n)],
  ['e-mail at runs', (n) => 'a@'.repeat(n / 2)],
  ['dotted runs', (n) => 'a.'.repeat(n / 2)],
];

describe('redaction is linear in its input', () => {
  it.each(adversarial)('%s: 4x the text costs about 4x the time, not 16x', (_case, make) => {
    const small = make(16_000);
    const large = make(64_000);
    // Personal data masking runs the e-mail pattern too: both are on.
    const run = (text: string) => () =>
      redactText(text) + String(redact({ note: text }, { maskPersonalData: true }));
    fastest(run(small)); // warm up
    const ratio = fastest(run(large)) / Math.max(fastest(run(small)), 0.05);
    expect(ratio).toBeLessThan(9);
  });
});

describe('an error body of any size is bounded', () => {
  const context = { method: 'GET', path: '/v1/x', attempts: 1, idempotencyKey: undefined, now: 0 };
  const tenMiB = 10 * 1024 * 1024;

  it.each([
    ['a 10 MiB JSON detail of "eyJ"', 'application/json', `{"detail":"${'eyJ'.repeat(tenMiB / 3)}"}`],
    [
      'a 1 MiB JSON detail of "eyJ" (read as JSON)',
      'application/json',
      `{"detail":"${'eyJ'.repeat(349_000)}"}`,
    ],
    ['a 10 MiB HTML page of "<"', 'text/html', '<'.repeat(tenMiB)],
    ['a 10 MiB HTML page of unclosed scripts', 'text/html', '<script>'.repeat(tenMiB / 8)],
    ['10 MiB of plain text', 'text/plain', 'a'.repeat(tenMiB)],
  ])('%s becomes an APIError in well under a second', (_case, type, text) => {
    let error: unknown;
    const ms = fastest(() => {
      error = toAPIError(context, { status: 400, headers: new Headers({ 'content-type': type }), text });
    }, 1);
    expect(ms).toBeLessThan(1000);
    expect(JSON.stringify((error as { body: unknown }).body).length).toBeLessThan(20_000);
    expect((error as Error).message.length).toBeLessThan(20_000);
  });

  it('a long value is cut once redacted, with a note of its length', () => {
    const token = `eyJhbGciOiJFZERTQSJ9.${'x'.repeat(40)}.sig`;
    const text = `${'a'.repeat(8 * 1024 - 10)} ${token} ${'b'.repeat(100_000)}`;
    const kept = redact({ detail: text }) as { detail: string };
    expect(kept.detail).not.toContain('eyJhbGciOiJFZERTQSJ9');
    expect(kept.detail).toMatch(/… \[cut: 108\d{3} characters in all\]$/);
  });
});

describe('known secrets are redacted in every encoding the SDK sends them in (finding 7)', () => {
  const refresh = "rt~!'(*)_secret value+/=";

  it.each([
    ['as sent in a form body', new URLSearchParams({ refresh_token: refresh }).toString()],
    ['URL-encoded', `refresh_token=${encodeURIComponent(refresh)}`],
    ['as a JSON string', JSON.stringify({ quoted: `the token ${refresh} was reused` })],
    ['as is', `token ${refresh} reused`],
  ])('a refresh token quoted back %s', (_case, quoted) => {
    const secrets = new SecretRegistry();
    secrets.add(refresh);
    const out = redactText(quoted, secrets);
    expect(out).toContain('[REDACTED]');
    for (const form of [refresh, encodeURIComponent(refresh), quoted.slice(quoted.indexOf('=') + 1)]) {
      if (form.includes('rt')) expect(out).not.toContain(form);
    }
    expect(out).not.toMatch(/rt(~|%7E)/);
  });

  it('a request id that carries a token is redacted in ResponseValidationError and the debug log', async () => {
    const secrets = new SecretRegistry();
    const token = 'pe_at_0123456789abcdef0123';
    secrets.add(token);
    const logger = memoryLogger();
    server().reply({ headers: { 'x-request-id': `req-${token}` }, body: { id: 42 } });
    const error = await testRequester(server().url, { secrets, logger })
      .request({ method: 'GET', path: '/v1/x', auth: 'none', response: z.object({ id: z.string() }) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).requestId).toBe('req-[REDACTED]');
    expect(String((error as Error).message)).not.toContain(token);
    expect(logger.text()).not.toContain(token);
    expect(logger.text()).toContain('req-[REDACTED]');
  });
});
