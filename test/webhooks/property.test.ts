import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook, WEBHOOK_SCHEMES, type WebhookSchemePreset } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { NOW_MS, NOW_S } from './fixtures.js';
import { PRESET_SECRETS, PRESETS, REFERENCE_SIGNERS } from './reference-signers.js';

const webhooks = Object.fromEntries(
  PRESETS.map((preset) => [
    preset,
    new Webhook({ secret: PRESET_SECRETS[preset], scheme: preset, now: () => NOW_MS }),
  ]),
) as Record<WebhookSchemePreset, Webhook>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const presetArb = fc.constantFrom(...PRESETS);
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

/** Applies `mutation` to a delivery in `preset`; `'unsigned'` when it touched a part the scheme does not sign. */
function mutate(
  preset: WebhookSchemePreset,
  body: string,
  headers: Record<string, string>,
  mutation: Mutation,
): { body: string; headers: Record<string, string>; signed: boolean } | undefined {
  const scheme = WEBHOOK_SCHEMES[preset];
  const out = { ...headers };
  if (mutation.kind === 'body') {
    const i = mutation.at % (body.length + 1);
    return { body: body.slice(0, i) + mutation.text + body.slice(i), headers: out, signed: true };
  }
  if (mutation.kind === 'id') {
    if (scheme.idHeader === null) return undefined;
    const next = replaceAt(headers[scheme.idHeader]!, mutation.at, mutation.char);
    if (next === undefined) return undefined;
    out[scheme.idHeader] = next;
    return { body, headers: out, signed: scheme.signedContent.includes('{id}') };
  }
  const signature = headers[scheme.signatureHeader]!;
  if (mutation.kind === 'timestamp') {
    if (scheme.timestampHeader !== null) {
      out[scheme.timestampHeader] = String(Number(headers[scheme.timestampHeader]) + mutation.delta);
    } else if (scheme.timestampPrefix !== null) {
      out[scheme.signatureHeader] = signature.replace(
        /^t=(\d+)/,
        (_m, t: string) => `t=${Number(t) + mutation.delta}`,
      );
    } else {
      return undefined;
    }
    return { body, headers: out, signed: true };
  }
  // The digest: after the last prefix; base64's final '=' is padding and stays.
  const start = signature.lastIndexOf(scheme.signaturePrefix) + scheme.signaturePrefix.length;
  const length = scheme.signatureEncoding === 'hex' ? 64 : 43;
  const char = scheme.signatureEncoding === 'hex' ? mutation.char.toLowerCase() : mutation.char;
  if (scheme.signatureEncoding === 'hex' && !/^[0-9a-f]$/.test(char)) return undefined;
  const next = replaceAt(signature.slice(start, start + length), mutation.at, char);
  if (next === undefined) return undefined;
  out[scheme.signatureHeader] = signature.slice(0, start) + next + signature.slice(start + length);
  return { body, headers: out, signed: true };
}

describe('property: in every preset, only the exact signed delivery verifies', () => {
  it('signs as the reference does, verifies it, and refuses any change to a signed part', async () => {
    await fc.assert(
      fc.asyncProperty(
        presetArb,
        bodyArb,
        idArb,
        timestampArb,
        mutationArb,
        async (preset, body, id, timestamp, mutation) => {
          const secret = PRESET_SECRETS[preset];
          const headers = REFERENCE_SIGNERS[preset]({ secret, id, timestamp, body });
          expect(await signWebhook({ secret, id, timestamp, payload: body, scheme: preset })).toEqual(
            headers,
          );
          const webhook = webhooks[preset];
          const event = await webhook.verify(body, headers);
          const signsId = WEBHOOK_SCHEMES[preset].signedContent.includes('{id}');
          expect(event.webhookId).toBe(signsId ? id : `sha256:${sha256(body)}`);
          // Bytes verify exactly like the string they encode.
          await webhook.verify(new TextEncoder().encode(body), headers);

          const changed = mutate(preset, body, headers, mutation);
          fc.pre(changed !== undefined);
          const outcome = await webhook.verify(changed!.body, changed!.headers).then(
            (e) => ({ accepted: true, webhookId: e.webhookId }),
            (e: { reason?: string }) => ({ accepted: false, reason: e.reason }),
          );
          if (changed!.signed) {
            expect(outcome).toMatchObject({ accepted: false });
            expect(['no_matching_signature', 'malformed_signature']).toContain(
              (outcome as { reason: string }).reason,
            );
          } else {
            // An id header the scheme does not sign (github, shopify) changes nothing: not even the id
            // de-duplication keys on, which comes from the signed body.
            expect(outcome).toEqual({ accepted: true, webhookId: event.webhookId });
          }
        },
      ),
      { numRuns: 10_000, seed: 20250615 },
    );
  }, 180_000); // 10,000 runs: about 12 s beside another test file, a minute and more on a busy runner
});
