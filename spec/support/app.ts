/** Test helpers: build an application from classes with inline configuration, and call it in process. */
import { RestApplication, resolveConfig, type OperatorFilter, type RestApp } from '../../lib';
import type { Application } from '../../lib';

export function buildApp(
  classes: Function[],
  overrides: Record<string, string | number | boolean> = {},
  extra: { filters?: OperatorFilter[]; application?: Application } = {},
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
