/**
 * Which instances read a topic, kept in Redis so that a resumable stream's producer knows whether anyone still does:
 * per topic a sorted set of the time until which each instance counts as watching (renewed every second; an instance
 * that dies counts as gone a few seconds later), on Redis's own clock so instances whose clocks differ still agree.
 * Its keys and scripts; the Redis backplanes' common base keeps it.
 */
import type { Retention } from './event-ring';

/** How long what a backplane keeps in Redis lasts after its last change: as long as events are kept, else a day. */
export const expiryOf = (retention: Retention): number => (retention.maxAgeMs > 0 ? retention.maxAgeMs : 86_400_000);

/** Milliseconds of Redis's clock, inside a script (`now`). */
export const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
export const TOUCH = `${NOW}
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return now`;
export const IDLE = `local top = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #top == 0 then return -1 end
${NOW}
local idle = now - tonumber(top[2])
if idle < 0 then return 0 end
return idle`;

export const presenceKey = (topic: string): string => `rxrest:watch:${topic}`;
/** Set while a resumable stream's producer runs, on whichever instance: it renews it every second. */
export const producerKey = (topic: string): string => `rxrest:producer:${topic}`;
