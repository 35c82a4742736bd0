/**
 * The samples application as a Cloudflare Worker module: `fetch(request, env, ctx)` is the application's own
 * (`env` and `ctx` reach a Hono `Context` parameter). Bundled and served on workerd by `npm run start:workerd`.
 */
import type { RestApp } from '../../lib';
import { buildRuntimeSamples } from './runtime-samples';

let app: RestApp | undefined;

export default {
  fetch(request: Request, env: unknown, ctx: unknown): Response | Promise<Response> {
    // Built at the first request: a Worker's global scope may not start timers or I/O.
    app ??= buildRuntimeSamples('workerd', undefined, { 'framework.openapi.info.title': 'rxrest samples' });
    return app.fetch(request, env, ctx);
  },
};
