/**
 * The samples application as a Cloudflare Worker module: `fetch(request, env, ctx)` is the application's own
 * (`env` and `ctx` reach a Hono `Context` parameter). Bundled and served on workerd by `npm run start:workerd`, with
 * the text of samples/application.properties (a Worker has no disk to read it from).
 */
import type { RestApp } from '../../lib';
import { buildRuntimeSamples } from './runtime-samples';

/** The samples Worker, configured by `properties` (the text of an `application.properties`) when given. */
export function samplesWorker(properties?: string): {
  fetch(request: Request, env: unknown, ctx: unknown): Response | Promise<Response>;
} {
  let app: RestApp | undefined;
  return {
    fetch(request, env, ctx) {
      // Built at the first request: a Worker's global scope may not start timers or I/O.
      app ??= buildRuntimeSamples('workerd', { properties });
      return app.fetch(request, env, ctx);
    },
  };
}

export default samplesWorker();
