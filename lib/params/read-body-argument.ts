/** Reads the request body into the endpoint's body parameter, by its declared type. */
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import type { Violation } from '../errors/problem-details';
import { parseJsonBody } from '../body/json';
import { readBodyBytes, readBodyText } from '../body/read-body';
import type { RequestContext } from '../pipeline/request-context';
import { ConversionError, isUnknownDesignType, resolveType } from './convert';

export interface BodySettings {
  /** `framework.http.limits.max-body-size`, in bytes. */
  readonly maxBodySize: number;
}

type BodyReader = (ctx: RequestContext) => Promise<unknown>;

const FORM = 'rxrest.form';

/** The URL-encoded form of the request, read once per request. */
export async function readForm(ctx: RequestContext, settings: BodySettings): Promise<URLSearchParams> {
  const cached = ctx.getProperty<URLSearchParams>(FORM);
  if (cached) return cached;
  const type = ctx.headers.get('content-type') ?? '';
  const form = type.toLowerCase().startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(await readBodyText(ctx.request, settings.maxBodySize))
    : new URLSearchParams();
  ctx.setProperty(FORM, form);
  return form;
}

function missing(): Error {
  return httpProblem('RXREST_MISSING_BODY', 'A request body is required');
}

function validate(schema: ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const violations: Violation[] = result.error.issues.map((issue) => ({ in: 'body', field: issue.path.map(String).join('.'), message: issue.message }));
  throw httpProblem('RXREST_VALIDATION_FAILED', 'The request body is invalid', { violations });
}

/** The zod schema declared by a class as `static schema`. */
export function classSchema(type: unknown): ZodType | undefined {
  const schema = typeof type === 'function' ? (type as { schema?: unknown }).schema : undefined;
  return typeof (schema as ZodType | undefined)?.safeParse === 'function' ? (schema as ZodType) : undefined;
}

function jsonReader(type: unknown, options: ParamOptions, settings: BodySettings, required: boolean): BodyReader {
  const schema = options.schema ?? classSchema(type);
  const Target = !isUnknownDesignType(type) ? (type as new () => object) : undefined;
  return async (ctx) => {
    const text = await readBodyText(ctx.request, settings.maxBodySize);
    if (text.trim() === '') {
      if (required) throw missing();
      return undefined;
    }
    let value = parseJsonBody(text);
    if (schema) value = validate(schema, value);
    if (Target && typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.assign(new Target(), value);
    return value;
  };
}

/** Compiles the reader of a body parameter from its declared (or hinted) type. */
export function compileBodyReader(designType: unknown, options: ParamOptions, settings: BodySettings): BodyReader {
  const type = typeof options.type === 'function' ? options.type : designType;
  const required = options.required ?? true;
  const limit = settings.maxBodySize;
  if (type === String) {
    return async (ctx) => {
      const text = await readBodyText(ctx.request, limit);
      if (text === '' && required && !ctx.request.body) throw missing();
      return options.schema ? validate(options.schema, text) : text;
    };
  }
  if (type === Uint8Array || type === Buffer) {
    return async (ctx) => {
      const bytes = await readBodyBytes(ctx.request, limit);
      return type === Buffer ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes;
    };
  }
  if (type === ReadableStream) return async (ctx) => ctx.request.body ?? new ReadableStream({ start: (c) => c.close() });
  if (type === Number || type === Boolean || type === BigInt) {
    const convert = resolveType(undefined, type)!.convert;
    return async (ctx) => {
      const text = (await readBodyText(ctx.request, limit)).trim();
      if (text === '') {
        if (required) throw missing();
        return undefined;
      }
      try {
        return convert(text);
      } catch (error) {
        if (error instanceof ConversionError) throw httpProblem('RXREST_MALFORMED_BODY', `The request body is invalid: ${error.message}`);
        throw error;
      }
    };
  }
  return jsonReader(type, options, settings, required);
}
