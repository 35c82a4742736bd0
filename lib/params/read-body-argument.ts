/** The endpoint's body parameter: read by a user reader, else the built-in reader of its type. */
import type { ZodType } from 'zod';
import type { ParamOptions } from '../decorators/params';
import { httpProblem } from '../errors/http-problem';
import type { Violation } from '../errors/problem-details';
import { bodyAbsent, readRequestBytes, readRequestText, requestBodyStream } from '../body/read-body';
import {
  isJsonMediaTypeText,
  localFileReader,
  rawBodyReader,
  unsupported,
  type BuiltinReader,
} from '../body/builtin-readers';
import { LocalFile } from '../body/local-file-body';
import { classSchema, jsonCreator } from '../json/bind-class';
import { isJsonTypeToken } from '../json/json-values';
import type { RequestContext } from '../context/request-context';
import { IOException, type EntityInput, type ReaderInterceptorContext } from '../body/message-body';
import type { BodyProviders } from '../providers/body-providers';
import type { BodySettings } from '../multipart/body-settings';
import { ConversionError, describeType, isUnknownDesignType, resolveType } from '../convert/convert';

export type { BodySettings } from '../multipart/body-settings';
export { classSchema } from '../json/bind-class';

type BodyReader = (ctx: RequestContext) => Promise<unknown>;

function missing(): Error {
  return httpProblem('RXREST_MISSING_BODY', 'A request body is required');
}

/** `value` as `schema` makes it, or a 400 problem saying `detail` with one violation per issue. */
export function validate(
  schema: ZodType,
  value: unknown,
  detail = 'The request body is invalid',
  where: { readonly in: string; readonly prefix?: string } = { in: 'body' },
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const violations: Violation[] = result.error.issues.map(({ path, message }) => ({
    in: where.in,
    field: (where.prefix === undefined ? path.map(String) : [where.prefix, ...path.map(String)]).join('.'),
    message,
  }));
  throw httpProblem('RXREST_VALIDATION_FAILED', detail, { violations });
}

export function entityInput(ctx: RequestContext, limit: number): EntityInput {
  return {
    bytes: () => readRequestBytes(ctx, limit),
    text: () => readRequestText(ctx, limit),
    stream: () => requestBodyStream(ctx, limit),
  };
}

function textReader(options: ParamOptions, required: boolean): BuiltinReader {
  return {
    accepts: () => true,
    read: async ({ input, ctx }) => {
      const text = await input.text();
      if (text === '' && required && bodyAbsent(ctx)) throw missing();
      return options.schema ? validate(options.schema, text) : text;
    },
  };
}

function primitiveReader(type: Function, required: boolean): BuiltinReader {
  const convert = resolveType(undefined, type)!.convert;
  return {
    accepts: () => true,
    read: async ({ input }) => {
      const text = (await input.text()).trim();
      if (text === '') {
        if (required) throw missing();
        return undefined;
      }
      try {
        return convert(text);
      } catch (error) {
        if (error instanceof ConversionError)
          throw httpProblem('RXREST_MALFORMED_BODY', `The request body is invalid: ${error.message}`);
        throw error;
      }
    },
  };
}

/** Classes bound by a creator or a no-argument constructor. */
function jsonReader(type: unknown, options: ParamOptions, settings: BodySettings, required: boolean): BuiltinReader {
  if (
    typeof type === 'function' &&
    !isUnknownDesignType(type) &&
    !isJsonTypeToken(type) &&
    type.length > 0 &&
    !jsonCreator(type)
  ) {
    throw new Error(
      `the body type ${type.name} needs a constructor without parameters or a static method marked @JsonCreator()`,
    );
  }
  const schema = options.schema ?? classSchema(type);
  const mapper = settings.json;
  const target = Array.isArray(options.type)
    ? options.type
    : isUnknownDesignType(type) && !isJsonTypeToken(type)
      ? undefined
      : type;
  const refusesNull = !schema && target !== undefined && !isJsonTypeToken(target);
  return {
    accepts: isJsonMediaTypeText,
    read: async ({ input }) => {
      const text = await input.text();
      const trimmed = text.trim();
      // A declared class or list is never `null` (its methods would fail in the handler): null reads as no body.
      if (trimmed === '' || (refusesNull && trimmed === 'null')) {
        if (required) throw missing();
        return undefined;
      }
      if (!schema) return mapper.readValue(text, target);
      return mapper.readValue(JSON.stringify(validate(schema, mapper.readValue(text))), target);
    },
  };
}

function builtinReader(type: unknown, options: ParamOptions, settings: BodySettings, required: boolean): BuiltinReader {
  if (type === String) return textReader(options, required);
  if (type === LocalFile) return localFileReader(settings.multipart);
  const raw = rawBodyReader(type);
  if (raw) return raw;
  if (type === Number || type === Boolean || type === BigInt) return primitiveReader(type as Function, required);
  return jsonReader(type, options, settings, required);
}

/** A type some user reader reads needs no built-in reader: without one, other media types are 415. */
function lenient(make: () => BuiltinReader, type: unknown): BuiltinReader {
  try {
    return make();
  } catch {
    return {
      accepts: () => false,
      read: (request) => Promise.reject(unsupported(request.mediaType, describeType(type))),
    };
  }
}

export function compileBodyReader(designType: unknown, options: ParamOptions, settings: BodySettings): BodyReader {
  const type = typeof options.type === 'function' ? options.type : Array.isArray(options.type) ? Array : designType;
  const required = options.required ?? true;
  const { providers } = settings;
  const builtin = providers.readsType(type)
    ? lenient(() => builtinReader(type, options, settings, required), type)
    : builtinReader(type, options, settings, required);
  const limit = settings.maxBodySize;
  if (providers.readers.length === 0 && providers.readerInterceptors.length === 0) {
    const name = describeType(type);
    return (ctx) => {
      const mediaType = ctx.headers.get('content-type') ?? undefined;
      if (!builtin.accepts(mediaType)) return Promise.reject(unsupported(mediaType, name));
      return builtin.read({ input: entityInput(ctx, limit), ctx, mediaType });
    };
  }
  return (ctx) => readUserBody(ctx, type, builtin, providers, entityInput(ctx, limit));
}

/** A reader's I/O error (or a JSON syntax error) is the client's fault: 400. */
function asBadRequest(error: unknown): unknown {
  if (error instanceof IOException || error instanceof SyntaxError) {
    return httpProblem('RXREST_MALFORMED_BODY', `The request body cannot be read: ${error.message}`, { cause: error });
  }
  return error;
}

/** The first fitting user reader, else the built-in one, inside every reader interceptor, lowest priority outermost. */
async function readUserBody(
  ctx: RequestContext,
  type: unknown,
  builtin: BuiltinReader,
  providers: BodyProviders,
  input: EntityInput,
): Promise<unknown> {
  const mediaType = ctx.headers.get('content-type') ?? undefined;
  const user = providers.findReader(type, mediaType ?? 'application/octet-stream');
  if (!user && !builtin.accepts(mediaType)) throw unsupported(mediaType, describeType(type));
  const interceptors = providers.readerInterceptors;
  let index = 0;
  const context: ReaderInterceptorContext = {
    type,
    mediaType: mediaType ?? 'application/octet-stream',
    headers: ctx.headers,
    input,
    proceed: async () => {
      if (index < interceptors.length) return interceptors[index++].aroundReadFrom(context);
      return user
        ? user.readFrom(type, context.mediaType, ctx.headers, context.input)
        : builtin.read({ input: context.input, ctx, mediaType });
    },
  };
  try {
    return await context.proceed();
  } catch (error) {
    throw asBadRequest(error);
  }
}
