/** The routing fallback: a request no resource matched (404) is tried against the static files. */
import { WebApplicationException } from '../errors/web-application-exception';
import type { RequestContext } from '../pipeline/request-context';
import type { StaticFiles } from './static-files';

/** Whether `error` is the router's "no resource matches this path" (404), which other answers may replace. */
export function isRouteNotFound(error: unknown): boolean {
  return error instanceof WebApplicationException && error.problem?.code === 'RXREST_ROUTE_NOT_FOUND';
}

/**
 * Answers `ctx` from `files` when `error` is "no resource matches" and a file exists at the path;
 * otherwise rethrows `error`. Resource endpoints therefore always take precedence over files.
 */
export function serveStatic(files: StaticFiles, ctx: RequestContext, error: unknown): Promise<RequestContext> {
  if (!isRouteNotFound(error)) return Promise.reject(error);
  return files.respond(ctx.method, ctx.rawPath, ctx.headers).then((response) => {
    if (!response) throw error;
    ctx.response = response;
    return ctx;
  });
}
