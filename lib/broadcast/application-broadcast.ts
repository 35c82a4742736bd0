/** The application's broadcast backplane, as `framework.broadcast.*` asks, and its readiness check. */
import cluster from 'node:cluster';
import type { Config } from '../config';
import { HealthCheckResponse } from '../health/health-check';
import type { RegisteredCheck } from '../health/health-route';
import type { JsonMapper } from '../json/json-mapper';
import { useBackplane } from './broadcaster';
import { RedisBackplane } from './redis-backplane';

export interface ApplicationBroadcast {
  /** `broadcast`, a readiness check DOWN while Redis is unreachable (none for the in-memory backend). */
  readonly checks: readonly RegisteredCheck[];
  /** Lets go of the Redis connections and goes back to the in-memory backplane. */
  close(): Promise<void>;
}

/**
 * With `framework.broadcast.backend=redis`, connects this process to Redis and makes it the backplane. The
 * primary of `framework.http.workers` serves nothing, so it does not connect; each worker does.
 */
export function applicationBroadcast(config: Config, json: JsonMapper): ApplicationBroadcast {
  const supervisesOnly = config.get('framework.http.workers') > 1 && cluster.isPrimary;
  if (config.get('framework.broadcast.backend') !== 'redis' || supervisesOnly) return { checks: [], close: async () => undefined };
  const backplane = new RedisBackplane(config.get('framework.broadcast.redis.url'), json);
  const restore = useBackplane(backplane);
  const check: RegisteredCheck = {
    name: 'broadcast',
    kinds: ['readiness'],
    check: { call: () => HealthCheckResponse.named('broadcast').status(backplane.connected).withData('backend', 'redis').build() },
  };
  return {
    checks: [check],
    close: async () => {
      restore();
      await backplane.close();
    },
  };
}
