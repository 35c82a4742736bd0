/** The application's OpenAPI document and the route serving it, as the configuration asks. */
import { nodeBuiltin } from '../runtime/node-builtins';
import type { Config } from '../config';
import type { UnroutedAnswer } from '../context/settle';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import type { EndpointFacts } from './endpoint-facts';
import type { OpenApiInfo } from './openapi-document';
import { openApiAnswer } from './serve-openapi';
import type { JsonSchema } from './type-schema';
import { logging } from '../logging/logger';

const nodeFs = () => nodeBuiltin('node:fs', 'the OpenAPI document from a file');
const nodePath = () => nodeBuiltin('node:path', 'the OpenAPI document from a file');

const log = logging.getLogger('rxrest.openapi');

/** An OpenAPI document, as plain JSON data. */
export type OpenApiDocument = JsonSchema;

/** `framework.openapi.info.*`, else the name and version of the application's own package.json. */
function infoOf(config: Config): OpenApiInfo {
  let manifest: { name?: unknown; version?: unknown } = {};
  try {
    manifest = JSON.parse(
      nodeFs().readFileSync(nodePath().join(process.cwd(), 'package.json'), 'utf8'),
    ) as typeof manifest;
  } catch {
    // No package.json: the defaults below.
  }
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

/**
 * The document of `facts` (made on first use, then kept; `mechanisms` give its security schemes) and, when
 * `framework.openapi.enabled`, what serves it at `framework.openapi.path` and Swagger UI at `framework.openapi.ui.path`.
 */
export function applicationOpenApi(
  facts: readonly EndpointFacts[],
  config: Config,
  root: string,
  mechanisms: readonly AuthenticationMechanism[] = [],
): { document(): OpenApiDocument; answers: UnroutedAnswer[] } {
  let made: OpenApiDocument | undefined;
  const info = infoOf(config);
  // The document's makers (and zod's JSON Schema output) are loaded when it is first asked for.
  const document = (): OpenApiDocument =>
    (made ??= (require('./openapi-document') as typeof import('./openapi-document')).openApiDocument(
      facts,
      info,
      root,
      mechanisms,
    ));
  if (!config.get('framework.openapi.enabled')) return { document, answers: [] };
  const documentPath = config.get('framework.openapi.path');
  const answers = [openApiAnswer(documentPath, document)];
  if (config.get('framework.openapi.ui.always-include') || (UI_PROFILES.has(config.profile) && swaggerUiInstalled())) {
    const { swaggerUiAnswer } = require('./serve-swagger-ui') as typeof import('./serve-swagger-ui');
    answers.push(
      swaggerUiAnswer(config.get('framework.openapi.ui.path'), documentPath, `${info.title} ${info.version}`),
    );
  }
  return { document, answers };
}
