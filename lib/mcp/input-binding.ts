/** A method's input bound as the REST side binds a request body: checked by a zod schema, made a class instance. */
import type { z, ZodType } from 'zod';
import type { JsonMapper } from '../json/json-mapper';
import { isUnknownDesignType } from '../convert/convert';
import { classSchema } from '../json/bind-class';
import { jsonSchemaOf } from '../openapi/type-schema';

export type JsonSchema = Readonly<Record<string, unknown>>;

export interface InputViolation {
  /** A dotted path. */
  readonly field: string;
  readonly message: string;
}

export type Bound =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly violations: readonly InputViolation[] };

export interface InputBinding {
  readonly schema: JsonSchema | undefined;
  bind(value: unknown): Bound;
}

function violationsOf(error: z.ZodError): InputViolation[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
}

function bindingClass(type: unknown): Function | undefined {
  return typeof type === 'function' && !isUnknownDesignType(type) && type !== String && type !== Number
    ? (type as Function)
    : undefined;
}

/** Checked by `declared`, else by the `static schema` of `type`; bound into `type` when it is a class. */
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
  if (!schema) return { schema: undefined, bind: intoClass };
  return {
    schema: jsonSchemaOf(schema),
    bind(value) {
      const result = schema.safeParse(value);
      return result.success ? intoClass(result.data) : { ok: false, violations: violationsOf(result.error) };
    },
  };
}

/** One sentence, for an error result the model reads. */
export function describeViolations(violations: readonly InputViolation[]): string {
  return violations.map((v) => (v.field ? `${v.field}: ${v.message}` : v.message)).join('; ');
}
