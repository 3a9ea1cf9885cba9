import { createHash } from 'node:crypto';
import { type RedisClient, type RedisTransport, redisTransport } from './redis-client.js';
import { RedisStoreError } from './redis-store-error.js';

/** A Lua script, sent by its SHA-1 (`EVALSHA`) and by its text only when Redis does not know it yet. */
export interface RedisScript {
  readonly name: string;
  readonly source: string;
  readonly sha: string;
}

/** Defines a script once, at module load. */
export function defineScript(name: string, source: string): RedisScript {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Commands with the stores' failure rules: fail at once when the client is not connected (a command would
 * otherwise sit in the client's offline queue), give up after `timeoutMs`, and turn every failure into a
 * {@link RedisStoreError}. The command may still run in Redis after a timeout: every caller is written so
 * that this is harmless (a taken refresh token is only lost, a claimed webhook id expires).
 */
export class RedisCommands {
  readonly #transport: RedisTransport;
  readonly #timeoutMs: number;

  constructor(client: RedisClient, timeoutMs: number) {
    this.#transport = redisTransport(client);
    this.#timeoutMs = timeoutMs;
  }

  /** One command; `what` names it in errors. */
  async send(what: string, args: string[]): Promise<unknown> {
    try {
      return await this.#send(what, args);
    } catch (error) {
      throw toStoreError(what, error);
    }
  }

  /** Runs `script` by SHA-1, loading it with `EVAL` when Redis answers NOSCRIPT (a restart flushes scripts). */
  async eval(script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#send(script.name, ['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (!isNoScript(error)) throw toStoreError(script.name, error);
      return this.send(script.name, ['EVAL', script.source, ...tail]);
    }
  }

  async #send(what: string, args: string[]): Promise<unknown> {
    if (!this.#transport.ready()) {
      throw new RedisStoreError(
        'redis_unavailable',
        `Redis ${what}: the ${this.#transport.library} client is not connected`,
      );
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new RedisStoreError('redis_timeout', `Redis ${what}: no answer within ${this.#timeoutMs} ms`),
          ),
        this.#timeoutMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([this.#transport.send(args), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The client's error as a {@link RedisStoreError}, keeping its name and first line only: ioredis attaches
 * the command's arguments (token values among them) to its errors, so the original is not kept as `cause`.
 */
function toStoreError(what: string, error: unknown): RedisStoreError {
  if (error instanceof RedisStoreError) return error;
  const code = isErrorReply(error) ? 'redis_error' : 'redis_unavailable';
  return new RedisStoreError(code, `Redis ${what} failed: ${errorText(error)}`);
}

/** Redis is up but refuses for now (loading its data, a busy script, a replica, a cluster in flux). */
const TRANSIENT_REPLIES = /^(LOADING|BUSY|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN) /;

/**
 * An error reply from Redis (`ERR …`, `NOSCRIPT …`, `WRONGTYPE …`): the connection works. Anything else the
 * client throws (closed, reset, refused, timed out) means Redis cannot be reached.
 */
function isErrorReply(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /^[A-Z]+ /.test(error.message) && !TRANSIENT_REPLIES.test(error.message);
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** The error's name and first line: Redis error replies name the problem, never a stored value. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const line = error.message.split('\n', 1)[0] ?? '';
  return `${error.name}${line === '' ? '' : `: ${line.slice(0, 200)}`}`;
}
