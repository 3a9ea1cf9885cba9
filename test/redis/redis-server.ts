import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

/** How to get the server these tests need. */
export const INSTALL_HINT = 'apt-get install -y redis-server';

/**
 * The `redis-server` binary: `PARTNER_EQUITY_REDIS_SERVER` if set (a path; a missing one means "not
 * installed"), else the first on PATH or in /usr/bin and /usr/sbin.
 */
export const REDIS_SERVER_BIN: string | undefined = findRedisServer();

/** `.ci/run` sets this: a missing server then fails the suite instead of skipping it. */
const REQUIRED = process.env.PARTNER_EQUITY_REQUIRE_REDIS === '1';

function findRedisServer(): string | undefined {
  const override = process.env.PARTNER_EQUITY_REDIS_SERVER;
  const candidates =
    override === undefined
      ? [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'].map((dir) =>
          join(dir, 'redis-server'),
        )
      : [override];
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `describe` for tests that need a real Redis: without `redis-server` they are reported as skipped, and the
 * suite's name carries the install command (with `PARTNER_EQUITY_REQUIRE_REDIS=1`, as in CI, they fail).
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (REDIS_SERVER_BIN !== undefined) {
    describe(name, body);
  } else if (REQUIRED) {
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(`redis-server not found; install it with: ${INSTALL_HINT}`);
      });
    });
  } else {
    // Printed with the file's results, so a skipped run says what to install.
    console.warn(`SKIPPED "${name}": redis-server not found; install it with: ${INSTALL_HINT}`);
    describe.skip(`${name} [SKIPPED: redis-server not found; install it with: ${INSTALL_HINT}]`, body);
  }
}

/** Options of {@link RedisServer.start}. */
export interface RedisServerOptions {
  /** Turns the append-only file on (`appendfsync always`): data survives a stop and start. @default false */
  appendOnly?: boolean;
}

/**
 * A `redis-server` this test started: loopback only, on a free port, persistence off unless asked, in a
 * temporary directory removed by `stop()`. `restart()` stops it and starts it again on the same port.
 */
export class RedisServer {
  readonly port: number;
  readonly #dir: string;
  readonly #options: RedisServerOptions;
  #process: ChildProcess | undefined;

  private constructor(port: number, dir: string, options: RedisServerOptions) {
    this.port = port;
    this.#dir = dir;
    this.#options = options;
  }

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'pe-redis-'));
    for (let attempt = 1; ; attempt++) {
      const server = new RedisServer(await freePort(), dir, options);
      try {
        await server.#spawn();
        return server;
      } catch (error) {
        if (attempt >= 3) {
          rmSync(dir, { recursive: true, force: true });
          throw error;
        }
      }
    }
  }

  /** False between {@link pause} and {@link resume}. */
  get running(): boolean {
    return this.#process !== undefined;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Stops the server (SIGTERM: with the append-only file on, everything is flushed first). */
  async pause(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Starts it again on the same port, after {@link pause}. */
  async resume(): Promise<void> {
    await this.#spawn();
  }

  async stop(): Promise<void> {
    await this.pause();
    rmSync(this.#dir, { recursive: true, force: true });
  }

  #spawn(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.#dir,
      '--save',
      '',
      '--appendonly',
      this.#options.appendOnly === true ? 'yes' : 'no',
      '--appendfsync',
      'always',
      '--daemonize',
      'no',
      '--loglevel',
      'notice',
    ];
    const child = spawn(REDIS_SERVER_BIN ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#process = child;
    return new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.resume();
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
      );
    });
  }
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
