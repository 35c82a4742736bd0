/** Turns what an endpoint, filter or mapper returned into the response context. */
import { RestResponse } from '../response/rest-response';
import { ResponseHeaders } from '../response/response-headers';
import { ResponseContext } from '../context/response-context';

/** Status and headers from `@ResponseStatus`/`@ResponseHeader`, applied to plain results only. */
export interface ResultDefaults {
  readonly status?: number;
  readonly headers?: readonly (readonly [string, string])[];
}

/** The lines of a Web `Headers`, each `Set-Cookie` apart (`Headers` joins the others' repeated values). */
export function headerLinesOf(web: Headers): ResponseHeaders {
  const headers = new ResponseHeaders();
  web.forEach((value, name) => {
    if (name !== 'set-cookie') headers.add(name, value);
  });
  for (const cookie of web.getSetCookie()) headers.add('set-cookie', cookie);
  return headers;
}

/** Copies a Web `Response`, keeping each `Set-Cookie` line apart. */
function fromWebResponse(response: Response): ResponseContext {
  const type = response.headers.get('content-type') ?? undefined;
  return new ResponseContext(response.status, response.body ?? undefined, headerLinesOf(response.headers), type);
}

export function fromRestResponse(response: RestResponse<unknown> | Response): ResponseContext {
  if (response instanceof Response) return fromWebResponse(response);
  const headers = new ResponseHeaders();
  for (const [name, values] of response.headers.entries()) for (const value of values) headers.add(name, value);
  return new ResponseContext(
    response.status,
    response.entity,
    headers,
    response.mediaType ?? response.headers.get('content-type'),
  );
}

export function isResponseLike(value: unknown): value is RestResponse<unknown> | Response {
  return value instanceof RestResponse || value instanceof Response;
}

/** A value answers 200 (or `@ResponseStatus`); `undefined` or `null` 204, or the `@ResponseStatus` with no body. */
export function toResponseContext(result: unknown, defaults: ResultDefaults): ResponseContext {
  if (isResponseLike(result)) return fromRestResponse(result);
  if (result === undefined || result === null)
    return withHeaders(new ResponseContext(defaults.status ?? 204), defaults);
  return plainResponseContext(result, defaults);
}

/** A value known not to be a response, `undefined` or `null`. */
export function plainResponseContext(result: unknown, defaults: ResultDefaults): ResponseContext {
  return withHeaders(new ResponseContext(defaults.status ?? 200, result), defaults);
}

function withHeaders(context: ResponseContext, defaults: ResultDefaults): ResponseContext {
  if (defaults.headers) for (const [name, value] of defaults.headers) context.headers.add(name, value);
  return context;
}
