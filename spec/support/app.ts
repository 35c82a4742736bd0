/** Test helpers: build an application from classes with inline configuration, and call it in process. */
import { RestApplication, resolveConfig, type RestApp, type RunningServer } from '../../lib';
import type { BuildOptions } from '../../lib';

export function buildApp(
  classes: Function[],
  overrides: Record<string, string | number | boolean> = {},
  extra: Pick<BuildOptions, 'filters' | 'application' | 'features' | 'authentication'> = {},
): RestApp {
  return RestApplication.build({ classes, config: resolveConfig({ overrides }), ...extra });
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

export async function call(app: RestApp, path: string, init: CallInit = {}): Promise<Response> {
  const request = new Request(`http://localhost${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body,
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return app.fetch(request);
}

export function json(body: unknown): CallInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Serves `app` on a free local port for the length of `run`, then closes it. */
export async function withServer(app: RestApp, run: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}
