/** OpenAPI as a feature: the document of every resource endpoint (with the answers features declared), and Swagger UI. */
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { SECURITY } from '../security/security-feature';
import { applicationOpenApi, type OpenApiDocument } from './application-openapi';
import type { EndpointFacts } from './endpoint-facts';

/** What the build step knows of every resource endpoint, once they are compiled. */
export const ENDPOINT_FACTS = new BuildKey<() => readonly EndpointFacts[]>('endpoint-facts');
/** The application's document, made on first use. */
export const OPENAPI = new BuildKey<() => OpenApiDocument>('openapi');

export const openApiFeature = defineFeature({
  name: 'openapi',
  settings: ['framework.openapi.'],
  phases: ['route'],
  transports: {
    answer: 'each operation lists the statuses the features on its endpoint can answer with (401, 403, 429, 413...)',
    stream: 'streamed media types (SSE, NDJSON) described with their item schema',
  },
  packages: (build) =>
    build.config.get('framework.openapi.ui.always-include')
      ? [{ name: 'swagger-ui-dist', feature: 'framework.openapi.ui.always-include=true' }]
      : [],
  build(build) {
    let answers: ReturnType<typeof applicationOpenApi> | undefined;
    // The facts exist once the endpoints are compiled, after every feature is built: the document is made on demand.
    const made = (): ReturnType<typeof applicationOpenApi> =>
      (answers ??= applicationOpenApi(
        build.find(ENDPOINT_FACTS)?.() ?? [],
        build.config,
        build.applicationPath,
        build.find(SECURITY)?.mechanisms,
      ));
    build.provide(OPENAPI, () => made().document());
    return { unrouted: () => made().answers };
  },
});
