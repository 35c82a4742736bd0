/** Turns one call of a client method into a fetch request: each argument placed where its decorator says. */
import type { JsonMapper } from '../json/json-mapper';
import type { MessageBodyWriter } from '../body/message-body';
import { ResponseHeaders } from '../response/response-headers';
import type { ClientEndpoint, ClientParam } from './client-endpoints';
import { isItemSource, ITEM_FRAMES, itemStream } from './item-body';
import { pathSegment } from './path-segment';
import type { Reconnect } from './reconnect';

/** What one call may change: `accept` replaces the `Accept` from `@Produces`; `headers` are added. */
export interface CallOptions {
  readonly accept?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** How a resumable SSE answer (a method taking `Last-Event-ID`) reconnects; `false`: it does not. */
  readonly reconnect?: ReconnectOptions | false;
}

/**
 * How a call to a method taking `Last-Event-ID` goes on after its SSE answer ends or drops: it asks again with the last
 * event's id, after the server's `retry:` delay, until `event: done` or a 204.
 */
export interface ReconnectOptions extends Reconnect {
  /**
   * Told when events were lost (`event: reset`); `oldestId` is the oldest the server holds (`undefined`: none).
   * Without it, a reset fails the call with a `StreamResetException`.
   */
  readonly onReset?: (oldestId: string | undefined) => void;
}

export type RequestBody = NonNullable<RequestInit['body']>;

export interface RequestWriters {
  readonly json: JsonMapper;
  readonly writers: readonly MessageBodyWriter[];
}

/** The request about to be sent: filters may change any of it. */
export interface OutgoingRequest {
  method: string;
  url: URL;
  readonly headers: Headers;
  readonly entity: unknown;
  body: RequestBody | null;
}

/** One pair per value, in order. */
interface Parts {
  readonly path: Map<string, string>;
  readonly headers: Headers;
  readonly query: [string, unknown][];
  readonly matrix: [string, unknown][];
  readonly cookie: [string, unknown][];
  readonly form: [string, unknown][];
  body?: { value: unknown };
}

/** A value as the text of a parameter: dates in ISO 8601, other objects by their `toString()`. */
function text(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** A parameter's values: a list or set gives one per item; `undefined` and `null` give none. */
function values(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.filter((item) => item !== undefined && item !== null);
  if (value instanceof Set) return [...value];
  return [value];
}

/** Cookie values outside the cookie-octet set go percent-encoded (the server decodes them). */
function cookieValue(value: string): string {
  return /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/.test(value) ? value : encodeURIComponent(value);
}

function place(param: Omit<ClientParam, 'index'>, value: unknown, parts: Parts, where: string): void {
  const name = param.name;
  switch (param.kind) {
    case 'body':
      parts.body = { value };
      return;
    case 'bean':
      if (value === undefined || value === null) return;
      for (const property of param.properties ?? [])
        place(property.param, (value as Record<string, unknown>)[property.property], parts, where);
      return;
    case 'path': {
      const items = values(value);
      if (items.length === 0) throw new TypeError(`${where}: the path parameter "${name}" needs a value`);
      parts.path.set(name!, pathSegment(items.map((item) => encodeURIComponent(text(item))).join(','), where, name!));
      return;
    }
    case 'header': {
      const items = values(value);
      if (items.length) parts.headers.set(name!, items.map(text).join(', '));
      return;
    }
    default:
      // Query, matrix, cookie and form values: made text where they are written (a form's may become parts).
      for (const item of values(value)) parts[param.kind].push([name!, item]);
  }
}

function isBinary(value: unknown): value is Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array> {
  return [Uint8Array, ArrayBuffer, Blob, ReadableStream].some((type) => value instanceof type);
}

/**
 * The media type of the body: one of `@Consumes` that fits the value (text for a string, a framing for items), else by
 * the value.
 */
function bodyMediaType(consumes: readonly string[], value: unknown): string {
  if (isItemSource(value)) return consumes.find((type) => ITEM_FRAMES.has(type)) ?? 'application/x-ndjson';
  const concrete = consumes.filter((type) => !type.includes('*'));
  const isText = (type: string) => type.startsWith('text/');
  if (typeof value === 'string') return concrete.find(isText) ?? concrete[0] ?? 'text/plain;charset=UTF-8';
  if (isBinary(value))
    return (
      concrete.find((type) => !type.includes('json') && !isText(type)) ?? concrete[0] ?? 'application/octet-stream'
    );
  return concrete.find((type) => type.includes('json')) ?? concrete[0] ?? 'application/json';
}

/** A file given as `{ path }` (as `MultipartFormDataOutput.addFile` takes it): read from disk as it is sent (Node). */
async function fileBlob(path: string, where: string): Promise<Blob> {
  // process.getBuiltinModule is no import: the client entry stays loadable where there is no `node:fs`.
  const node = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const fs = node?.getBuiltinModule?.('node:fs') as { openAsBlob?: (path: string) => Promise<Blob> } | undefined;
  if (!fs?.openAsBlob)
    throw new TypeError(
      `${where}: a file part given by its path needs Node (fs.openAsBlob); pass a Blob or File instead`,
    );
  return fs.openAsBlob(path);
}

function isFileSource(value: unknown): value is { path: string } {
  return (
    typeof value === 'object' && !isBinary(value) && typeof (value as { path?: unknown } | null)?.path === 'string'
  );
}

interface Part {
  readonly name: string;
  readonly value: unknown;
  readonly mediaType?: string;
  readonly fileName?: string;
}

/** The shape of `MultipartFormDataOutput`, read without loading it (it is a server class). */
interface OutputParts {
  readonly parts: readonly Part[];
}

function isOutputParts(value: unknown): value is OutputParts {
  return typeof value === 'object' && Array.isArray((value as { parts?: unknown } | null)?.parts);
}

async function appendPart(form: FormData, part: Part, mapper: JsonMapper, where: string): Promise<void> {
  const { name, value, mediaType, fileName } = part;
  const base = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const octets = { type: mediaType ?? 'application/octet-stream' };
  if (isFileSource(value))
    form.append(name, new Blob([await fileBlob(value.path, where)], octets), fileName ?? base(value.path));
  else if (value instanceof Blob) form.append(name, value, fileName ?? (value instanceof File ? value.name : 'blob'));
  else if (value instanceof Uint8Array || value instanceof ArrayBuffer)
    form.append(name, new Blob([value], octets), fileName ?? name);
  else if (typeof value === 'object' && value !== null) {
    const json = new Blob([mapper.writeValueAsString(value)], { type: mediaType ?? 'application/json' });
    form.append(name, json, fileName);
  } else if (mediaType && !mediaType.startsWith('text/plain'))
    form.append(name, new Blob([String(value)], { type: mediaType }), fileName);
  else form.append(name, String(value));
}

async function multipartBody(parts: Parts, mapper: JsonMapper, where: string): Promise<FormData> {
  const form = new FormData();
  const output = parts.body?.value;
  if (isOutputParts(output)) for (const part of output.parts) await appendPart(form, part, mapper, where);
  else if (output instanceof FormData) for (const [name, value] of output) form.append(name, value);
  for (const [name, value] of parts.form) await appendPart(form, { name, value }, mapper, where);
  return form;
}

async function writeBody(
  endpoint: ClientEndpoint,
  parts: Parts,
  headers: Headers,
  writers: RequestWriters,
): Promise<RequestBody | null> {
  const multipart = endpoint.consumes.find((type) => type.startsWith('multipart/'));
  if (multipart || isOutputParts(parts.body?.value) || parts.body?.value instanceof FormData) {
    // fetch writes the boundary into Content-Type itself.
    return multipartBody(parts, writers.json, endpoint.where);
  }
  if (parts.form.length)
    return new URLSearchParams(parts.form.map(([name, value]): [string, string] => [name, text(value)]));
  if (!parts.body || parts.body.value === undefined) return null;
  const { value } = parts.body;
  const mediaType = bodyMediaType(endpoint.consumes, value);
  headers.set('Content-Type', mediaType);
  if (isItemSource(value)) return itemStream(value, mediaType, writers.json);
  const type = typeof value === 'object' && value !== null ? value.constructor : undefined;
  const writer = writers.writers.find((candidate) => candidate.isWriteable(type, mediaType, value));
  if (writer) {
    const written = new ResponseHeaders();
    const body = await writer.writeTo(value, mediaType, written);
    for (const [name, lines] of written.entries()) headers.set(name, lines.join(', '));
    return body instanceof Response ? body.body : body;
  }
  if (isBinary(value)) return value;
  if (typeof value === 'string' && !mediaType.includes('json')) return value;
  return writers.json.writeValueAsString(value);
}

/** Builds the request for `args`, relative to `baseUrl`. */
export async function writeRequest(
  endpoint: ClientEndpoint,
  args: readonly unknown[],
  baseUrl: string,
  call: CallOptions,
  writers: RequestWriters,
): Promise<OutgoingRequest> {
  const parts: Parts = { path: new Map(), headers: new Headers(), query: [], matrix: [], cookie: [], form: [] };
  for (const param of endpoint.params) place(param, args[param.index], parts, endpoint.where);
  let path = endpoint.template.replace(/\{\s*([\w.-]+)\s*(?::[^}]*)?\}/g, (_, name: string) => {
    const value = parts.path.get(name);
    if (value === undefined) throw new TypeError(`${endpoint.where}: the path parameter "${name}" needs a value`);
    return value;
  });
  for (const [name, value] of parts.matrix) path += `;${encodeURIComponent(name)}=${encodeURIComponent(text(value))}`;
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of parts.query) url.searchParams.append(name, text(value));
  const headers = parts.headers;
  const accept = call.accept ?? endpoint.produces.join(', ');
  if (accept) headers.set('Accept', accept);
  if (parts.cookie.length)
    headers.set('Cookie', parts.cookie.map(([name, value]) => `${name}=${cookieValue(text(value))}`).join('; '));
  const body = await writeBody(endpoint, parts, headers, writers);
  for (const [name, value] of Object.entries(call.headers ?? {})) headers.set(name, value);
  return {
    method: endpoint.httpMethod,
    url,
    headers,
    entity: parts.body?.value ?? (parts.form.length ? Object.fromEntries(parts.form) : undefined),
    body,
  };
}
