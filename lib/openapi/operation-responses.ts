/** An operation's responses: its success answer, its `@APIResponse`s, its exception mappers', the framework's own. */
import { z } from 'zod';
import { OPENAPI_RESPONSES, type APIResponseOptions } from '../decorators/openapi';
import { logging } from '../logging/logger';
import { baseType } from '../http/streaming-types';
import type { EndpointFacts } from './endpoint-facts';
import { content } from './media-content';
import { accessStatuses, type DocumentSchemes } from './security-requirements';
import { errorContent, isSharedError, sharedError, type UsedComponents } from './shared-components';
import { typeSchema, type JsonSchema } from './type-schema';

const log = logging.getLogger('rxrest.openapi');

// `return` followed on its line by a value; `return;`, a bare `return` and `return undefined/null/void 0` give none.
const RETURNS_VALUE = /\breturn\b[ \t]*(?![ \t;}\r\n]|$|(?:undefined|null|void 0)[ \t]*(?:[;}\r\n]|$))/m;

/**
 * A method whose metadata names no return type (metadata cannot tell `void` from none written) and whose code has no
 * `return` of a value can only answer nothing (docs/openapi.md says what this reading cannot see).
 */
function answersNothing(facts: EndpointFacts): boolean {
  if (facts.streams) return false;
  if (facts.returnType !== undefined && facts.returnType !== Promise) return false;
  const method = (facts.info.resourceClass.prototype as Record<string, unknown>)[facts.info.methodName];
  if (typeof method !== 'function') return false;
  return !RETURNS_VALUE.test(Function.prototype.toString.call(method));
}

const DESCRIPTIONS: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
};

/** A documented schema is of each item for a stream, and this method's metadata does not say whether it streams. */
function warnUntyped(facts: EndpointFacts): void {
  const where = `${facts.info.resourceClass.name}#${facts.info.methodName}`;
  log.warn(
    `${where}: its return type is not in the decorator metadata, so the document describes its @APIResponse schema as the whole body; ` +
      'if it answers a stream of items, import Multi as a value (import { Multi }, not import { type Multi }) or give it a streaming @Produces',
  );
}

function describe(status: number, given: string | undefined): string {
  return given ?? DESCRIPTIONS[status] ?? (status < 300 ? 'Success' : 'See the Location header');
}

/** A zod schema, or a class (with a static one), as the server writes it; anything else JavaScript hands in: any value. */
function documentedSchema(schema: unknown): JsonSchema {
  return schema instanceof z.ZodType || typeof schema === 'function' ? typeSchema(schema, {}, 'output') : {};
}

function ownContent(facts: EndpointFacts, documented: APIResponseOptions | undefined): JsonSchema {
  if (documented?.schema !== undefined && !facts.streams && facts.returnType === Object) warnUntyped(facts);
  const produces = documented?.mediaType
    ? [documented.mediaType]
    : facts.info.produces.length
      ? facts.info.produces
      : [defaultMediaType(facts.returnType)];
  const element =
    documented?.schema !== undefined ? documentedSchema(documented.schema) : typeSchema(facts.returnType, {}, 'output');
  return content(produces, element, facts.streams);
}

/** Without `@Produces`, as the writers do. */
function defaultMediaType(returned: unknown): string {
  if (returned === String) return 'text/plain';
  const bytes =
    returned === ArrayBuffer ||
    (typeof returned === 'function' && (returned === Uint8Array || returned.prototype instanceof Uint8Array));
  return bytes ? 'application/octet-stream' : 'application/json';
}

/** A body only with a schema, or with a `text/*` type (text). */
function otherContent(documented: APIResponseOptions): JsonSchema | undefined {
  const mediaType = documented.mediaType ?? 'application/json';
  if (documented.schema !== undefined) return { [mediaType]: { schema: documentedSchema(documented.schema) } };
  if (baseType(mediaType).startsWith('text/')) return { [mediaType]: { schema: { type: 'string' } } };
  return undefined;
}

function answer(description: string, body: JsonSchema | undefined): JsonSchema {
  return body === undefined ? { description } : { description, content: body };
}

/**
 * `@ResponseStatus`, else the statuses below 400 the method documents when it documents no answer of its own (a
 * method building a 202 `RestResponse` says so), else 200 — or 204 for a method whose code never returns a value.
 */
function successAnswers(facts: EndpointFacts, documented: readonly APIResponseOptions[]): JsonSchema {
  const own = documented.find((response) => response.status === undefined);
  const declared = documented.filter((response) => response.status !== undefined && response.status < 400);
  if (facts.status === undefined && own === undefined && declared.length > 0) {
    return Object.fromEntries(
      declared.map((response) => {
        const bodyless = response.status === 204 || response.status === 304 || answersNothing(facts);
        const body = bodyless || response.schema === undefined ? undefined : ownContent(facts, response);
        return [response.status, answer(describe(response.status!, response.description), body)];
      }),
    );
  }
  const nothing = answersNothing(facts);
  const status = facts.status ?? (nothing ? 204 : 200);
  const mine = own ?? documented.find((response) => response.status === status);
  const bodyless = nothing || status === 204 || status === 304 || (status >= 300 && mine?.schema === undefined);
  return { [status]: answer(describe(status, mine?.description), bodyless ? undefined : ownContent(facts, mine)) };
}

/** At a status the framework answers too (400, 404...), its problem details can still come, so they stay listed. */
function documentedAnswer(response: APIResponseOptions, used: UsedComponents): JsonSchema {
  const status = String(response.status);
  const body = otherContent(response);
  if (response.status! < 400 || !isSharedError(status)) return answer(response.description ?? '', body);
  used.problem = true;
  const description = response.description ?? (sharedError(status)['description'] as string);
  return answer(description, { ...errorContent(), ...body });
}

/** The shared answers it refers to are recorded in `context.used`. */
export function operationResponses(
  facts: EndpointFacts,
  context: { readsBody: boolean; schemes: DocumentSchemes; used: UsedComponents },
): JsonSchema {
  const documented = facts.methodTags.get(OPENAPI_RESPONSES) ?? [];
  const result: JsonSchema = successAnswers(facts, documented);
  for (const response of documented)
    if (response.status !== undefined) result[response.status] ??= documentedAnswer(response, context.used);
  // A method naming @Consumes refuses another Content-Type whether it reads a body or not.
  const bodyErrors = context.readsBody ? ['413', '415'] : facts.info.consumes.length > 0 ? ['415'] : [];
  const access = accessStatuses(facts.access, context.schemes);
  for (const status of ['400', '404', '406', ...bodyErrors, ...access, ...(facts.answers ?? []).map(String), '500'])
    result[status] ??= { $ref: `#/components/responses/${status}` };
  // A mapper's answer takes the place of the shared one; the method's own word, or a nearer mapper's, stands.
  for (const mapped of facts.errorAnswers ?? []) {
    const existing = mapped.status === undefined ? undefined : (result[mapped.status] as JsonSchema | undefined);
    if (mapped.status === undefined || (existing !== undefined && !('$ref' in existing))) continue;
    result[mapped.status] = documentedAnswer(mapped, context.used);
  }
  for (const value of Object.values(result)) {
    const ref = (value as { $ref?: string }).$ref;
    if (ref) context.used.responses.add(ref.slice(ref.lastIndexOf('/') + 1));
  }
  return result;
}
