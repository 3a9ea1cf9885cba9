import { Readable } from 'node:stream';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/core/errors/errors.js';
import { boundedBody, readText } from '../../src/core/transport/response-body.js';

// What a response body may make the SDK read (issue 46, finding 10): the bytes as received and the bytes
// decoded, each against `maxResponseBytes`, and which codings are decoded.

const body = (chunks: Uint8Array[], encoding?: string | string[], limit = 1024, declared?: string) =>
  readText(boundedBody(Readable.from(chunks), { encoding, declared, limit }));

const EMPTY_MEMBER = gzipSync(Buffer.alloc(0));

describe('the bytes received and decoded, against the limit', () => {
  it('ends a stream of empty gzip members (nothing decoded) once the bytes received pass the limit', async () => {
    const members = Array.from({ length: 100 }, () => EMPTY_MEMBER);
    await expect(body(members, 'gzip', 1024)).rejects.toBeInstanceOf(ResponseTooLargeError);
    // Under the limit, the same members decode to nothing, and that is the answer.
    await expect(body(members.slice(0, 10), 'gzip', 1024)).resolves.toBe('');
  });

  it('takes exactly the limit, received and decoded, and refuses one byte more', async () => {
    const limit = EMPTY_MEMBER.byteLength * 3;
    await expect(body([EMPTY_MEMBER, EMPTY_MEMBER, EMPTY_MEMBER], 'gzip', limit)).resolves.toBe('');
    await expect(
      body([EMPTY_MEMBER, EMPTY_MEMBER, EMPTY_MEMBER, Buffer.from([0])], 'gzip', limit),
    ).rejects.toThrow(ResponseTooLargeError);
    const text = 'a'.repeat(64);
    await expect(body([Buffer.from(text)], undefined, 64)).resolves.toBe(text);
    await expect(body([Buffer.from(`${text}b`)], undefined, 64)).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
    // A small gzip that decodes past the limit.
    await expect(body([gzipSync(Buffer.alloc(4096, 97))], 'gzip', 1024)).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  it('refuses a declared length over the limit unread, and takes one of exactly the limit', async () => {
    await expect(body([Buffer.from('x')], undefined, 10, '11')).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(body([Buffer.from('0123456789')], undefined, 10, '10')).resolves.toBe('0123456789');
  });
});

describe('which codings are decoded', () => {
  const json = '{"ok":true}';

  it('decodes gzip and br in any case and spacing, and a list of codings last first', async () => {
    await expect(body([gzipSync(json)], 'GZIP')).resolves.toBe(json);
    await expect(body([gzipSync(json)], ' gzip ')).resolves.toBe(json);
    await expect(body([gzipSync(json)], 'x-gzip')).resolves.toBe(json);
    await expect(body([gzipSync(json)], ['gzip'])).resolves.toBe(json);
    await expect(body([gzipSync(json)], 'identity, gzip')).resolves.toBe(json);
    await expect(body([gzipSync(json)], 'gzip,')).resolves.toBe(json);
    await expect(body([gzipSync(brotliCompressSync(json))], 'br, gzip')).resolves.toBe(json);
  });

  it('hands over a body in a coding it does not know, or in more than three, as sent', async () => {
    const sent = gzipSync(json);
    const asSent = new TextDecoder().decode(sent);
    await expect(body([sent], 'gzip, compress')).resolves.toBe(asSent);
    await expect(body([sent], 'identity')).resolves.not.toBe(json);
    const fourTimes = gzipSync(gzipSync(gzipSync(sent)));
    await expect(body([fourTimes], 'gzip, gzip, gzip, gzip', 4096)).resolves.toBe(
      new TextDecoder().decode(fourTimes),
    );
    const threeTimes = gzipSync(gzipSync(sent));
    await expect(body([threeTimes], 'gzip, gzip, gzip', 4096)).resolves.toBe(json);
  });
});
