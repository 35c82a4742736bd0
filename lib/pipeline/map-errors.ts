/** The error path (exception mappers, else the default answer), and an endpoint's handling of a request around it. */
import { Observable } from 'rxjs/internal/Observable';
import type { ExceptionMappers } from '../errors/exception-mappers';
import { problemDetails, PROBLEM_JSON } from '../errors/problem-details';
import { WebApplicationException } from '../errors/web-application-exception';
import { logging } from '../logging/logger';
import { ResponseHeaders } from '../response/response-headers';
import { RequestAborted, RequestContext, type EndpointInfo } from '../context/request-context';
import { CLIENT_CLOSED, ResponseContext } from '../context/response-context';
import { catchLater, firstValue, then, type StageFn } from '../context/settle';
import type { StageResult } from '../context/stage';
import { fromRestResponse, toResponseContext } from './to-response';

const errorLog = logging.getLogger('rxrest.errors');
const serverLog = logging.getLogger('rxrest.server');
const paramLog = logging.getLogger('rxrest.params');

/** The answer to an error no mapper handled. Internals (messages of plain errors, stacks) never reach the client. */
export function defaultErrorResponse(error: unknown): ResponseContext {
  if (error instanceof WebApplicationException) {
    const code = error.problem?.code;
    const log = code === 'RXREST_PARAMETER_NOT_FOUND' || code === 'RXREST_INVALID_PARAMETER' ? paramLog : errorLog;
    if (log.isEnabled('DEBUG')) log.debug(`${error.name}: ${error.message}`, error);
    if (error.response) return fromRestResponse(error.response);
    const headers = new ResponseHeaders(error.headers);
    if (error.problem) return new ResponseContext(error.status, error.problem, headers, PROBLEM_JSON);
    if (!error.hasMessage) return new ResponseContext(error.status, undefined, headers);
    return new ResponseContext(error.status, error.message, headers, 'text/plain');
  }
  errorLog.error('Unhandled error while processing a request', error);
  return internalErrorResponse();
}

/** The 500 problem, which says nothing of what failed. */
export function internalErrorResponse(): ResponseContext {
  const problem = problemDetails('RXREST_INTERNAL_ERROR', 'An unexpected error occurred.');
  return new ResponseContext(500, problem, new ResponseHeaders(), PROBLEM_JSON);
}

function answered(ctx: RequestContext, response: ResponseContext): RequestContext {
  ctx.response = response;
  return ctx;
}

/** A mapper's answer, settled: never a Promise (`recover` awaits one, and a Promise never resolves to another). */
function settleMapped(ctx: RequestContext, error: unknown, result: unknown): StageResult<RequestContext> {
  const mapped = (value: unknown) =>
    answered(ctx, value === undefined ? defaultErrorResponse(error) : toResponseContext(value, {}));
  if (!(result instanceof Observable)) return mapped(result);
  return firstValue(
    result,
    mapped,
    () => mapped(undefined),
    (failed) => answered(ctx, defaultErrorResponse(failed)),
  );
}

/** An abort becomes its response; other errors go to the nearest mapper (one failing as unmapped), else the default. */
export function recover(
  ctx: RequestContext,
  error: unknown,
  mappers: ExceptionMappers | undefined,
): StageResult<RequestContext> {
  if (error instanceof RequestAborted) return answered(ctx, fromRestResponse(error.response));
  // A body cut short by a client that left: nobody to answer, nothing the server did wrong.
  if (ctx.clientGoneMidRequest) {
    if (serverLog.isEnabled('DEBUG'))
      serverLog.debug(
        `The client closed the connection before the answer to ${ctx.method} ${ctx.rawPath}: ${error instanceof Error ? error.message : String(error)}`,
      );
    return answered(ctx, new ResponseContext(CLIENT_CLOSED));
  }
  ctx.error = error;
  const resolved = mappers?.resolve(error);
  if (!resolved) return answered(ctx, defaultErrorResponse(error));
  try {
    const result = resolved.mapper.map(resolved.error, ctx);
    if (result instanceof Promise)
      return result.then(
        (value: unknown) => settleMapped(ctx, error, value) as RequestContext,
        (failed: unknown) => answered(ctx, defaultErrorResponse(failed)),
      );
    return settleMapped(ctx, error, result);
  } catch (failed) {
    return answered(ctx, defaultErrorResponse(failed));
  }
}

/** An endpoint's request stages (errors mapped by `mappers`), then its response filters; synchronous while they are. */
export function endpointHandler(
  info: EndpointInfo,
  requestPart: StageFn,
  responsePart: StageFn | undefined,
  mappers: ExceptionMappers,
): (ctx: RequestContext) => StageResult<RequestContext> {
  return (ctx) => {
    ctx.endpoint = info;
    ctx.lane = info.lane;
    let handled: StageResult<RequestContext>;
    try {
      handled = requestPart(ctx);
      if (!(handled instanceof RequestContext)) handled = catchLater(handled, (error) => recover(ctx, error, mappers));
    } catch (error) {
      handled = recover(ctx, error, mappers);
    }
    if (!responsePart) return handled;
    try {
      return then(handled, responsePart);
    } catch (error) {
      // A response filter threw: as on the asynchronous path, the default error response, filters not run again.
      return answered(ctx, defaultErrorResponse(error));
    }
  };
}
