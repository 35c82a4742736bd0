/** A hand-written MCP endpoint over a real socket, for client specs that need a server to misbehave on purpose. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What answers each request, given its whole body. */
export type McpAnswer = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** Listens before the file's tests and closes after them; `url` is the endpoint's once listening. */
export function fakeMcpServer(answer: McpAnswer): { readonly url: string } {
  const endpoint = { url: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => answer(request, response, body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return endpoint;
}
