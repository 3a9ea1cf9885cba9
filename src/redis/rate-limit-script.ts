import { defineScript } from './redis-commands.js';

/**
 * The shared budget (`KEYS[1]`, a hash of `tat`, the GCRA theoretical arrival time, and `until`, before
 * which nothing may go), in one atomic step. `ARGV`: `take`, now, interval, burst → 0 when a slot was taken,
 * else the ms to wait; or `push`, now, until, tat → 0, both times only moved forward. The key expires a
 * minute after its times pass.
 */
export const RATE_LIMIT = defineScript(
  'rate limit',
  `local now = tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'tat', 'until')
local tat = tonumber(v[1]) or now
local untl = tonumber(v[2]) or 0
if ARGV[1] == 'push' then
  untl = math.max(untl, tonumber(ARGV[3]))
  tat = math.max(tat, tonumber(ARGV[4]))
else
  if now < untl then return math.ceil(untl - now) end
  local interval = tonumber(ARGV[3])
  local start = math.max(tat, now)
  local wait = start - (tonumber(ARGV[4]) - 1) * interval - now
  if wait > 0 then return math.ceil(wait) end
  tat = start + interval
end
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'until', string.format('%.3f', untl))
redis.call('PEXPIRE', KEYS[1], math.ceil(math.max(tat, untl) - now) + 60000)
return 0`,
);
