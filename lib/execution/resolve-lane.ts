/** Decides an endpoint's lane from its annotations and declared return type (spec 4.13, DESIGN §5). */
import { Observable } from 'rxjs';
import { LANE, TRANSACTIONAL } from '../decorators/execution';
import type { Tags } from '../metadata/store';
import type { Lane } from '../pipeline/request-context';

const ASYNC_RETURNS: readonly unknown[] = [Promise, Observable];

/** What the declared return type alone says: Promise and Observable (Uni, Multi) → event loop, anything else → worker. */
export function laneOfReturnType(returnType: unknown): Lane {
  return ASYNC_RETURNS.includes(returnType) ? 'event-loop' : 'worker';
}

function explicit(tags: Tags | undefined): Lane | undefined {
  const lane = tags?.get(LANE);
  return lane === undefined ? undefined : lane === 'blocking' ? 'worker' : 'event-loop';
}

/**
 * The lane of a method: its own `@Blocking`/`@NonBlocking`, else its class's, else `@Transactional` on
 * the method or class (blocking), else the `Application`'s annotation, else its declared return type.
 *
 * @example
 * resolveLane(methodTags, classTags, undefined, Promise); // 'event-loop' unless annotated
 */
export function resolveLane(method: Tags, type: Tags, application: Tags | undefined, returnType: unknown): Lane {
  const annotated = explicit(method) ?? explicit(type);
  if (annotated) return annotated;
  if (method.has(TRANSACTIONAL) || type.has(TRANSACTIONAL)) return 'worker';
  return explicit(application) ?? laneOfReturnType(returnType);
}
