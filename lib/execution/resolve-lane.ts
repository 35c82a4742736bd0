/** Decides an endpoint's lane from its annotations and declared return type (execution lanes: docs/streaming.md). */
import { Observable } from 'rxjs/internal/Observable';
import { LANE, TRANSACTIONAL } from '../decorators/execution';
import type { Tags } from '../metadata/store';
import type { Lane } from '../context/request-context';
import { Multi } from '../streaming/multi';
import { isNodeReadableClass } from '../runtime/node-builtins';

const ASYNC_RETURNS: readonly unknown[] = [Promise, Observable, Multi, ReadableStream];
// `async function*` methods declare interfaces (AsyncGenerator), which leave no runtime type behind.
const ASYNC_GENERATOR = Object.getPrototypeOf(async function* () {}).constructor as unknown;

/** The lane the declared return type alone says: event loop for results arriving later or in pieces, else worker. */
export function laneOfReturnType(returnType: unknown, method?: Function): Lane {
  if (ASYNC_RETURNS.includes(returnType) || isNodeReadableClass(returnType)) return 'event-loop';
  return method?.constructor === ASYNC_GENERATOR ? 'event-loop' : 'worker';
}

function explicit(tags: Tags | undefined): Lane | undefined {
  const lane = tags?.get(LANE);
  return lane === undefined ? undefined : lane === 'blocking' ? 'worker' : 'event-loop';
}

/**
 * The lane of a method: its own `@Blocking`/`@NonBlocking`, else its class's, else `@Transactional` (blocking), else
 * the `Application`'s annotation, else its declared return type (`fn` tells async generators apart).
 *
 * @example
 * resolveLane(methodTags, classTags, undefined, Promise); // 'event-loop' unless annotated
 */
export function resolveLane(
  method: Tags,
  type: Tags,
  application: Tags | undefined,
  returnType: unknown,
  fn?: Function,
): Lane {
  const annotated = explicit(method) ?? explicit(type);
  if (annotated) return annotated;
  if (method.has(TRANSACTIONAL) || type.has(TRANSACTIONAL)) return 'worker';
  return explicit(application) ?? laneOfReturnType(returnType, fn);
}
