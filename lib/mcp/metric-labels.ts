/** A request's metric labels, from what the server serves: a made-up tool name or URI must not make a series. */
import { servedOf, type ServerCatalog } from './compile-catalog';
import type { JsonRpcRequest } from './json-rpc';

export interface MetricLabels {
  /** `_OTHER` when the server does not answer it (as OpenTelemetry names an unknown HTTP method). */
  readonly method: string;
  /** The tool or prompt named, or the resource's URI or URI template, when served; else empty. */
  readonly target: string;
}

/** `answered`: the methods the server answers besides `tools/call`. */
export function metricLabels(
  request: JsonRpcRequest,
  catalog: ServerCatalog,
  answered: ReadonlyMap<string, unknown>,
): MetricLabels {
  const method = request.method === 'tools/call' || answered.has(request.method) ? request.method : '_OTHER';
  const served = servedOf(catalog, request)?.definition;
  const target = served?.uri ?? served?.uriTemplate ?? served?.name;
  return { method, target: typeof target === 'string' ? target : '' };
}
