/** Reads a body through the application's readers and reader interceptors. */
import { unsupported, type BuiltinReader } from '../body/builtin-readers';
import { httpProblem } from '../errors/http-problem';
import type { RequestContext } from '../context/request-context';
import type { BodyProviders } from '../providers/body-providers';
import { IOException, type EntityInput, type ReaderInterceptorContext } from '../body/message-body';
import { describeType } from '../convert/convert';

/** A reader's I/O error (or a JSON syntax error) is the client's fault: 400. */
function asBadRequest(error: unknown): unknown {
  if (error instanceof IOException || error instanceof SyntaxError) {
    return httpProblem('RXREST_MALFORMED_BODY', `The request body cannot be read: ${error.message}`, { cause: error });
  }
  return error;
}

/**
 * Reads the body as `type`: the first user reader whose `@Consumes` fits the request's media type and
 * that says `isReadable`, else the built-in reader; wrapped by every reader interceptor, lowest priority outermost.
 */
export async function readUserBody(
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
