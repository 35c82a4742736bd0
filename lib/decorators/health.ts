/** Decorators that make a class a health check of one or more kinds; they record metadata only. */
import { classMeta, metaKey } from '../metadata/store';

/** Which health endpoint a check answers on (`/q/health/live`, `/ready`, `/started`). */
export type HealthKind = 'liveness' | 'readiness' | 'startup';

export const HEALTH_KINDS = metaKey<HealthKind[]>('health-kinds');

function kind(name: HealthKind): (target: Function) => void {
  return (target) => classMeta(target).tags.push(HEALTH_KINDS, name);
}

/**
 * A check of `/q/health/live` (and `/q/health`): DOWN means the process should be restarted. The class
 * implements `HealthCheck` (`call()` answering a `HealthCheckResponse`, a Promise or an Observable of one).
 *
 * @example
 * \@Liveness
 * class Heap implements HealthCheck {
 *   call() { return HealthCheckResponse.named('heap').status(process.memoryUsage().heapUsed < 1e9).build(); }
 * }
 */
export const Liveness: (target: Function) => void = kind('liveness');
/** A check of `/q/health/ready`: DOWN means no traffic should be sent to this instance now. */
export const Readiness: (target: Function) => void = kind('readiness');
/** A check of `/q/health/started`: DOWN means the application has not finished starting. */
export const Startup: (target: Function) => void = kind('startup');
