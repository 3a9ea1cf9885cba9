import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a Redis server that holds every reply back by `delayMs` real
 * milliseconds (order kept): a slow Redis, as a client sees one. Requests pass at once.
 */
export async function startSlowProxy(targetPort: number, delayMs: number) {
  let delay = delayMs;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(client).add(upstream);
    let lastAt = 0;
    upstream.on('data', (chunk) => {
      // Each chunk leaves `delay` after it arrived, never before the previous one.
      const at = Math.max(Date.now() + delay, lastAt);
      lastAt = at;
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, at - Date.now());
    });
    client.on('data', (chunk) => upstream.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    /** Changes the delay of replies from now on. */
    setDelay(ms: number): void {
      delay = ms;
    },
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
