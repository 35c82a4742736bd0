/** An operation's parameters as a client sends them, each required exactly when the server refuses it missing. */
import type { ZodType } from 'zod';
import { PART_TYPE } from '../decorators/multipart';
import { DEFAULT_VALUE, PARAM_OPTIONS } from '../decorators/params';
import { readDesignType } from '../metadata/reflect-shim';
import { decoratedProperties } from '../metadata/store';
import type { ParamFact } from './endpoint-facts';
import { typeSchema, zodSchema, type JsonSchema } from './type-schema';

// Matrix parameters are path parameters of style `matrix` (`;name=value`), placed after the last segment.
const WIRE_KINDS: Readonly<Record<string, 'path' | 'query' | 'header' | 'cookie'>> = {
  path: 'path',
  query: 'query',
  header: 'header',
  cookie: 'cookie',
  matrix: 'path',
};

function beanProperties(type: Function): ParamFact[] {
  return decoratedProperties(type).map(({ name, meta, tags }) => {
    const options = meta.tags.get(PARAM_OPTIONS) ?? tags.get(PARAM_OPTIONS);
    return {
      kind: meta.kind,
      name: meta.name ?? name,
      type: options?.type ?? readDesignType('design:type', type.prototype as object, name),
      schema: options?.schema,
      required: options?.required,
      defaultValue: meta.tags.get(DEFAULT_VALUE) ?? tags.get(DEFAULT_VALUE),
      partType: meta.tags.get(PART_TYPE) ?? tags.get(PART_TYPE),
    };
  });
}

/** Every parameter of a method, each `@BeanParam` replaced by its decorated properties (nested beans too). */
export function expandBeans(facts: readonly ParamFact[], outer: readonly Function[] = []): ParamFact[] {
  return facts.flatMap((fact) => {
    if (fact.kind !== 'bean') return [fact];
    const type = fact.type;
    // A bean containing itself is a build error already; here it only must not loop.
    if (typeof type !== 'function' || outer.includes(type)) return [];
    return expandBeans(beanProperties(type), [...outer, type]);
  });
}

function refusesAbsent(schema: ZodType): boolean {
  try {
    return !schema.safeParse(undefined).success;
  } catch {
    // An asynchronous refinement cannot be run here: it is not known to refuse.
    return false;
  }
}

export function isRequired(fact: ParamFact): boolean {
  if (fact.required === true) return true;
  return fact.schema !== undefined && fact.defaultValue === undefined && refusesAbsent(fact.schema);
}

export function paramSchema(fact: ParamFact): JsonSchema {
  const schema = fact.schema ? zodSchema(fact.schema) : typeSchema(fact.type, { type: 'string' });
  if (fact.defaultValue === undefined) return schema;
  return { ...schema, default: schema['type'] === 'number' ? Number(fact.defaultValue) : fact.defaultValue };
}

/** OpenAPI names every path parameter in the path, matrix ones too: `{variant}`. */
export function matrixSuffix(facts: readonly ParamFact[]): string {
  return facts
    .filter((fact) => fact.kind === 'matrix' && fact.name !== undefined)
    .map((fact) => `{${fact.name}}`)
    .join('');
}

/** `patterns` holds the regular expression of each template variable. */
export function operationParameters(facts: readonly ParamFact[], patterns: ReadonlyMap<string, string>): JsonSchema[] {
  return facts.flatMap((fact) => {
    const where = WIRE_KINDS[fact.kind];
    if (!where || fact.name === undefined) return [];
    const schema = paramSchema(fact);
    const pattern = where === 'path' ? patterns.get(fact.name) : undefined;
    return [
      {
        name: fact.name,
        in: where,
        ...(fact.kind === 'matrix' ? { style: 'matrix' } : {}),
        required: where === 'path' || isRequired(fact),
        schema: pattern ? { ...schema, pattern } : schema,
      },
    ];
  });
}
