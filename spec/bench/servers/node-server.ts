/** The bench routes on a raw `node:http` server, routed by hand: the ceiling the frameworks are measured against. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HELLO, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const USERS = '/users/';

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      send(res, 200, 'application/json', JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    } catch {
      send(res, 400, 'application/json', '{"error":"bad json"}');
    }
  });
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === 'GET' && path === '/hello') return send(res, 200, 'text/plain', HELLO);
  if (req.method === 'GET' && path.startsWith(USERS)) {
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const id = Number(path.slice(USERS.length));
    return send(res, 200, 'application/json', JSON.stringify({ id, fields: (query.get('fields') ?? '').split(',') }));
  }
  if (req.method === 'POST' && path === '/echo') return echo(req, res);
  send(res, 404, 'application/json', '{"error":"not found"}');
}

const server = createServer(handle);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${READY_PREFIX}${(server.address() as AddressInfo).port}\n`);
});
followParent(() => server.close());
