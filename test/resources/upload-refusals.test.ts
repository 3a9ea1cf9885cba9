import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, InputValidationError } from '../../src/core/errors/errors.js';
import type { UploadFile } from '../../src/core/uploads/file-source.js';
import { MAX_UPLOAD_BYTES } from '../../src/schemas/uploads.js';
import { type FakeEnv, useFakeApi } from './fake-harness.js';
import { countingStream, fileBytes, MAGIC, spoolDirs, usePrivateTmpdir, useTempDir } from './files.js';
import { subscribedInvestor } from './fixtures.js';

const api = useFakeApi();
const temp = useTempDir();
usePrivateTmpdir();

/** Uploads `file` as a signed form and returns the refusal; asserts no request reached the fake. */
async function refused(env: FakeEnv, file: unknown, options = {}): Promise<InputValidationError> {
  const { spvSlug, personId } = await subscribedInvestor(env);
  const before = env.fake.requests.length;
  const error = await env.client.subscriptions
    .uploadSignedForm(spvSlug, personId, file as UploadFile, options)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputValidationError);
  expect(env.fake.requests.length).toBe(before);
  expect(await spoolDirs()).toEqual([]);
  return error as InputValidationError;
}

describe('uploads refused before any request', () => {
  it('a file of 10 MiB + 1 byte, from memory or from disk', async () => {
    const env = await api.start();
    const big = fileBytes('pdf', MAX_UPLOAD_BYTES + 1);
    const fromMemory = await refused(env, big);
    expect(fromMemory.issues).toEqual([
      { path: 'file', message: '10485761 bytes is over the 10485760-byte limit (maxBytes); refused' },
    ]);
    await refused(env, { path: await temp.write('big.pdf', big) });
    await refused(env, new Blob([big]));
  });

  it('a stream of unknown length is cut off as soon as it passes the limit', async () => {
    const env = await api.start();
    const chunk = 64 * 1024;
    const { stream, state } = countingStream(1000, chunk, MAGIC.pdf); // 64 MB if read to the end
    const error = await refused(env, stream);
    expect(error.message).toMatch(/passed the 10485760-byte limit/);
    expect(state.pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + chunk);
  });

  it('maxBytes lowers the limit', async () => {
    const env = await api.start();
    const error = await refused(env, fileBytes('pdf', 2048), { maxBytes: 1024 });
    expect(error.message).toMatch(/2048 bytes is over the 1024-byte limit/);
  });

  it('a GIF, from memory, disk or a stream (read no further than its first chunk)', async () => {
    const env = await api.start();
    const gif = fileBytes('gif');
    const error = await refused(env, gif);
    expect(error.issues).toEqual([
      { path: 'file', message: 'not a PDF, JPEG, PNG or WEBP file, judged by its first bytes' },
    ]);
    await refused(env, { path: await temp.write('pic.pdf', gif) }); // the name does not matter
    const { stream, state } = countingStream(100, 1024, MAGIC.gif);
    await refused(env, stream);
    expect(state.pulled).toBeLessThanOrEqual(2 * 1024);
  });

  it('an empty file, a declared type the bytes contradict, a plain string, a non-file URL, a missing path', async () => {
    const env = await api.start();
    expect((await refused(env, new Uint8Array(0))).message).toMatch(/file: the file is empty/);
    const mismatch = await refused(env, fileBytes('png'), { contentType: 'application/pdf' });
    expect(mismatch.issues).toEqual([
      { path: 'contentType', message: "is application/pdf, but the file's first bytes are image/png" },
    ]);
    expect((await refused(env, '/tmp/form.pdf')).message).toMatch(/plain string is not file content/);
    expect((await refused(env, new URL('https://example.com/form.pdf'))).message).toMatch(/only file: URLs/);
    expect((await refused(env, { path: '/nonexistent/form.pdf' })).message).toMatch(/cannot read .*ENOENT/);
    expect((await refused(env, 42)).message).toMatch(/expected \{ path \}/);
    const text = Readable.from(['%PDF-1.7 as text']);
    expect((await refused(env, text)).message).toMatch(/yielded text, not bytes/);
  });

  it('every bad argument of a funding receipt is named in one error', async () => {
    const env = await api.start();
    const error = await env.client.subscriptions
      .uploadFundingReceipt('', 'per_1', {
        file: fileBytes('gif'),
        amount: 25000 as unknown as string,
        currency: 'EURO',
        wireReference: '  ',
        maxBytes: -1,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path)).toEqual([
      'spvSlug',
      'amount',
      'currency',
      'wireReference',
      'maxBytes',
      'file',
    ]);
    expect(env.fake.requests).toHaveLength(0);
  });

  it('an aborted signal stops spooling a stream: APIUserAbortError, nothing sent, nothing left on disk', async () => {
    const env = await api.start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const before = env.fake.requests.length;
    const controller = new AbortController();
    async function* slow() {
      yield Buffer.from(MAGIC.pdf);
      controller.abort();
      yield Buffer.alloc(1024);
    }
    const error = await env.client.subscriptions
      .uploadSignedForm(spvSlug, personId, slow(), { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(env.fake.requests.length).toBe(before);
    expect(await spoolDirs()).toEqual([]);
  });

  it('a funding receipt with a bad amount, a bad key and a refused file: one error naming all three', async () => {
    const env = await api.start();
    const { spvSlug, personId } = await subscribedInvestor(env);
    const before = env.fake.requests.length;
    const error = await env.client.subscriptions
      .uploadFundingReceipt(
        spvSlug,
        personId,
        { file: fileBytes('gif'), amount: '25,000', currency: 'EUR', wireReference: 'WIRE-1' },
        { idempotencyKey: 'white space' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputValidationError);
    expect((error as InputValidationError).issues.map((i) => i.path)).toEqual([
      'amount',
      'idempotencyKey',
      'file',
    ]);
    expect(env.fake.requests.length).toBe(before);
  });
});
