/**
 * OpenAPI as a feature: the document of every resource endpoint (with the answers features declared), made on first
 * use, and, when `framework.openapi.enabled`, the routes serving it at `framework.openapi.path` and Swagger UI at
 * `framework.openapi.ui.path`.
 */
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

/** What the build step knows of every resource endpoint, once they are compiled. */
export const ENDPOINT_FACTS = new BuildKey<() => readonly EndpointFacts[]>('endpoint-facts');
/** The application's document, made on first use. */
export const OPENAPI = new BuildKey<() => OpenApiDocument>('openapi');

/**
 * The application's own package.json: the nearest one from its directory (`build({ directory })`, else the working
 * directory) up, as Node finds a package's; none (or no disk, in a Worker): an empty manifest.
 */
function manifestOf(directory: string): { name?: unknown; version?: unknown } {
  try {
    const path = nodePath();
    for (let at = path.resolve(directory); ; at = path.dirname(at)) {
      const file = path.join(at, 'package.json');
      if (nodeFs().existsSync(file)) return JSON.parse(nodeFs().readFileSync(file, 'utf8')) as object;
      if (path.dirname(at) === at) return {};
    }
  } catch {
    // An unreadable package.json, or no disk: the defaults.
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

/** Swagger UI is on in the `dev` and `test` profiles, and in others only when asked for. */
const UI_PROFILES = new Set(['dev', 'test']);

/**
 * Whether swagger-ui-dist (an optional peer dependency) is installed. In the dev and test profiles the page is
 * served only then (said once in the log otherwise); `always-include` without it fails the build instead.
 */
function swaggerUiInstalled(): boolean {
  try {
    require.resolve('swagger-ui-dist/package.json');
    return true;
  } catch {
    log.info('The Swagger UI page is not served: npm install swagger-ui-dist to have it in the dev and test profiles');
    return false;
  }
}

/** What serves `document` (and Swagger UI), as the configuration asks. */
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
    // The facts exist once the endpoints are compiled, after every feature is built: the document is made on demand,
    // its makers (and zod's JSON Schema output) loaded then.
    const document = (): OpenApiDocument =>
      (made ??= (require('./openapi-document') as typeof import('./openapi-document')).openApiDocument(
        build.find(ENDPOINT_FACTS)?.() ?? [],
        (info ??= infoOf(build.config, build.directory)),
        build.applicationPath,
        build.find(SECURITY)?.mechanisms,
      ));
    build.provide(OPENAPI, document);
    return {
      unrouted: () =>
        (answers ??= openApiAnswers(build.config, document, (info ??= infoOf(build.config, build.directory)))),
    };
  },
});
