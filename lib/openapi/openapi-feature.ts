/** OpenAPI as a feature: the document, made on first use, and (when enabled) the routes serving it and Swagger UI. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Config } from '../config';
import type { UnroutedAnswer } from '../context/settle';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { logging } from '../logging/logger';
import { SECURITY } from '../security/security-feature';
import type { EndpointFacts } from './endpoint-facts';
import type { OpenApiDocument, OpenApiInfo } from './openapi-document';
import { openApiAnswer } from './serve-openapi';

const nodeFs = () => nodeBuiltin('node:fs', 'the OpenAPI document from a file');
const nodePath = () => nodeBuiltin('node:path', 'the OpenAPI document from a file');

const log = logging.getLogger('rxrest.openapi');

export const ENDPOINT_FACTS = new BuildKey<() => readonly EndpointFacts[]>('endpoint-facts');
export const OPENAPI = new BuildKey<() => OpenApiDocument>('openapi');

/** The nearest package.json from the application's directory up, as Node finds it; none (or no disk): `{}`. */
function manifestOf(directory: string): { name?: unknown; version?: unknown } {
  try {
    const path = nodePath();
    for (let at = path.resolve(directory); ; at = path.dirname(at)) {
      const file = path.join(at, 'package.json');
      if (nodeFs().existsSync(file)) return JSON.parse(nodeFs().readFileSync(file, 'utf8')) as object;
      if (path.dirname(at) === at) return {};
    }
  } catch {
    return {};
  }
}

/** `framework.openapi.info.*`, else the name and version of the application's own package.json. */
function infoOf(config: Config, directory: string): OpenApiInfo {
  const manifest = manifestOf(directory);
  return {
    title:
      config.get('framework.openapi.info.title') ??
      (typeof manifest.name === 'string' ? manifest.name : 'rxrest application'),
    version:
      config.get('framework.openapi.info.version') ??
      (typeof manifest.version === 'string' ? manifest.version : '0.0.0'),
    description: config.get('framework.openapi.info.description'),
  };
}

/** Swagger UI is on in these profiles, and in others only when asked for. */
const UI_PROFILES = new Set(['dev', 'test']);

/** An optional peer dependency (`always-include` without it fails the build instead). */
function swaggerUiInstalled(): boolean {
  try {
    require.resolve('swagger-ui-dist/package.json');
    return true;
  } catch {
    log.info('The Swagger UI page is not served: npm install swagger-ui-dist to have it in the dev and test profiles');
    return false;
  }
}

function openApiAnswers(config: Config, document: () => OpenApiDocument, info: OpenApiInfo): UnroutedAnswer[] {
  if (!config.get('framework.openapi.enabled')) return [];
  const documentPath = config.get('framework.openapi.path');
  const answers = [openApiAnswer(documentPath, document)];
  if (
    config.get('framework.openapi.ui.always-include') ||
    (config.profiles.some((name) => UI_PROFILES.has(name)) && swaggerUiInstalled())
  ) {
    const { swaggerUiAnswer } = require('./serve-swagger-ui') as typeof import('./serve-swagger-ui');
    answers.push(
      swaggerUiAnswer(config.get('framework.openapi.ui.path'), documentPath, `${info.title} ${info.version}`),
    );
  }
  return answers;
}

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
    let info: OpenApiInfo | undefined;
    let made: OpenApiDocument | undefined;
    let answers: UnroutedAnswer[] | undefined;
    const infoOnce = () => (info ??= infoOf(build.config, build.directory));
    // The facts exist only once every feature is built: the document (and its makers) is made on demand.
    const document = (): OpenApiDocument =>
      (made ??= (require('./openapi-document') as typeof import('./openapi-document')).openApiDocument(
        build.find(ENDPOINT_FACTS)?.() ?? [],
        infoOnce(),
        build.applicationPath,
        build.find(SECURITY)?.mechanisms,
      ));
    build.provide(OPENAPI, document);
    return { unrouted: () => (answers ??= openApiAnswers(build.config, document, infoOnce())) };
  },
});
