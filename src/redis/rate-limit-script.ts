import { defineScript } from './redis-commands.js';

/**
 * The shared budget (`KEYS[1]`, a hash of `tat`, the GCRA theoretical arrival time, and `until`, before
 * which nothing may go), in one atomic step. `ARGV`: `take`, now, interval, burst → 0 when a slot was taken,
 * else the ms to wait; or `push`, now, until, tat, replace (`1`: set both times, back as well as forward) →
 * 0, else both times only moved forward. No time is kept more than an hour ahead (a stored `inf` or NaN is
 * read as none), an argument that is not a finite number is refused, and the key expires a minute after its
 * times pass, within a day.
 */
export const RATE_LIMIT = defineScript(
  'rate limit',
  `local function finite(x)
  if x ~= nil and x == x and x > -math.huge and x < math.huge then return x end
  return nil
end
local now = finite(tonumber(ARGV[2]))
local a = finite(tonumber(ARGV[3]))
local b = finite(tonumber(ARGV[4]))
if now == nil or a == nil or b == nil then return redis.error_reply('ERR rate limit: arguments must be finite numbers') end
local horizon = now + 3600000
local v = redis.call('HMGET', KEYS[1], 'tat', 'until')
local tat = math.min(finite(tonumber(v[1])) or now, horizon)
local untl = math.min(finite(tonumber(v[2])) or 0, horizon)
if ARGV[1] == 'push' then
  if ARGV[5] == '1' then tat, untl = now, 0 end
  untl = math.min(math.max(untl, a), horizon)
  tat = math.min(math.max(tat, b), horizon)
else
  if now < untl then return math.ceil(untl - now) end
  local start = math.max(tat, now)
  local wait = start - (b - 1) * a - now
  if wait > 0 then return math.ceil(math.min(wait, 3600000)) end
  tat = math.min(start + a, horizon)
end
redis.call('HSET', KEYS[1], 'tat', string.format('%.3f', tat), 'until', string.format('%.3f', untl))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.min(math.ceil(math.max(tat, untl) - now) + 60000, 86400000)))
return 0`,
);
