/** Assembles the OpenAPI 3.2 document of an application from the facts the build step gathered, once. */
import {
  OPENAPI_HIDDEN,
  OPENAPI_OPERATION,
  OPENAPI_RESPONSES,
  OPENAPI_TAGS,
  type APIResponseOptions,
} from '../decorators/openapi';
import { logging } from '../logging/logger';
import { findClassMeta } from '../metadata/store';
import { readDesignType } from '../metadata/reflect-shim';
import { baseType } from '../streaming/framing';
import { z, type ZodType } from 'zod';
import type { EndpointFacts, ParamFact } from './endpoint-facts';
import { classSchema, typeSchema, zodSchema, type JsonSchema } from './type-schema';

const log = logging.getLogger('rxrest.openapi');

/** `info` of the document. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

// Matrix parameters are path parameters of style `matrix` (`;name=value`), placed after the last segment.
const WIRE_KINDS: Record<string, 'path' | 'query' | 'header' | 'cookie'> = {
  path: 'path',
  query: 'query',
  header: 'header',
  cookie: 'cookie',
  matrix: 'path',
};
const LINE_TYPES = new Set([
  'application/x-ndjson',
  'application/jsonl',
  'application/stream+json',
  'application/json-seq',
]);
const FILE_TYPES = new Set(['FileUpload', 'LocalFile', 'Blob', 'Uint8Array', 'Buffer']);
const PROBLEM = { $ref: '#/components/schemas/Problem' };

/** The framework's own error answers, shared by every operation that can give them. */
const ERROR_RESPONSES: Record<string, string> = {
  '400': 'A parameter or the body is invalid (problem details list each violation)',
  '404': 'No such resource, or a path or query parameter that does not convert',
  '405': 'The path exists, but not for this method (the Allow header lists those it has)',
  '406': 'None of the Accept types can be produced',
  '413': 'The body or one of its parts is larger than its limit',
  '415': 'The Content-Type is not one the endpoint consumes',
};

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

function withDefault(schema: JsonSchema, fact: ParamFact): JsonSchema {
  return fact.defaultValue === undefined
    ? schema
    : { ...schema, default: schema['type'] === 'number' ? Number(fact.defaultValue) : fact.defaultValue };
}

function paramSchema(fact: ParamFact): JsonSchema {
  return withDefault(fact.schema ? zodSchema(fact.schema) : typeSchema(fact.type, { type: 'string' }), fact);
}

/** A `@BeanParam`'s decorated properties as parameters of their own. */
function expandBean(fact: ParamFact): ParamFact[] {
  const type = fact.type;
  if (typeof type !== 'function') return [];
  const meta = findClassMeta(type);
  return [...(meta?.properties.values() ?? [])].flatMap((property) =>
    property.params.map((param) => ({
      kind: param.kind,
      name: param.name ?? property.name,
      type: readDesignType('design:type', type.prototype as object, property.name),
      schema: undefined,
      required: undefined,
      defaultValue: undefined,
    })),
  );
}

function parameters(facts: readonly ParamFact[], patterns: Map<string, string>): JsonSchema[] {
  return facts
    .flatMap((fact) => (fact.kind === 'bean' ? expandBean(fact) : [fact]))
    .flatMap((fact) => {
      const where = WIRE_KINDS[fact.kind];
      if (!where || fact.name === undefined) return [];
      const schema = paramSchema(fact);
      const pattern = where === 'path' ? patterns.get(fact.name) : undefined;
      const style = fact.kind === 'matrix' ? { style: 'matrix' } : {};
      return [
        {
          name: fact.name,
          in: where,
          ...style,
          required: where === 'path' || fact.required === true,
          schema: pattern ? { ...schema, pattern } : schema,
        },
      ];
    });
}

function isFile(type: unknown): boolean {
  const named = Array.isArray(type) ? type[0] : type;
  return typeof named === 'function' && FILE_TYPES.has(named.name);
}

function requestBody(facts: readonly ParamFact[], consumes: readonly string[]): JsonSchema | undefined {
  const body = facts.find((fact) => fact.kind === 'body');
  const form = facts.filter((fact) => fact.kind === 'form' && fact.name !== undefined);
  if (body) {
    const schema = body.schema
      ? zodSchema(body.schema)
      : body.stream && body.type === undefined
        ? {}
        : typeSchema(body.type);
    const types = consumes.length ? consumes : ['application/json'];
    // A body of items is described item by item, as streamed answers are.
    if (body.stream) return { required: body.required !== false, content: content(types, schema, true) };
    return { required: body.required !== false, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
  }
  if (!form.length) return undefined;
  const properties = Object.fromEntries(
    form.map((fact) => [
      fact.name!,
      isFile(fact.type) ? { type: 'string', contentMediaType: 'application/octet-stream' } : paramSchema(fact),
    ]),
  );
  const types = consumes.length ? consumes : ['application/x-www-form-urlencoded'];
  return { content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'object', properties } }])) };
}

/** What a response carries: a zod schema, or a class's `static schema`, as the server writes it (`io: 'output'`). */
function schemaOf(schema: APIResponseOptions['schema'] | unknown): JsonSchema {
  const zod = typeof schema === 'function' ? classSchema(schema) : (schema as ZodType | undefined);
  if (zod instanceof z.ZodType) return zodSchema(zod, 'output');
  return typeof schema === 'function' ? typeSchema(schema) : {};
}

/** The body of each produced type: the element schema as a value, or item by item for a stream. */
function content(produces: readonly string[], element: JsonSchema, streams: boolean): JsonSchema {
  return Object.fromEntries(
    produces.map((mediaType) => {
      const base = baseType(mediaType);
      if (!streams) return [mediaType, { schema: element }];
      if (base === 'text/event-stream') {
        const data = { type: 'string', contentMediaType: 'application/json', contentSchema: element };
        return [
          mediaType,
          {
            itemSchema: {
              type: 'object',
              properties: {
                data,
                event: { type: 'string' },
                id: { type: 'string' },
                retry: { type: 'integer', minimum: 0 },
              },
            },
          },
        ];
      }
      if (LINE_TYPES.has(base)) return [mediaType, { itemSchema: element }];
      if (base === 'application/json' || base.endsWith('+json'))
        return [mediaType, { schema: { type: 'array', items: element } }];
      return [mediaType, { schema: element }];
    }),
  );
}

/**
 * A documented schema is of each item for a stream and of the whole body otherwise, and the metadata of this method
 * does not say which it answers (`Object`: an interface, an async iterable, or `Multi` imported with `import type`).
 */
function warnUntyped(facts: EndpointFacts): void {
  const where = `${facts.info.resourceClass.name}#${facts.info.methodName}`;
  log.warn(
    `${where}: its return type is not in the decorator metadata, so the document describes its @APIResponse schema as the whole body; ` +
      'if it answers a stream of items, import Multi as a value (import { Multi }, not import { type Multi }) or give it a streaming @Produces',
  );
}

function responses(facts: EndpointFacts, readsBody: boolean): JsonSchema {
  const documented = facts.methodTags.get(OPENAPI_RESPONSES) ?? [];
  const status = facts.status ?? 200;
  const own = documented.find((response) => response.status === undefined || response.status === status);
  if (own?.schema !== undefined && !facts.streams && facts.returnType === Object) warnUntyped(facts);
  const element = schemaOf(own?.schema ?? (classSchema(facts.returnType) ? facts.returnType : undefined));
  const produces = facts.info.produces.length
    ? facts.info.produces
    : [facts.returnType === String ? 'text/plain' : 'application/json'];
  const result: JsonSchema = {
    [status]:
      status === 204
        ? { description: own?.description ?? 'No content' }
        : { description: own?.description ?? 'OK', content: content(produces, element, facts.streams) },
  };
  for (const response of documented) {
    if (response === own || response.status === undefined) continue;
    result[response.status] = {
      description: response.description ?? '',
      ...(response.schema === undefined
        ? {}
        : { content: { 'application/json': { schema: schemaOf(response.schema) } } }),
    };
  }
  const errors = ['400', '404', '406', ...(readsBody ? ['413', '415'] : [])];
  for (const code of errors) result[code] ??= { $ref: `#/components/responses/${code}` };
  return result;
}

/** `/api/fruits` under the root `/api` is `/fruits` (the root is the server's URL). */
function relative(path: string, root: string): string {
  const prefix = root.replace(/\/+$/, '');
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path;
}

/**
 * The OpenAPI 3.2.0 document of `endpoints`: every operation with its parameters (typed from their
 * converters), request body (from zod schemas), responses (streams described item by item with
 * `itemSchema`), and the framework's error answers as shared problem-details responses.
 */
export function openApiDocument(endpoints: readonly EndpointFacts[], info: OpenApiInfo, root: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const operationIds = new Set<string>();
  for (const facts of endpoints) {
    if (facts.methodTags.get(OPENAPI_HIDDEN) || facts.classTags.get(OPENAPI_HIDDEN)) continue;
    const { path: template, patterns } = splitTemplate(facts.template);
    // OpenAPI names every path parameter in the path: a matrix one as `{name}` after the last segment.
    const matrix = facts.params
      .filter((fact) => fact.kind === 'matrix' && fact.name !== undefined)
      .map((fact) => `{${fact.name}}`);
    const path = template + matrix.join('');
    const className = facts.info.resourceClass.name;
    let operationId = `${className}_${facts.info.methodName}`;
    for (let n = 2; operationIds.has(operationId); n++) operationId = `${className}_${facts.info.methodName}_${n}`;
    operationIds.add(operationId);
    const operation = facts.methodTags.get(OPENAPI_OPERATION);
    const body = requestBody(facts.params, facts.info.consumes);
    const params = parameters(facts.params, patterns);
    (paths[relative(path, root)] ??= {})[facts.info.httpMethod.toLowerCase()] = {
      operationId,
      tags: facts.methodTags.get(OPENAPI_TAGS) ?? facts.classTags.get(OPENAPI_TAGS) ?? [className],
      ...(operation?.summary ? { summary: operation.summary } : {}),
      ...(operation?.description ? { description: operation.description } : {}),
      ...(params.length ? { parameters: params } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: responses(facts, body !== undefined),
    };
  }
  const problem = { description: '', content: { 'application/problem+json': { schema: PROBLEM } } };
  return {
    openapi: '3.2.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: root || '/' }],
    paths,
    components: {
      schemas: {
        Problem: {
          type: 'object',
          description: 'RFC 9457 problem details, with the stable error code',
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            violations: {
              type: 'array',
              items: {
                type: 'object',
                properties: { in: { type: 'string' }, field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([code, description]) => [code, { ...problem, description }]),
      ),
    },
  };
}
