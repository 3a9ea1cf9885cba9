import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  MULTIPART_READ_BYTES,
  MultipartBody,
  type MultipartFile,
} from '../../src/core/uploads/multipart-body.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'multipart-body-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytesOf = async (body: MultipartBody): Promise<Buffer> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** What the platform's FormData encoder (undici, as `fetch` uses it) sends, with our boundary swapped in. */
const platformBytes = async (body: MultipartBody, fields: Record<string, string>, file: MultipartFile) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.name, new Blob([file.blob], { type: file.contentType }), file.filename);
  const response = new Response(form);
  const theirs = /boundary=(.+)$/.exec(response.headers.get('content-type') ?? '')?.[1] ?? '';
  const ours = /boundary=(.+)$/.exec(body.contentType)?.[1] ?? '';
  return Buffer.from(
    Buffer.from(await response.arrayBuffer())
      .toString('latin1')
      .replaceAll(theirs, ours),
    'latin1',
  );
};

const content = Buffer.from(Array.from({ length: 3 * MULTIPART_READ_BYTES + 123 }, (_, i) => (i * 31) % 256));

describe('MultipartBody', () => {
  const fields = { amount: '10.5', 'na"me\r\nx': 'line 1\nline 2\rline 3', note: 'é ✓' };

  it('writes the same bytes as the platform FormData encoder (escaping, line breaks, UTF-8), with the exact length', async () => {
    const file: MultipartFile = {
      name: 'file',
      filename: 'wire "1"\r\n✓.jpg',
      contentType: 'image/jpeg',
      blob: new Blob([content]),
    };
    const body = new MultipartBody(fields, file);
    const sent = await bytesOf(body);
    expect(sent.equals(await platformBytes(body, fields, file))).toBe(true);
    expect(sent.byteLength).toBe(body.length);
    expect(Buffer.from(await (await body.toBlob()).arrayBuffer()).equals(sent)).toBe(true);
  });

  it('streams a file on disk in bounded reads, and starts over on every call (retries)', async () => {
    const path = join(dir, 'file.pdf');
    await writeFile(path, content);
    const file: MultipartFile = {
      name: 'file',
      filename: 'f.pdf',
      contentType: 'application/pdf',
      blob: new Blob([content]),
      path,
    };
    const body = new MultipartBody({}, file);
    const sizes: number[] = [];
    for await (const chunk of body.chunks()) sizes.push(chunk.byteLength);
    expect(Math.max(...sizes.slice(1, -1))).toBeLessThanOrEqual(MULTIPART_READ_BYTES);
    const first = await bytesOf(body);
    expect(first.equals(await bytesOf(body))).toBe(true);
    expect(first.equals(await platformBytes(body, {}, file))).toBe(true);
  });

  it('fails, rather than send fewer bytes than its Content-Length, when the file shrank', async () => {
    const path = join(dir, 'shrinks.pdf');
    await writeFile(path, content);
    const body = new MultipartBody(
      {},
      { name: 'file', filename: 's.pdf', contentType: 'application/pdf', blob: new Blob([content]), path },
    );
    await truncate(path, 1000);
    await expect(bytesOf(body)).rejects.toThrow(/changed while it was being uploaded/);
  });

  it("gives fetch the file's bytes where the runtime's Blob drops a disk-backed part (Bun 1.4)", async () => {
    const path = join(dir, 'on-disk.pdf');
    await writeFile(path, content);
    const onDisk = await openAsBlob(path);
    const file: MultipartFile = {
      name: 'file',
      filename: 'd.pdf',
      contentType: 'application/pdf',
      blob: onDisk,
      path,
    };
    const body = new MultipartBody({ amount: '1' }, file);
    // Bun 1.4.5: new Blob([head, await openAsBlob(path), tail]) holds head and tail only, and says so in its size.
    const RealBlob = globalThis.Blob;
    vi.stubGlobal(
      'Blob',
      class extends RealBlob {
        constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
          super(
            parts?.filter((part) => part !== onDisk),
            options,
          );
        }
      },
    );
    try {
      const blob = await body.toBlob();
      expect(blob.size).toBe(body.length);
      expect(Buffer.from(await blob.arrayBuffer()).equals(await bytesOf(body))).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends a Content-Type that could break the framing as application/octet-stream', async () => {
    const body = new MultipartBody(
      {},
      { name: 'file', filename: 'x', contentType: 'text/plain\r\nX-Evil: 1', blob: new Blob(['x']) },
    );
    const text = (await bytesOf(body)).toString('latin1');
    expect(text).toContain('\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n');
    expect(text).not.toContain('X-Evil');
  });
});
