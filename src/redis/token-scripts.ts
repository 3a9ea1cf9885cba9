import { defineScript } from './redis-commands.js';

/**
 * The token hash (`KEYS[1]`): `gen` (generation), `access` (the access token and its times), `refresh`
 * (the refresh token, until taken). Read: `{gen, access, 1 | 0}` (is a refresh token there), or nil.
 */
export const READ_TOKENS = defineScript(
  'read tokens',
  `local v = redis.call('HMGET', KEYS[1], 'gen', 'access', 'refresh')
if not v[1] or not v[2] then return false end
return {v[1], v[2], v[3] and 1 or 0}`,
);

/** Removes and returns the refresh token if the generation is still `ARGV[1]`; else nil. */
export const TAKE_REFRESH_TOKEN = defineScript(
  'take refresh token',
  `if redis.call('HGET', KEYS[1], 'gen') ~= ARGV[1] then return false end
local r = redis.call('HGET', KEYS[1], 'refresh')
if r then redis.call('HDEL', KEYS[1], 'refresh') end
return r`,
);

/**
 * Compare-and-set: if the generation is still `ARGV[1]` (0: no hash), replaces the hash with generation
 * `ARGV[1] + 1`, access `ARGV[2]`, refresh `ARGV[3]` (none when empty), expiring after `ARGV[4]` ms, and
 * returns the new generation; else nil.
 */
export const WRITE_TOKENS = defineScript(
  'write tokens',
  `local current = tonumber(redis.call('HGET', KEYS[1], 'gen') or '0')
if current ~= tonumber(ARGV[1]) then return false end
local gen = current + 1
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'gen', gen, 'access', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'refresh', ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return gen`,
);
