/** The bench routes on a raw `node:http` server, routed by hand: the ceiling the frameworks are measured against. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FRUITS, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const ITEMS = '/bench/items/';

function sendJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      sendJson(res, 200, JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    } catch {
      sendJson(res, 400, '{"error":"bad json"}');
    }
  });
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === 'GET' && path === '/bench/fruits') return sendJson(res, 200, JSON.stringify(FRUITS));
  if (req.method === 'GET' && path.startsWith(ITEMS)) {
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const id = Number(path.slice(ITEMS.length));
    return sendJson(res, 200, JSON.stringify({ id, limit: Number(query.get('limit')) }));
  }
  if (req.method === 'POST' && path === '/bench/echo') return echo(req, res);
  sendJson(res, 404, '{"error":"not found"}');
}

const server = createServer(handle);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${READY_PREFIX}${(server.address() as AddressInfo).port}\n`);
});
followParent(() => server.close());
