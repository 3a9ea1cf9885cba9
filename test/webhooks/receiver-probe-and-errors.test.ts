import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DOCTOR_PROBE_EVENT_TYPE,
  WebhookReceiver,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { completedEvent, delivery, NOW_MS, SECRET } from './fixtures.js';

const webhook = () => new Webhook({ secret: SECRET, now: () => NOW_MS });

describe('WebhookReceiver, issue 28', () => {
  it("acknowledges the doctor's probe without a handler or an 'unknown type' line", async () => {
    const lines: string[] = [];
    const ran: string[] = [];
    const receiver = new WebhookReceiver(webhook(), {
      now: () => NOW_MS,
      logger: { warn: (line) => lines.push(line), error: (line) => lines.push(line) },
    })
      .on(DOCTOR_PROBE_EVENT_TYPE, () => ran.push('on'))
      .onAny((event) => ran.push(`any:${event.type}`));
    const probe = await delivery(
      { type: DOCTOR_PROBE_EVENT_TYPE, timestamp: '2025-06-15T14:00:00Z', data: { probe: 'genuine' } },
      { id: 'msg_probe' },
    );
    await expect(receiver.receive(probe.body, probe.headers)).resolves.toMatchObject({
      status: 204,
      outcome: 'handled',
    });
    const real = await delivery(completedEvent, { id: 'msg_real' });
    await receiver.receive(real.body, real.headers);
    expect(ran).toEqual(['any:spv_request.completed']);
    expect(lines).toEqual([]);
  });

  it('hands onError an Error: the verification error as it is, a thrown non-Error as the cause', async () => {
    const heard: [Error, string][] = [];
    const receiver = new WebhookReceiver(webhook(), { now: () => NOW_MS })
      .on('spv_request.completed', () => {
        throw 'handler gave up'; // a string, as some code throws
      })
      .onError((error, { stage }) => {
        expectTypeOf(error).toEqualTypeOf<Error>();
        heard.push([error, stage]);
      });
    const real = await delivery(completedEvent, { id: 'msg_1' });
    await receiver.receive(real.body, { ...real.headers, 'webhook-signature': 'v1,AAAA' });
    await receiver.receive(real.body, real.headers);
    expect(heard[0]![1]).toBe('verify');
    expect(heard[0]![0]).toBeInstanceOf(WebhookVerificationError);
    expect(heard[1]![1]).toBe('handler');
    expect(heard[1]![0].message).toBe('handler gave up');
    expect(heard[1]![0].cause).toBe('handler gave up');
  });
});
