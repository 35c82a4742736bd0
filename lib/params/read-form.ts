/** The one place request forms are read, and the parameters that collect every query or form field at once. */
import { readRequestText } from '../body/read-body';
import type { RequestContext } from '../context/request-context';
import type { BodySettings } from '../multipart/body-settings';
import { ContextKey } from '../context/context-key';

const FORM = new ContextKey<Promise<URLSearchParams>>('form');

/** Read once per request; content types other than `application/x-www-form-urlencoded` give an empty form. */
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
