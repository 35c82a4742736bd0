/** The application's request pipeline, put together from the core plan, the features' parts and the endpoints. */
import { COMPRESSION } from '../compression/compression-feature';
import { hostRules, type HostRules } from '../http/allowed-hosts';
import { MULTIPART } from '../multipart/multipart-feature';
import { compileStage } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import { RequestPipeline } from '../pipeline/request-pipeline';
import { Router } from '../routing/router';
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

/** The hosts the application answers for and its public origin (`framework.http.allowed-hosts`, `public-base-url`). */
export function hostsOf(scope: BuildScope): HostRules | undefined {
  return hostRules(
    scope.config.get('framework.http.allowed-hosts'),
    scope.config.get('framework.http.public-base-url'),
  );
}

/** Each phase of the pipeline from what joined it; `features.unrouted()` is asked now, once every feature started. */
export function assemblePipeline(
  scope: BuildScope,
  core: CorePlan,
  features: JoinedFeatures,
  endpoints: readonly Endpoint[],
): RequestPipeline {
  return new RequestPipeline({
    hosts: hostsOf(scope),
    first: features.receive,
    finish: features.finish,
    router: routerOf(endpoints),
    preMatching: compileStage(requestSteps(core.filters.preMatching)),
    mappers: mappersFor(core.mappers, undefined),
    responseFilters: compileStage(responseSteps(applicable(core.filters.response, new Set<string>()))),
    writers: core.bodies.writers([scope.find(MULTIPART)!.writer]),
    compression: scope.find(COMPRESSION),
    nosniff: scope.config.get('framework.http.nosniff'),
    unrouted: features.unrouted(),
    observe: features.complete,
  });
}
