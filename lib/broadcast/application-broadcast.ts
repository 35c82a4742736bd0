/** The application's broadcast backplane, as `framework.broadcast.*` asks, and its readiness check. */
import cluster from 'node:cluster';
import type { Config } from '../config';
import { HealthCheckResponse } from '../health/health-check';
import type { RegisteredCheck } from '../health/health-route';
import type { JsonMapper } from '../json/json-mapper';
import type { Backplane } from './backplane';
import type { Retention } from './event-ring';
import { cancelResumables } from './resumable';
import { inMemory, useBackplane } from './topics';

export interface ApplicationBroadcast {
  /** `broadcast`, a readiness check DOWN while Redis is unreachable (none for the in-memory backend). */
  readonly checks: readonly RegisteredCheck[];
  /** Ends this process's resumable streams, lets go of the Redis connections and goes back to the in-memory backplane. */
  close(): Promise<void>;
}

/** The Redis backplane the backend names; ioredis is loaded only for them. */
function redisBackplane(
  backend: 'redis' | 'redis-streams',
  url: string,
  json: JsonMapper,
  retention: Retention,
): Backplane {
  if (backend === 'redis') {
    const { RedisBackplane } = require('./redis-backplane') as typeof import('./redis-backplane');
    return new RedisBackplane(url, json, retention);
  }
  const { RedisStreamsBackplane } = require('./redis-streams-backplane') as typeof import('./redis-streams-backplane');
  return new RedisStreamsBackplane(url, json, retention);
}

/**
 * With `framework.broadcast.backend=redis` or `redis-streams`, connects this process to Redis and makes it the
 * backplane; the retention settings apply to every backend. The primary of `framework.http.workers` serves
 * nothing, so it does not connect; each worker does.
 */
export function applicationBroadcast(config: Config, json: JsonMapper): ApplicationBroadcast {
  const retention: Retention = {
    maxEvents: config.get('framework.broadcast.retention.max-events'),
    maxAgeMs: config.get('framework.broadcast.retention.max-age'),
  };
  const backend = config.get('framework.broadcast.backend');
  const supervisesOnly = config.get('framework.http.workers') > 1 && cluster.isPrimary;
  if (backend === 'memory' || supervisesOnly) {
    const restore = useBackplane(inMemory, retention);
    return { checks: [], close: async () => (await cancelResumables(), restore()) };
  }
  const backplane = redisBackplane(backend, config.get('framework.broadcast.redis.url'), json, retention);
  const restore = useBackplane(backplane, retention);
  const check: RegisteredCheck = {
    name: 'broadcast',
    kinds: ['readiness'],
    check: {
      call: () =>
        HealthCheckResponse.named('broadcast').status(backplane.connected).withData('backend', backend).build(),
    },
  };
  return {
    checks: [check],
    close: async () => {
      await cancelResumables();
      restore();
      await backplane.close();
    },
  };
}
