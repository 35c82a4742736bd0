/** Compiles each endpoint parameter into a function that reads its value from the request. */
import type { ZodType } from 'zod';
import { DEFAULT_VALUE, PARAM_OPTIONS, type ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import type { Violation } from '../errors/problem-details';
import type { ParamKind, ParamMeta } from '../metadata/store';
import type { RequestContext } from '../pipeline/request-context';
import { parseCookieHeader } from '../http/cookies';
import { ConversionError, resolveType, type ResolvedType } from './convert';
import { contextResolver } from './context-types';
import { compileBodyReader, readForm, type BodySettings } from './read-body-argument';

/** Reads one argument; async only for body and form values. */
export type ArgumentReader = (ctx: RequestContext) => unknown;

export interface ArgumentSpec {
  readonly meta: ParamMeta;
  readonly name: string | undefined;
  readonly designType: unknown;
  readonly settings: BodySettings;
}

/** A problem found while compiling a parameter; the build step adds class and method. */
export class ParameterDefinitionError extends Error {}

/** Path, query and matrix values that do not convert mean "no such resource" (404); the rest are bad requests (400). */
const notFoundKinds = new Set<ParamKind>(['path', 'query', 'matrix']);

export function compileArgument(spec: ArgumentSpec): ArgumentReader {
  const { meta, name, designType } = spec;
  const options: ParamOptions = meta.tags.get(PARAM_OPTIONS) ?? {};
  switch (meta.kind) {
    case 'context': {
      const resolve = contextResolver(options.type ?? designType);
      if (!resolve) throw new ParameterDefinitionError(`no context object of type ${describe(options.type ?? designType)} can be injected`);
      return resolve;
    }
    case 'body':
      return compileBodyReader(designType, options, spec.settings);
    case 'bean':
      throw new ParameterDefinitionError('@BeanParam is not supported yet');
    default: {
      if (!name) throw new ParameterDefinitionError(`the ${meta.kind} parameter has no name: give one to the decorator, or compile with parameter names kept`);
      return compileValueReader(meta.kind, name, options, designType, meta.tags.get(DEFAULT_VALUE), spec.settings);
    }
  }
}

function describe(type: unknown): string {
  return typeof type === 'function' ? type.name : String(type);
}

type RawReader = (ctx: RequestContext) => readonly string[] | undefined | Promise<readonly string[] | undefined>;

function rawReader(kind: ParamKind, name: string, settings: BodySettings): RawReader {
  switch (kind) {
    case 'path':
      return (ctx) => (name in ctx.pathParams ? [ctx.pathParams[name]] : undefined);
    case 'query':
      return (ctx) => {
        const values = ctx.query.getAll(name);
        return values.length ? values : undefined;
      };
    case 'header': {
      const lower = name.toLowerCase();
      return (ctx) => {
        const value = ctx.headers.get(lower);
        return value === null ? undefined : [value];
      };
    }
    case 'cookie':
      return (ctx) => {
        const value = parseCookieHeader(ctx.headers.get('cookie')).get(name);
        return value === undefined ? undefined : [value];
      };
    case 'matrix':
      return (ctx) => ctx.matrix.get(name);
    case 'form':
      return async (ctx) => {
        const values = (await readForm(ctx, settings)).getAll(name);
        return values.length ? values : undefined;
      };
    default:
      throw new ParameterDefinitionError(`unsupported parameter kind ${kind}`);
  }
}

function compileValueReader(kind: ParamKind, name: string, options: ParamOptions, designType: unknown, defaultValue: string | undefined, settings: BodySettings): ArgumentReader {
  const raw = rawReader(kind, name, settings);
  const convert = options.schema ? schemaConverter(options.schema, kind, name) : typeConverter(resolveType(options.type, designType), kind, name, designType);
  const defaults = defaultValue === undefined ? undefined : [defaultValue];
  return (ctx) => {
    const values = raw(ctx);
    if (values instanceof Promise) return values.then((v) => convert(v ?? defaults));
    return convert(values ?? defaults);
  };
}

function failure(kind: ParamKind, name: string, message: string, cause?: unknown): Error {
  const code = notFoundKinds.has(kind) ? 'RXREST_PARAMETER_NOT_FOUND' : 'RXREST_INVALID_PARAMETER';
  return httpProblem(code, `Invalid ${kind} parameter "${name}": ${message}`, { cause });
}

function typeConverter(type: ResolvedType | undefined, kind: ParamKind, name: string, designType: unknown): (values: readonly string[] | undefined) => unknown {
  if (!type) throw new ParameterDefinitionError(`the type ${describe(designType)} of ${kind} parameter "${name}" cannot be converted from a string: give it a one-string constructor, a static valueOf or fromString, or a { type } / { schema } option`);
  const { convert, collection } = type;
  const one = (raw: string) => {
    try {
      return convert(raw);
    } catch (error) {
      if (error instanceof ConversionError) throw failure(kind, name, error.message, error);
      throw error;
    }
  };
  if (collection === 'array') return (values) => (values ?? []).map(one);
  if (collection === 'set') return (values) => new Set((values ?? []).map(one));
  return (values) => (values === undefined ? undefined : one(values[0]));
}

function schemaConverter(schema: ZodType, kind: ParamKind, name: string): (values: readonly string[] | undefined) => unknown {
  return (values) => {
    const input = values === undefined ? undefined : values.length === 1 ? values[0] : values;
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    const violations: Violation[] = result.error.issues.map((issue) => ({
      in: kind,
      field: [name, ...issue.path.map(String)].join('.'),
      message: issue.message,
    }));
    throw httpProblem('RXREST_VALIDATION_FAILED', `Invalid ${kind} parameter "${name}"`, { violations });
  };
}
