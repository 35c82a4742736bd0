/** The request body of an operation: a body parameter's schema per `@Consumes`, or the form its fields make up. */
import { isJsonText } from '../http/media-type';
import { classSchema } from '../json/bind-class';
import { baseType } from '../http/streaming-types';
import type { ParamFact } from './endpoint-facts';
import { content } from './media-content';
import { isRequired, paramSchema } from './operation-parameters';
import { typeSchema, zodSchema, type JsonSchema } from './type-schema';

const FILE_TYPES = new Set(['FileUpload', 'LocalFile', 'Blob', 'Uint8Array', 'Buffer']);
const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

function isFile(type: unknown): boolean {
  const named = Array.isArray(type) ? type[0] : type;
  return typeof named === 'function' && FILE_TYPES.has(named.name);
}

/** A file part as binary, a JSON part by its class's schema (an object at least), else its value. */
function fieldSchema(fact: ParamFact): JsonSchema {
  if (isFile(fact.type)) return { type: 'string', contentMediaType: 'application/octet-stream' };
  if (fact.partType === undefined || !isJsonText(fact.partType) || fact.schema) return paramSchema(fact);
  const schema = classSchema(fact.type);
  if (schema) return zodSchema(schema);
  const known = typeSchema(fact.type);
  return Object.keys(known).length ? known : { type: 'object' };
}

function formBody(fields: readonly ParamFact[], types: readonly string[], mustSend: boolean): JsonSchema {
  const properties = Object.fromEntries(fields.map((fact) => [fact.name!, fieldSchema(fact)]));
  const required = fields.filter(isRequired).map((fact) => fact.name!);
  const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  const parts = fields.filter((fact) => fact.partType !== undefined);
  const encoding = Object.fromEntries(parts.map((fact) => [fact.name!, { contentType: fact.partType }]));
  return {
    required: mustSend || required.length > 0,
    content: Object.fromEntries(
      types.map((type) => [type, { schema, ...(parts.length && FORM_TYPES.has(baseType(type)) ? { encoding } : {}) }]),
    ),
  };
}

/** Required when the server refuses a request without it; a `@Consumes` does (no body, no Content-Type: 415). */
export function requestBody(facts: readonly ParamFact[], consumes: readonly string[]): JsonSchema | undefined {
  const body = facts.find((fact) => fact.kind === 'body');
  const form = facts.filter((fact) => fact.kind === 'form' && fact.name !== undefined);
  const namesTypes = consumes.length > 0 && !consumes.some((type) => baseType(type) === '*/*');
  if (body) {
    const schema = body.schema ? zodSchema(body.schema) : typeSchema(body.type);
    const types = consumes.length ? consumes : ['application/json'];
    const required = namesTypes || body.required !== false;
    // A body of items is described item by item, as streamed answers are.
    if (body.stream) return { required, content: content(types, schema, true) };
    return { required, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
  }
  if (!form.length) return undefined;
  return formBody(form, consumes.length ? consumes : ['application/x-www-form-urlencoded'], namesTypes);
}
