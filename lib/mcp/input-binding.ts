/**
 * A method's input as the REST side binds a request body: a zod schema checks it (given on the decorator, or as the
 * `static schema` of the parameter's class), and a class parameter gets an instance through the JSON mapper. The
 * schema is also what `tools/list` shows, as JSON Schema 2020-12 with `$schema`, `$defs` and `additionalProperties`
 * as zod writes them.
 */
import type { z, ZodType } from 'zod';
import type { JsonMapper } from '../json/json-mapper';
import { isUnknownDesignType } from '../convert/convert';
import { classSchema } from '../json/bind-class';
import { jsonSchemaOf } from '../openapi/type-schema';

export type JsonSchema = Readonly<Record<string, unknown>>;

/** One thing wrong with an input: where (a dotted path) and what. */
export interface InputViolation {
  readonly field: string;
  readonly message: string;
}

export type Bound =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly violations: readonly InputViolation[] };

export interface InputBinding {
  /** The JSON Schema of the input, `undefined` when the method declares none. */
  readonly schema: JsonSchema | undefined;
  /** The zod schema checking it, when there is one (a prompt lists its arguments from it). */
  readonly zod: ZodType | undefined;
  bind(value: unknown): Bound;
}

function violationsOf(error: z.ZodError): InputViolation[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
}

/** A class (not a JSON value or an unknown type) an input is bound into. */
function bindingClass(type: unknown): Function | undefined {
  return typeof type === 'function' && !isUnknownDesignType(type) && type !== String && type !== Number
    ? (type as Function)
    : undefined;
}

/**
 * How the input of a method is checked and bound: by `declared`, else by the `static schema` of `type`; into an
 * instance of `type` when it is a class; as the plain value when nothing types it.
 */
export function inputBinding(declared: ZodType | undefined, type: unknown, json: JsonMapper): InputBinding {
  const target = bindingClass(type);
  const schema = declared ?? classSchema(type);
  const intoClass = (value: unknown): Bound => {
    if (!target) return { ok: true, value };
    try {
      return { ok: true, value: json.readValue(JSON.stringify(value), target) };
    } catch (error) {
      return { ok: false, violations: [{ field: '', message: error instanceof Error ? error.message : 'invalid' }] };
    }
  };
  if (!schema) return { schema: undefined, zod: undefined, bind: intoClass };
  return {
    schema: jsonSchemaOf(schema),
    zod: schema,
    bind(value) {
      const result = schema.safeParse(value);
      return result.success ? intoClass(result.data) : { ok: false, violations: violationsOf(result.error) };
    },
  };
}

/** The violations as one sentence, for an error result the model reads. */
export function describeViolations(violations: readonly InputViolation[]): string {
  return violations.map((v) => (v.field ? `${v.field}: ${v.message}` : v.message)).join('; ');
}
