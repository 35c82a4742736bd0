/** JSON Schemas (draft 2020-12, as OpenAPI 3.1+ uses them) for the types parameters, bodies and results are declared with. */
import { z, type ZodType } from 'zod';
import { enumMembers, isEnumLike } from '../convert/convert';
import { classSchema } from '../json/bind-class';

export type JsonSchema = Record<string, unknown>;

/** zod's own conversion, kept whole: what a client may send (`io: 'input'`); dates, which JSON cannot hold, as date-time strings. */
export function jsonSchemaOf(schema: ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  return z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: (context) => {
      if (context.zodSchema._zod.def.type === 'date')
        Object.assign(context.jsonSchema, { type: 'string', format: 'date-time' });
    },
  }) as JsonSchema;
}

/** {@link jsonSchemaOf} within an OpenAPI document, which says once which JSON Schema dialect it uses. */
export function zodSchema(schema: ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const converted = jsonSchemaOf(schema, io);
  delete converted['$schema'];
  return converted;
}

/**
 * An unknown type (no metadata, `Object`) is any value, or `fallback` (parameters read as strings); what a response
 * carries is described as the server writes it (`io: 'output'`).
 */
export function typeSchema(type: unknown, fallback: JsonSchema = {}, io: 'input' | 'output' = 'input'): JsonSchema {
  if (type instanceof z.ZodType) return zodSchema(type, io);
  if (Array.isArray(type)) return { type: 'array', items: typeSchema(type[0], fallback) };
  if (type === Array) return { type: 'array', items: fallback };
  if (type === Number) return { type: 'number' };
  if (type === String) return { type: 'string' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === BigInt) return { type: 'integer', format: 'int64' };
  if (type === Date) return { type: 'string', format: 'date-time' };
  if (isEnumLike(type)) return { enum: [...new Set(enumMembers(type).map(([, value]) => value))] };
  const schema = classSchema(type);
  return schema ? zodSchema(schema, io) : fallback;
}
