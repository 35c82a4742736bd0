/** Test helper: a plain GET over a real socket, without keep-alive, as a client outside the process sees it. */
import { request as httpRequest } from 'node:http';

export function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
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
  return new Promise((resolve, reject) => {
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
    req.end(body);
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
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
