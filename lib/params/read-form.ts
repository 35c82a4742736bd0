/**
 * The one place request forms are read (`@RestForm`, form maps); multipart support branches here. Also the parameters
 * that collect every query or form field at once (`@RestQuery() all: URLSearchParams`).
 */
import { readRequestText } from '../body/read-body';
import type { RequestContext } from '../context/request-context';
import type { BodySettings } from '../multipart/body-settings';
import { ContextKey } from '../context/context-key';

const FORM = new ContextKey<Promise<URLSearchParams>>('form');

/**
 * The fields of an `application/x-www-form-urlencoded` request, read once per request and shared by
 * every form parameter; other content types give an empty form.
 */
export function readForm(ctx: RequestContext, settings: BodySettings): Promise<URLSearchParams> {
  // The promise is cached, not its result: form parameters are read concurrently (bean properties).
  const cached = ctx.get(FORM);
  if (cached) return cached;
  const type = ctx.headers.get('content-type') ?? '';
  const form = type.toLowerCase().startsWith('application/x-www-form-urlencoded')
    ? readRequestText(ctx, settings.maxBodySize).then((text) => new URLSearchParams(text))
    : Promise.resolve(new URLSearchParams());
  ctx.set(FORM, form);
  return form;
}

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
