/** The application's request pipeline, put together from the core plan, the features' parts and the endpoints. */
import { COMPRESSION } from '../compression/compression-feature';
import { MULTIPART } from '../multipart/multipart-feature';
import { compileStage } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import { RequestPipeline } from '../pipeline/request-pipeline';
import { Router } from '../routing/router';
import { answerFinisher } from '../runtime/runtime-answers';
import type { BuildScope } from './build-scope';
import { applicable, requestSteps, responseSteps } from './compile-filters';
import { mappersFor } from './compile-mappers';
import type { CorePlan } from './core-plan';
import type { JoinedFeatures } from './join-features';

function routerOf(endpoints: readonly Endpoint[]): Router<Endpoint> {
  const router = new Router<Endpoint>();
  for (const endpoint of endpoints) router.add(endpoint.template, endpoint);
  router.freeze();
  return router;
}

/** Each phase of the pipeline from what joined it; the unrouted answers are asked for now, once every feature started. */
export function assemblePipeline(
  scope: BuildScope,
  core: CorePlan,
  features: JoinedFeatures,
  endpoints: readonly Endpoint[],
): RequestPipeline {
  return new RequestPipeline({
    ...features.steps(),
    router: routerOf(endpoints),
    preMatching: compileStage(requestSteps(core.filters.preMatching)),
    mappers: mappersFor(core.mappers, undefined),
    responseFilters: compileStage(responseSteps(applicable(core.filters.response, new Set<string>()))),
    writers: core.bodies.writers([scope.find(MULTIPART)!.writer]),
    compression: scope.find(COMPRESSION),
    finishAnswer: answerFinisher({
      stallTimeout: scope.config.get('framework.runtime.workerd.stream-stall-timeout'),
      maxDuration: scope.config.get('framework.runtime.workerd.stream-max-duration'),
    }),
  });
}
