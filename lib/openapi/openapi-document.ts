/** Assembles the OpenAPI 3.2 document of an application from the facts the build step gathered, once. */
import { OPENAPI_HIDDEN, OPENAPI_OPERATION, OPENAPI_TAGS } from '../decorators/openapi';
import type { AuthenticationMechanism } from '../security/authentication-mechanism';
import type { EndpointFacts } from './endpoint-facts';
import { expandBeans, matrixSuffix, operationParameters } from './operation-parameters';
import { operationResponses } from './operation-responses';
import { requestBody } from './request-body';
import { operationSecurity, securitySchemes, type DocumentSchemes } from './security-requirements';
import { components, type UsedComponents } from './shared-components';
import type { JsonSchema } from './type-schema';

/** An OpenAPI document, as plain JSON data. */
export type OpenApiDocument = JsonSchema;

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/** `/items/{id: [0-9]+}` as OpenAPI writes it (`/items/{id}`), with each variable's pattern. */
function splitTemplate(template: string): { path: string; patterns: Map<string, string> } {
  const patterns = new Map<string, string>();
  const path = template.replace(
    /\{\s*([\w.-]+)\s*(?::\s*((?:[^{}]|\{[^{}]*\})+))?\}/g,
    (_, name: string, regex: string | undefined) => {
      if (regex) patterns.set(name, `^${regex.trim()}$`);
      return `{${name}}`;
    },
  );
  return { path, patterns };
}

/** `/api/fruits` under the root `/api` is `/fruits` (the root is the server's URL). */
function relative(path: string, root: string): string {
  const prefix = root.replace(/\/+$/, '');
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path;
}

function describeOperation(
  facts: EndpointFacts,
  operationId: string,
  schemes: DocumentSchemes,
  used: UsedComponents,
): { path: string; operation: JsonSchema } {
  const params = expandBeans(facts.params);
  const { path, patterns } = splitTemplate(facts.template);
  const operation = facts.methodTags.get(OPENAPI_OPERATION);
  const body = requestBody(params, facts.info.consumes);
  const parameters = operationParameters(params, patterns);
  const security = operationSecurity(facts.access, schemes);
  return {
    path: path + matrixSuffix(params),
    operation: {
      operationId,
      tags: facts.methodTags.get(OPENAPI_TAGS) ?? facts.classTags.get(OPENAPI_TAGS) ?? [facts.info.resourceClass.name],
      ...(operation?.summary ? { summary: operation.summary } : {}),
      ...(operation?.description ? { description: operation.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      ...(security ? { security } : {}),
      responses: operationResponses(facts, { readsBody: body !== undefined, schemes, used }),
    },
  };
}

/** `query` is new in OpenAPI 3.2. */
const PATH_ITEM_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query']);

/** Another method (`PURGE`) goes in `additionalOperations`, under the name as sent. */
function addOperation(item: Record<string, JsonSchema>, httpMethod: string, operation: JsonSchema): void {
  const field = httpMethod.toLowerCase();
  if (PATH_ITEM_METHODS.has(field)) item[field] = operation;
  else (item['additionalOperations'] ??= {})[httpMethod] = operation;
}

/** The OpenAPI 3.2.0 document of `endpoints`, described as the server answers them. */
export function openApiDocument(
  endpoints: readonly EndpointFacts[],
  info: OpenApiInfo,
  root: string,
  mechanisms: readonly AuthenticationMechanism[] = [],
): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operationIds = new Set<string>();
  const schemes = securitySchemes(mechanisms);
  const used: UsedComponents = { responses: new Set(), problem: false };
  for (const facts of endpoints) {
    if (facts.methodTags.get(OPENAPI_HIDDEN) || facts.classTags.get(OPENAPI_HIDDEN)) continue;
    const { resourceClass, methodName, httpMethod } = facts.info;
    let operationId = `${resourceClass.name}_${methodName}`;
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${resourceClass.name}_${methodName}_${n}`;
    operationIds.add(operationId);
    const { path, operation } = describeOperation(facts, operationId, schemes, used);
    addOperation((paths[relative(path, root)] ??= {}), httpMethod, operation);
  }
  const shared = components(used, schemes);
  return {
    openapi: '3.2.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: root || '/' }],
    paths,
    ...(shared ? { components: shared } : {}),
  };
}
