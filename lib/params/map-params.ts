/** Parameters that collect every query or form field at once (`@RestQuery() all: URLSearchParams`). */
import type { RequestContext } from '../context/request-context';
import type { BodySettings } from '../multipart/body-settings';
import { readForm } from './read-form';

/** `URLSearchParams` (a copy) and `Map<string, string[]>` receive every field. */
export function isMapType(type: unknown): type is typeof URLSearchParams | typeof Map {
  return type === URLSearchParams || type === Map;
}

function toMap(params: URLSearchParams): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [key, value] of params) {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
  return map;
}

export function compileMapReader(
  kind: 'query' | 'form',
  type: typeof URLSearchParams | typeof Map,
  settings: BodySettings,
): (ctx: RequestContext) => unknown {
  const shape: (params: URLSearchParams) => unknown = type === Map ? toMap : (params) => new URLSearchParams(params);
  if (kind === 'query') return (ctx) => shape(ctx.query);
  return (ctx) => readForm(ctx, settings).then(shape);
}
