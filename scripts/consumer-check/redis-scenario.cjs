// The `./redis` entry as a partner installs it: its errors are the main entry's classes, its options are
// checked, and — with a redis-server installed (CI installs one) — two clients on the fake share one token
// chain through it and a webhook id is claimed once, with node-redis and with ioredis from the registry.
// Shared by esm.mjs and cjs.cjs.
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { accessSync, constants, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { delimiter, join } = require('node:path');
const { runtimeName } = require('./scenario.cjs');

function findRedisServer() {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin'];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'redis-server'), constants.X_OK);
      return join(dir, 'redis-server');
    } catch {}
  }
  return undefined;
}

/** redis-server on a unix socket in a temporary directory (no TCP port), persistence off. */
async function startRedis(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'pe-consumer-redis-'));
  const socket = join(dir, 'redis.sock');
  const child = spawn(
    bin,
    ['--port', '0', '--unixsocket', socket, '--dir', dir, '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/ready to accept connections/i.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  child.stdout.resume();
  return {
    socket,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function connect(library, socket) {
  if (library === 'redis') {
    const client = require('redis').createClient({ socket: { path: socket } });
    client.on('error', () => {});
    await client.connect();
    return { client, close: () => client.close() };
  }
  const { Redis } = require('ioredis');
  const client = new Redis({ path: socket });
  client.on('error', () => {});
  await new Promise((resolve) => client.once('ready', resolve));
  return { client, close: async () => client.disconnect() };
}

async function runRedis(sdk, redisEntry, testing, label) {
  const { RedisTokenStore, RedisWebhookIdStore, RedisStoreError } = redisEntry;
  assert.throws(() => new RedisTokenStore({ client: {} }), sdk.InputValidationError);
  assert.ok(new RedisStoreError('redis_unavailable', 'down') instanceof sdk.PartnerEquityError);
  const bin = findRedisServer();
  if (bin === undefined) {
    if (process.env.PARTNER_EQUITY_REQUIRE_REDIS === '1') throw new Error('redis-server not found');
    console.log(
      `skip ${label} Redis round trip: redis-server not installed (apt-get install -y redis-server)`,
    );
    return;
  }
  const server = await startRedis(bin);
  try {
    for (const library of ['redis', 'ioredis']) {
      const connections = [await connect(library, server.socket), await connect(library, server.socket)];
      const fake = new testing.FakePartnerEquity();
      await fake.listen();
      const partner = await fake.createPartner();
      try {
        const clients = connections.map(
          ({ client }) =>
            new sdk.PartnerEquity({
              ...partner,
              logLevel: 'off',
              tokenStore: new RedisTokenStore({ client }),
            }),
        );
        await clients[0].oauth.info();
        await clients[1].oauth.info();
        assert.equal(fake.tokenRequests.length, 1, `${library}: the second client used the shared token`);
        const stores = connections.map(({ client }) => new RedisWebhookIdStore({ client }));
        const id = `msg_consumer_${library}`;
        assert.equal(await stores[0].claim(id, 60), 'new');
        assert.equal(await stores[1].claim(id, 60), 'in_progress');
        await stores[0].complete(id, 60);
        assert.equal(await stores[1].claim(id, 60), 'done');
        await Promise.all(clients.map((client) => client.close()));
      } finally {
        await fake.close();
        for (const connection of connections) await connection.close();
      }
    }
  } finally {
    await server.stop();
  }
  console.log(`ok ${label} Redis stores (redis, ioredis) on ${runtimeName()}`);
}

module.exports = { runRedis };
