/** The build step: decorated classes and features in, a built application out. */
import { checkPackages, corePackages, JoinedFeatures } from './join-features';
import { compileEndpoints } from './compile-endpoints';
import { openScope, planCore, type CorePlan } from './core-plan';
import { RestApp } from './rest-app';
import type { BuildOptions, BuildScope } from './build-scope';
import { handPackages } from '../runtime/load-package';
import type { Feature } from '../feature/feature';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import { broadcastFeature } from '../broadcast/broadcast-feature';
import { durableStreamsFeature } from '../broadcast/durable-streams-feature';
import { COMPRESSION, compressionFeature } from '../compression/compression-feature';
import { corsFeature } from '../cors/cors';
import { healthFeature } from '../health/health-feature';
import { forwardedOriginFeature } from '../links/forwarded-origin';
import { linksFeature } from '../links/links-feature';
import { mcpFeature } from '../mcp/mcp-feature';
import { metricsFeature } from '../metrics/metrics-feature';
import { multipartFeature } from '../multipart/multipart-feature';
import { openApiFeature } from '../openapi/openapi-feature';
import { rateLimitFeature } from '../rate-limit/rate-limit-feature';
import { allowedHostsFeature } from '../security/allowed-hosts-feature';
import { nosniffFeature } from '../security/nosniff';
import { securityFeature } from '../security/security-feature';
import { staticFilesFeature } from '../static/static-feature';
import { tracingFeature } from '../tracing/request-span';
import { webSocketFeature } from '../websocket/websocket-feature';
import { compileStage } from '../pipeline/chain';
import type { Endpoint } from '../pipeline/endpoint';
import { RequestPipeline } from '../pipeline/request-pipeline';
import { Router } from '../routing/router';
import { answerFinisher } from '../runtime/runtime-answers';
import { applicable, requestSteps, responseSteps } from '../pipeline/filters';
import { mappersFor } from './compile-mappers';

export type { BuildOptions } from './build-scope';
export type { EndpointSummary } from './compile-endpoints';
export { RestApp } from './rest-app';

/**
 * The framework's own features, in the order they join each phase: hosts not served refused first, the URL moved onto
 * the forwarded origin, CORS preflights (seeing that URL), the socket origin check before security, security before
 * rate limits (a client is its principal), and the unrouted answers asked health, metrics, OpenAPI, then static files.
 */
export function builtInFeatures(authentication: readonly AuthenticationMechanism[] = []): Feature[] {
  return [
    allowedHostsFeature,
    forwardedOriginFeature,
    compressionFeature,
    multipartFeature,
    corsFeature,
    webSocketFeature,
    rateLimitFeature,
    securityFeature(authentication),
    nosniffFeature,
    linksFeature,
    healthFeature,
    durableStreamsFeature,
    broadcastFeature,
    tracingFeature,
    metricsFeature,
    openApiFeature,
    staticFilesFeature,
    mcpFeature,
  ];
}

/**
 * The build step: reads the decorators of the application's classes once, builds each feature (the framework's,
 * then the application's own), compiles every endpoint with the steps the features join to it, and puts the
 * request pipeline together. Every problem found is reported together in one `DefinitionError`.
 *
 * @example
 * const app = RestApplication.build({ classes: [FruitResource] });
 * await app.listen({ port: 8080 });
 */
export const RestApplication = {
  build(options: BuildOptions = {}): RestApp {
    if (options.packages) handPackages(options.packages);
    const scope = openScope(options);
    const features = new JoinedFeatures(
      [...builtInFeatures(options.authentication), ...(options.features ?? [])],
      scope,
    );
    const core = planCore(scope, options);
    const endpoints = compileEndpoints(scope, core, features.joins);
    checkPackages([...corePackages(), ...features.packages()], scope.problems);
    scope.problems.throwIfAny();
    features.start();
    return new RestApp({
      scope,
      pipeline: assemblePipeline(scope, core, features, endpoints.all),
      endpoints: endpoints.summary,
      openStreams: core.streams.openStreams,
      features,
    });
  },
};

/** Each phase of the pipeline from what joined it; the unrouted answers asked for once every feature started. */
function assemblePipeline(
  scope: BuildScope,
  core: CorePlan,
  features: JoinedFeatures,
  endpoints: readonly Endpoint[],
): RequestPipeline {
  const router = new Router<Endpoint>();
  for (const endpoint of endpoints) router.add(endpoint.template, endpoint);
  router.freeze();
  return new RequestPipeline({
    ...features.steps(),
    router,
    preMatching: compileStage(requestSteps(core.filters.preMatching)),
    mappers: mappersFor(core.mappers, undefined),
    responseFilters: compileStage(responseSteps(applicable(core.filters.response, new Set<string>()))),
    writers: core.writers(),
    compression: scope.find(COMPRESSION),
    finishAnswer: answerFinisher({
      stallTimeout: scope.config.get('framework.runtime.workerd.stream-stall-timeout'),
      maxDuration: scope.config.get('framework.runtime.workerd.stream-max-duration'),
    }),
  });
}
