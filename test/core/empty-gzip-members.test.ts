import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';

// Finding 10 of issue 46: a body of empty gzip members decodes to nothing, so only a bound on the bytes as
// sent stops it, and only backpressure keeps them out of memory. The client runs in a child process so its
// RSS is its own; the server here streams up to 512 MiB, as fast as the client takes it.
const MiB = 1024 * 1024;
const run = promisify(execFile);
const child = fileURLToPath(new URL('./empty-gzip-child.ts', import.meta.url));
const member = zlib.gzipSync(Buffer.alloc(0));
const chunk = Buffer.concat(
  Array.from({ length: Math.floor((64 * 1024) / member.byteLength) }, () => member),
);

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done) ?? done(undefined));
  server = undefined;
});

async function serveMembers(total: number): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  server = createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    if (req.url === '/small') return res.end(zlib.gzipSync('{"ok":true}'));
    while (sent < total && !res.destroyed) {
      sent += chunk.byteLength;
      if (!res.write(chunk))
        await new Promise((drained) => res.once('drain', drained).once('close', drained));
    }
    res.end();
  });
  await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent };
}

async function readInChild(name: string, url: string) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', child, name, url], { maxBuffer: MiB });
  return JSON.parse(stdout) as { outcome: string; rssGrowth: number };
}

describe('512 MiB of empty gzip members', () => {
  it.each(['node:http', 'undici'])(
    'end in ResponseTooLargeError on the %s transport, unread past the limit',
    {
      timeout: 300_000,
    },
    async (name) => {
      const { url, sent } = await serveMembers(512 * MiB);
      const { outcome, rssGrowth } = await readInChild(name, url);
      console.log(
        `${name}: ${outcome}, RSS +${(rssGrowth / MiB).toFixed(1)} MiB, ${(sent() / MiB).toFixed(0)} MiB sent`,
      );
      expect(outcome).toBe('ResponseTooLargeError');
      expect(rssGrowth).toBeLessThan(100 * 1000 * 1000);
      // The limit (10 MiB) and what the sockets' buffers held when the connection was dropped.
      expect(sent()).toBeLessThan(64 * MiB);
    },
  );

  it('are read in bounded memory by fetch, which decodes where no bound sees them', {
    timeout: 300_000,
  }, async () => {
    // fetch hands over decoded bytes only: nothing counts the coded ones, the attempt timeout bounds the time
    // (docs/security.md), and fetch's own backpressure the memory.
    const { url, sent } = await serveMembers(512 * MiB);
    const { outcome, rssGrowth } = await readInChild('fetch', url);
    console.log(
      `fetch: ${outcome}, RSS +${(rssGrowth / MiB).toFixed(1)} MiB, ${(sent() / MiB).toFixed(0)} MiB sent`,
    );
    expect(outcome).toBe('resolved with 0 characters');
    expect(rssGrowth).toBeLessThan(100 * 1000 * 1000);
  });
});
