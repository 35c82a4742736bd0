/** The Lua scripts of the Redis Streams backplane: a publish that stores and trims, and the check for a lost producer. */
import { NOW } from './redis-presence';

// Stores one event (KEYS[1], the topic's stream), once per idempotency key (KEYS[3], when given), then drops the
// oldest events past the count, the bytes (their data, counted in KEYS[2]) or the age (on Redis's own clock, the
// one entry ids are made from). Count and bytes never take the stream below ARGV[8] events, and the count drops no
// event of the last ARGV[9] ms: live readers on other instances may not have read them yet (the bytes still do, a
// flood past max-bytes being what that bound is for). The event just stored always stays.
// The stream and its count expire when nothing is published for as long as events are kept.
export const PUBLISH = `if #KEYS > 2 then
  local seen = redis.call('GET', KEYS[3])
  if seen then return seen end
end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
local fields = {'d', ARGV[3]}
if ARGV[4] ~= '' then
  fields[#fields + 1] = 'e'
  fields[#fields + 1] = ARGV[4]
end
if ARGV[6] ~= '' then
  fields[#fields + 1] = 't'
  fields[#fields + 1] = ARGV[6]
end
local id = redis.call('XADD', KEYS[1], '*', unpack(fields))
local total = redis.call('INCRBY', KEYS[2], string.len(ARGV[3]))
local length = redis.call('XLEN', KEYS[1])
local maxEvents = tonumber(ARGV[1])
local maxAge = tonumber(ARGV[2])
local maxBytes = tonumber(ARGV[7])
local floor = tonumber(ARGV[8])
${NOW}
local live = now - tonumber(ARGV[9])
local cutoff = -1
if maxAge > 0 then cutoff = now - maxAge end
local dropped, freed, keep, start, count = 0, 0, nil, '-', 2
while keep == nil do
  local batch = redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', count)
  if #batch == 0 then break end
  for _, entry in ipairs(batch) do
    local left = length - dropped
    local size = 0
    local f = entry[2]
    for i = 1, #f, 2 do
      if f[i] == 'd' then size = string.len(f[i + 1]) end
    end
    local at = tonumber(string.match(entry[1], '^(%d+)'))
    local old = cutoff >= 0 and at < cutoff
    local over = left > floor and ((left > maxEvents and at < live) or total - freed > maxBytes)
    if entry[1] == id or not (old or over) then
      keep = entry[1]
      break
    end
    dropped = dropped + 1
    freed = freed + size
  end
  start = '(' .. batch[#batch][1]
  count = math.min(count * 2, 64)
end
if dropped > 0 then
  redis.call('XTRIM', KEYS[1], 'MINID', keep)
  redis.call('DECRBY', KEYS[2], freed)
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
if #KEYS > 2 then redis.call('SET', KEYS[3], id, 'PX', ARGV[5]) end
return id`;

// Whether a topic that had a producer (one was registered in its presence) has lost it: the producer no longer says
// it runs, and the history has no end. With ARGV[1] = 1, the end (`event: error`) is stored then, once.
export const ABANDONED = `if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local produced = false
for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  if string.sub(member, 1, 9) == 'producer:' then produced = true end
end
if not produced then return 0 end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last > 0 then
  local fields = last[1][2]
  for i = 1, #fields, 2 do if fields[i] == 'e' then return 0 end end
end
if ARGV[1] == '1' then
  redis.call('XADD', KEYS[1], '*', 'd', ARGV[3], 'e', 'error')
  redis.call('INCRBY', KEYS[4], string.len(ARGV[3]))
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
end
return 1`;
