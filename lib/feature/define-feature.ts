/** `defineFeature`: the one factory every feature is made with. */
import type { Feature } from './feature';
import { isPhase } from './phases';

/**
 * Makes a feature, checking its declaration at once: a name, known phase names, statuses in 100..599.
 *
 * @example
 * const requestId = defineFeature({
 *   name: 'request-id',
 *   settings: [],
 *   phases: ['finish'],
 *   transports: { answer: 'an X-Request-Id header on every answer' },
 *   build: () => ({ finish: (ctx) => void ctx.response?.headers.set('X-Request-Id', crypto.randomUUID()) }),
 * });
 * RestApplication.build({ classes: [FruitResource], features: [requestId] });
 */
export function defineFeature<F extends Feature>(feature: F): F {
  if (!/^[a-z][a-z0-9-]*$/.test(feature.name))
    throw new TypeError(`A feature's name is lower-case words joined by '-': "${feature.name}"`);
  for (const phase of feature.phases)
    if (!isPhase(phase)) throw new TypeError(`The feature ${feature.name} joins an unknown phase "${String(phase)}"`);
  for (const answer of feature.answers ?? [])
    if (!Number.isInteger(answer.status) || answer.status < 100 || answer.status > 599)
      throw new TypeError(`The feature ${feature.name} declares a status that is not one: ${answer.status}`);
  return Object.freeze(feature);
}
