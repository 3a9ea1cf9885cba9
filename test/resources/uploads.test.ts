import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PartnerEquity } from '../../src/client.js';
import type { UploadFile } from '../../src/core/uploads/file-source.js';
import { useTestServer } from '../helpers/test-server.js';
import { useFakeApi } from './fake-harness.js';
import { fileBytes, spoolDirs, usePrivateTmpdir, useTempDir } from './files.js';
import { subscribedInvestor } from './fixtures.js';

const api = useFakeApi();
const temp = useTempDir();
usePrivateTmpdir();
const server = useTestServer();

// File URLs may be relative to the base URL (a URL the spec states, not its form).
async function download(url: string, base: string): Promise<{ type: string | null; bytes: Buffer }> {
  const response = await fetch(new URL(url, base));
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('uploads: every kind of file source reaches the API byte for byte', () => {
  const pdf = fileBytes('pdf', 300_000);
  const sources: [string, () => Promise<UploadFile>, string][] = [
    ['{ path }', async () => ({ path: await temp.write('alice.pdf', pdf) }), 'alice.pdf'],
    ['a file: URL', async () => pathToFileURL(await temp.write('url.pdf', pdf)), 'url.pdf'],
    ['a Buffer', async () => Buffer.from(pdf), 'signed-form.pdf'],
    ['a Uint8Array', async () => new Uint8Array(pdf), 'signed-form.pdf'],
    ['a Blob', async () => new Blob([pdf]), 'signed-form.pdf'],
    ['a File (its name is sent)', async () => new File([pdf], 'scan-001.pdf'), 'scan-001.pdf'],
    ['an fs.ReadStream', async () => createReadStream(await temp.write('s.pdf', pdf)), 'signed-form.pdf'],
    ['a Node Readable', async () => Readable.from([pdf.subarray(0, 5), pdf.subarray(5)]), 'signed-form.pdf'],
    ['a web ReadableStream', async () => new Blob([pdf]).stream(), 'signed-form.pdf'],
  ];

  it.each(sources)('%s', async (_name, make, filename) => {
    const env = await api.start();
    const { spvSlug, personId, subscriptionSlug } = await subscribedInvestor(env);
    const result = await env.client.subscriptions.uploadSignedForm(spvSlug, personId, await make());
    expect(result).toMatchObject({ subscriptionSlug, spvSlug, personId });
    expect(result.subscriptionFormUrl.endsWith(`/${filename}`)).toBe(true);
    const stored = await download(result.subscriptionFormUrl, env.credentials.baseUrl);
    expect(stored.type).toBe('application/pdf');
    expect(stored.bytes.equals(pdf)).toBe(true);
    expect(await spoolDirs()).toEqual([]);
  });

  it.each(['jpeg', 'png', 'webp'] as const)('a %s is sniffed and accepted', async (kind) => {
    const env = await api.start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const result = await env.client.subscriptions.uploadSignedForm(spvSlug, personId, fileBytes(kind), {
      filename: `form.${kind}`,
    });
    expect((await download(result.subscriptionFormUrl, env.credentials.baseUrl)).type).toBe(`image/${kind}`);
    expect(result.subscriptionFormUrl.endsWith(`/form.${kind}`)).toBe(true);
  });

  it("the signed form also takes { file, filename }, the funding receipt's shape", async () => {
    const env = await api.start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const result = await env.client.subscriptions.uploadSignedForm(spvSlug, personId, {
      file: Buffer.from(pdf),
      filename: 'as-object.pdf',
    });
    expect(result.subscriptionFormUrl.endsWith('/as-object.pdf')).toBe(true);
    expect((await download(result.subscriptionFormUrl, env.credentials.baseUrl)).bytes.equals(pdf)).toBe(
      true,
    );
  });

  it('streams { path } through the fetch transport too', async () => {
    const env = await api.start({ client: { fetch: globalThis.fetch } });
    const { spvSlug, personId } = await subscribedInvestor(env);
    const path = await temp.write('via-fetch.pdf', pdf);
    const result = await env.client.subscriptions.uploadSignedForm(spvSlug, personId, { path });
    expect((await download(result.subscriptionFormUrl, env.credentials.baseUrl)).bytes.equals(pdf)).toBe(
      true,
    );
  });

  it('the funding receipt carries amount, currency and wireReference after the form', async () => {
    const env = await api.start();
    const { spvSlug, personId, currency, subscriptionSlug } = await subscribedInvestor(env);
    await env.client.subscriptions.uploadSignedForm(spvSlug, personId, fileBytes('pdf'));
    const receipt = await env.client.subscriptions.uploadFundingReceipt(spvSlug, personId, {
      file: { path: await temp.write('wire.png', fileBytes('png')) },
      amount: '25000.00',
      currency,
      wireReference: 'WIRE-2025-0001',
    });
    expect(receipt).toMatchObject({
      subscriptionSlug,
      amount: '25000.00',
      currency,
      wireReference: 'WIRE-2025-0001',
    });
    expect((await download(receipt.fundingReceiptUrl, env.credentials.baseUrl)).type).toBe('image/png');
    // The fake's own admin view (its status names are its choice per profile).
    expect(env.fake.admin.snapshot().subscriptions[0]?.status).toBe('funding-received');
  });
});

describe('uploads: the multipart body on the wire', () => {
  const client = () =>
    new PartnerEquity({
      baseUrl: server().url,
      authenticator: { getToken: async () => 'token', onUnauthorized: async () => false },
      logLevel: 'off',
    });

  it('text fields, then one file part with the sniffed Content-Type and the filename', async () => {
    server().reply({ status: 201, body: {} });
    const sdk = client();
    await sdk.subscriptions
      .uploadFundingReceipt('spv_1', 'per_1', {
        file: fileBytes('jpeg', 64),
        amount: '10.5',
        currency: 'EUR',
        wireReference: 'W-1',
        filename: 'wire "1".jpg',
      })
      .catch(() => undefined); // the stub's empty body does not parse; the request is what matters
    await sdk.close();
    const [sent] = server().requests;
    expect(sent?.path).toBe('/v1/spvs/spv_1/subscription/per_1/fundings');
    // Keyed like every write (the spec lists no key for uploads; the fake honours one, others ignore it).
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const boundary = /boundary=(.+)$/.exec(sent?.headers['content-type'] ?? '')?.[1];
    const parts = sent?.body.toString('latin1').split(`--${boundary}`).slice(1, -1) ?? [];
    expect(parts.map((part) => /name="([^"]+)"/.exec(part)?.[1])).toEqual([
      'amount',
      'currency',
      'wireReference',
      'file',
    ]);
    expect(parts[0]).toContain('\r\n\r\n10.5\r\n');
    expect(parts[3]).toMatch(/filename="wire %221%22\.jpg"\r\nContent-Type: image\/jpeg\r\n\r\n/);
  });

  it('is retried after a 503 with the same key, the file (spooled from a stream) re-sent byte for byte', async () => {
    const result = {
      subscriptionSlug: 'sub_1',
      spvSlug: 'spv',
      personId: 'per',
      subscriptionFormUrl: 'https://files.example/f.pdf',
      uploadedAt: '2026-11-22T00:00:00Z',
    };
    server().reply({ status: 503, body: { code: 'service_unavailable', detail: 'down', errorId: 'e1' } });
    server().reply({ status: 201, body: result });
    const sdk = new PartnerEquity({
      baseUrl: server().url,
      authenticator: { getToken: async () => 'token', onUnauthorized: async () => false },
      logLevel: 'off',
      retry: { random: () => 0 }, // no backoff wait: the test never sleeps
    });
    const pdf = fileBytes('pdf', 200_000);
    const { data, response } = await sdk.subscriptions
      .uploadSignedForm('spv', 'per', Readable.from([pdf.subarray(0, 1000), pdf.subarray(1000)]), {
        idempotencyKey: 'form-per-1',
      })
      .withResponse();
    await sdk.close();
    expect(data).toEqual(result);
    expect(response.attempts).toBe(2);
    const [first, second] = server().requests;
    expect([first?.headers['idempotency-key'], second?.headers['idempotency-key']]).toEqual([
      'form-per-1',
      'form-per-1',
    ]);
    const fileOf = (body: Buffer | undefined) => {
      const text = body?.toString('latin1') ?? '';
      const start = text.indexOf('\r\n\r\n') + 4;
      return Buffer.from(text.slice(start, text.lastIndexOf('\r\n--')), 'latin1');
    };
    expect(fileOf(first?.body).equals(pdf)).toBe(true);
    expect(fileOf(second?.body).equals(pdf)).toBe(true);
  });
});
