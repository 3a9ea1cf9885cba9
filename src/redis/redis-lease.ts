import { defineScript, type RedisCommands } from './redis-commands.js';

const EXTEND = defineScript(
  'lease extend',
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
);

const RELEASE = defineScript(
  'lease release',
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
);

/**
 * A key this process set to `value` with a TTL (`SET … NX PX`), kept alive while the work it guards runs:
 * every third of the TTL its expiry is pushed back, if it still holds `value`. If the process dies, the
 * key expires within one TTL and another instance can take over. Releasing deletes it only if it still
 * holds `value`, so a lease that lapsed and was taken by another instance is left alone.
 */
export class RedisLease {
  readonly #commands: RedisCommands;
  readonly #key: string;
  readonly #value: string;
  readonly #ttlMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(commands: RedisCommands, key: string, value: string, ttlMs: number, keepAliveUntil: number) {
    this.#commands = commands;
    this.#key = key;
    this.#value = value;
    this.#ttlMs = ttlMs;
    this.#timer = setInterval(
      () => {
        if (Date.now() >= keepAliveUntil) {
          this.stop();
          return;
        }
        this.#extend();
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    this.#timer.unref();
  }

  /** Stops keeping the key alive (it then expires by itself, unless overwritten). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops, and deletes the key if it still holds this lease's value. */
  async release(): Promise<void> {
    this.stop();
    await this.#commands.eval(RELEASE, [this.#key], [this.#value]);
  }

  #extend(): void {
    this.#commands.eval(EXTEND, [this.#key], [this.#value, String(this.#ttlMs)]).then(
      (extended) => {
        if (extended === 0) this.stop(); // lapsed and taken over: no longer ours
      },
      () => undefined, // Redis unreachable for now: try again next time; the key may lapse meanwhile
    );
  }
}
