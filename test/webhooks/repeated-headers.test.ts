// Issue 27, finding 6: a proxy that repeats webhook-id or webhook-timestamp with the same value made Node join
// them as "v, v", and the delivery was refused. Sent here over a raw socket, so the header really is twice
// on the wire and Node's own parser joins it.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHandler, WebhookReceiver } from '../../src/webhooks/index.js';
import { Webhook } from '../../src/webhooks/index.node.js';
import { BUILDS, delivery, NOW_MS, NOW_S, SECRET } from './fixtures.js';

const handled: string[] = [];
let server: Server;
let port: number;

beforeAll(async () => {
  const receiver = new WebhookReceiver(new Webhook({ secret: SECRET, now: () => NOW_MS }), {
    now: () => NOW_MS,
  }).onAny((event) => {
    handled.push(event.webhookId);
  });
  server = createServer(createNodeHandler(receiver));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** POSTs `body` with `lines` as the header lines, byte for byte; resolves with the status code. */
function post(body: string, lines: [string, string][]): Promise<number> {
  const head = [
    'POST /webhooks HTTP/1.1',
    `host: 127.0.0.1:${port}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...lines.map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`${head.join('\r\n')}\r\n\r\n${body}`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])));
  });
}

async function signed(id: string) {
  const { body, headers } = await delivery(undefined, { id });
  return {
    body,
    id: headers['webhook-id']!,
    ts: headers['webhook-timestamp']!,
    sig: headers['webhook-signature']!,
  };
}

describe('repeated headers through createNodeHandler over a raw socket', () => {
  it('accepts identical repeats of webhook-id and webhook-timestamp, refuses differing ones', async () => {
    const d = await signed('msg_repeat_1');
    const wrong = `v1,${Buffer.alloc(32).toString('base64')}`;
    const status = await post(d.body, [
      ['webhook-id', d.id],
      ['webhook-id', d.id],
      ['webhook-timestamp', d.ts],
      ['webhook-timestamp', d.ts],
      // The signature header stays a list: its repeats are joined as entries, spaces and commas included.
      ['webhook-signature', `${wrong} v2,other`],
      ['webhook-signature', d.sig],
    ]);
    expect(status).toBe(204);
    expect(handled).toEqual(['msg_repeat_1']);

    const other = await signed('msg_repeat_2');
    const base: [string, string][] = [
      ['webhook-id', other.id],
      ['webhook-timestamp', other.ts],
      ['webhook-signature', other.sig],
    ];
    expect(await post(other.body, [...base, ['webhook-id', 'msg_other']])).toBe(400);
    expect(await post(other.body, [...base, ['webhook-timestamp', String(NOW_S + 1)]])).toBe(400);
    expect(handled).toEqual(['msg_repeat_1']);
  });
});

describe.each(BUILDS)('identical repeats in every header shape — %s', (_build, Build) => {
  const webhook = new Build({ secret: SECRET, now: () => NOW_MS });

  it('accepts them as an array, comma-joined or through Headers, and refuses differing ones', async () => {
    const d = await signed('msg_repeat_4');
    const shapes = [
      { 'webhook-id': [d.id, d.id], 'webhook-timestamp': [d.ts, d.ts], 'webhook-signature': d.sig },
      {
        'webhook-id': `${d.id}, ${d.id}`,
        'webhook-timestamp': `${d.ts}, ${d.ts}`,
        'webhook-signature': d.sig,
      },
      new Headers([
        ['webhook-id', d.id],
        ['webhook-id', d.id],
        ['webhook-timestamp', d.ts],
        ['webhook-timestamp', d.ts],
        ['webhook-signature', d.sig],
      ]),
    ];
    for (const headers of shapes) {
      await expect(webhook.verifySignature(d.body, headers)).resolves.toMatchObject({ webhookId: d.id });
    }
    const differing = {
      'webhook-id': `${d.id}, msg_x`,
      'webhook-timestamp': d.ts,
      'webhook-signature': d.sig,
    };
    await expect(webhook.verifySignature(d.body, differing)).rejects.toMatchObject({
      reason: 'malformed_header',
    });
  });
});
