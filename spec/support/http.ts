/**
 * Test helpers: requests over a real socket, without keep-alive, as a client outside the process sees them. Each
 * fails naming its request, its connection cut, when the whole answer has not come within 15 s.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { STEP_MS } from './until';

/**
 * The promise `send` settles, with the request it made cut and the promise failed when it has not settled within
 * `ms` (a server that never answers, or never ends its answer).
 */
function answer<T>(
  what: string,
  send: (resolve: (value: T) => void, reject: (error: Error) => void) => ClientRequest,
  ms = STEP_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return new Promise<T>((resolve, reject) => {
    const req = send(resolve, reject);
    timer = setTimeout(() => {
      reject(new Error(`no whole answer to ${what} within ${ms} ms`));
      req.destroy();
    }, ms);
  }).finally(() => clearTimeout(timer));
}

/** A plain GET over a real socket: status and body. */
export function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return answer(`GET ${path}`, (resolve, reject) =>
    httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end(),
  );
}

/**
 * A POST over a real socket whose answer may come before the whole body is sent (a limit that trips): the status
 * and body of the answer, or a rejection when the connection ends with none (the fault a 413 must not have).
 */
export function postBody(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
): Promise<{ status: number; body: string }> {
  return answer(`POST ${path}`, (resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error) => reject(new Error(`no answer to POST ${path}: ${error.message}`)));
    return req.end(body);
  });
}

/** A FormData as the bytes and Content-Type a client sends. */
export async function encodeForm(form: FormData): Promise<{ headers: Record<string, string>; body: Uint8Array }> {
  const encoded = new Response(form);
  return {
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: new Uint8Array(await encoded.arrayBuffer()),
  };
}

/** One answer as a client outside the process sees it: status, header map and body text. */
export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request over a fresh connection (no keep-alive) with `headers`, any method, whole answer read. */
export function send(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<RawReply> {
  return answer(`${method} ${url}`, (resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    return req.end();
  });
}
