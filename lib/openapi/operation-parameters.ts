/**
 * The parameters of an operation as a client sends them: `@BeanParam` classes expanded into their properties, each
 * parameter required exactly when the server refuses a request without it, matrix parameters named in the path.
 */
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

/** The decorated properties of a bean class and its superclasses (a subclass's declaration wins), as parameters. */
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

/**
 * Every parameter of a method, each `@BeanParam` replaced by its decorated properties (nested beans too): its
 * query, header, cookie, path and matrix values are parameters, its form fields part of the request body.
 */
export function expandBeans(facts: readonly ParamFact[], outer: readonly Function[] = []): ParamFact[] {
  return facts.flatMap((fact) => {
    if (fact.kind !== 'bean') return [fact];
    const type = fact.type;
    // A bean containing itself is a build error already; here it only must not loop.
    if (typeof type !== 'function' || outer.includes(type)) return [];
    return expandBeans(beanProperties(type), [...outer, type]);
  });
}

/** Whether a zod schema refuses a missing value, as it is given one when the parameter is absent. */
function refusesAbsent(schema: ZodType): boolean {
  try {
    return !schema.safeParse(undefined).success;
  } catch {
    // An asynchronous refinement cannot be run here: it is not known to refuse.
    return false;
  }
}

/** Whether the server answers 400 without the value: `{ required: true }`, or a schema refusing `undefined`. */
export function isRequired(fact: ParamFact): boolean {
  if (fact.required === true) return true;
  return fact.schema !== undefined && fact.defaultValue === undefined && refusesAbsent(fact.schema);
}

function withDefault(schema: JsonSchema, fact: ParamFact): JsonSchema {
  return fact.defaultValue === undefined
    ? schema
    : { ...schema, default: schema['type'] === 'number' ? Number(fact.defaultValue) : fact.defaultValue };
}

/** The schema of a parameter or form field's value, typed from its converter or zod schema. */
export function paramSchema(fact: ParamFact): JsonSchema {
  return withDefault(fact.schema ? zodSchema(fact.schema) : typeSchema(fact.type, { type: 'string' }), fact);
}

/** The suffix naming the matrix parameters in the path (OpenAPI names every path parameter there): `{variant}`. */
export function matrixSuffix(facts: readonly ParamFact[]): string {
  return facts
    .filter((fact) => fact.kind === 'matrix' && fact.name !== undefined)
    .map((fact) => `{${fact.name}}`)
    .join('');
}

/** The Parameter Objects of the expanded `facts`; `patterns` holds the regular expression of each template variable. */
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
