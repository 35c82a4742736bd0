/** An endpoint's handling of a request it was routed, on every request: request stages, mapped errors, response filters. */
import type { ExceptionMappers } from '../errors/exception-mappers';
import type { StageFn } from './chain';
import { defaultErrorResponse, recover } from './map-errors';
import { RequestContext, type EndpointInfo } from '../context/request-context';
import { catchLater, then } from '../context/settle';
import type { StageResult } from '../context/stage';

/**
 * What an endpoint does with a request it was routed: its request stages (errors mapped by `mappers`), then its
 * response filters. Synchronous when every stage is.
 */
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
      // A response filter that throws on the synchronous path answers as it does on the asynchronous one:
      // the default error response, without running the filters again.
      ctx.response = defaultErrorResponse(error);
      return ctx;
    }
  };
}
