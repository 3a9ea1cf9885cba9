import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { NOW_MS, NOW_S, SECRET } from './fixtures.js';

const webhook = new Webhook({ secret: SECRET, now: () => NOW_MS });

const idArb = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
const timestampArb = fc.integer({ min: NOW_S - 300, max: NOW_S + 300 });
// Any Unicode text, emoji and astral planes included, inside a valid envelope.
const bodyArb = fc
  .record({ type: fc.string({ minLength: 1, unit: 'grapheme' }), note: fc.string({ unit: 'grapheme' }) })
  .map(({ type, note }) => JSON.stringify({ type, timestamp: '2025-06-15T00:00:00Z', data: { note } }));

type Mutation =
  | { kind: 'body'; at: number; text: string }
  | { kind: 'id'; at: number; char: string }
  | { kind: 'timestamp'; delta: number }
  | { kind: 'signature'; at: number; char: string };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('body' as const),
    at: fc.nat(),
    text: fc.string({ minLength: 1, unit: 'grapheme' }),
  }),
  fc.record({ kind: fc.constant('id' as const), at: fc.nat(), char: fc.stringMatching(/^[\x21-\x7e]$/) }),
  fc.record({
    kind: fc.constant('timestamp' as const),
    delta: fc.integer({ min: -300, max: 300 }).filter((d) => d !== 0),
  }),
  fc.record({
    kind: fc.constant('signature' as const),
    at: fc.nat(),
    char: fc.stringMatching(/^[A-Za-z0-9+/]$/),
  }),
);

/** Replaces one character at `at` (mod length); `undefined` when that would change nothing. */
function replaceAt(text: string, at: number, char: string): string | undefined {
  const i = at % text.length;
  return text[i] === char ? undefined : text.slice(0, i) + char + text.slice(i + 1);
}

describe('property: only the exact signed delivery verifies', () => {
  it('verifies every unchanged delivery and refuses any change to body, id, timestamp or signature', async () => {
    await fc.assert(
      fc.asyncProperty(bodyArb, idArb, timestampArb, mutationArb, async (body, id, timestamp, mutation) => {
        const headers = await signWebhook({ secret: SECRET, id, timestamp, payload: body });
        const event = await webhook.verify(body, headers);
        expect(event.webhookId).toBe(id);
        // Bytes verify exactly like the string they encode.
        await webhook.verify(new TextEncoder().encode(body), headers);

        let changedBody = body;
        const changed: Record<string, string> = { ...headers };
        if (mutation.kind === 'body') {
          const i = mutation.at % (body.length + 1);
          changedBody = body.slice(0, i) + mutation.text + body.slice(i); // an insertion is always a change
        } else if (mutation.kind === 'id') {
          const next = replaceAt(id, mutation.at, mutation.char);
          fc.pre(next !== undefined);
          changed['webhook-id'] = next!;
        } else if (mutation.kind === 'timestamp') {
          changed['webhook-timestamp'] = String(timestamp + mutation.delta);
        } else {
          const value = headers['webhook-signature'];
          // Characters 3..45 are the base64 digest; the final '=' is padding.
          const next = replaceAt(value.slice(3, 46), mutation.at, mutation.char);
          fc.pre(next !== undefined);
          changed['webhook-signature'] = `v1,${next}${value.slice(46)}`;
        }
        const error = await webhook.verify(changedBody, changed).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(WebhookVerificationError);
      }),
      { numRuns: 10_000, seed: 20250615 },
    );
  });
});
