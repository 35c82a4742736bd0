/** The routing fallback for static files: a request no resource matched (404) is tried against them. */
import type { RequestContext } from '../context/request-context';
import type { UnroutedAnswer } from '../context/settle';
import type { StaticFiles } from './static-files';

/**
 * Answers from `files` when a file exists at the path (resource endpoints therefore always take
 * precedence over files), else gives `undefined`.
 */
export function staticFilesAnswer(files: StaticFiles): UnroutedAnswer {
  return (ctx: RequestContext) =>
    files.respond(ctx.method, ctx.rawPath, ctx.headers).then((response) => {
      if (!response) return undefined;
      ctx.response = response;
      return ctx;
    });
}
