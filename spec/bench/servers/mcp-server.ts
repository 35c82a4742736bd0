/**
 * The MCP bench server: tools `echo` (answers its text) and `progress` (n progress notifications, then `done n`), as
 * rxrest (`argv[2]` `rxrest`, an `@McpServer` whose `progress` returns an Observable) or as the official SDK's own
 * server (`sdk`: `McpServer` and its Streamable HTTP transport on `node:http`, a server and a transport per session as
 * its documentation does it; `sdk-resumable`: the same with the SDK's in-memory event store, so that its events can
 * be resumed too, as rxrest's always can).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as SdkServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { concat, map, of, range } from 'rxjs';
import { z } from 'zod';
import { McpServer, progressNotice, RestApplication, resolveConfig, Tool } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

@McpServer('/mcp', { name: 'bench' })
class BenchServer {
  @Tool({ description: 'Answers its text', input: z.object({ text: z.string() }) })
  echo(args: { text: string }): string {
    return args.text;
  }

  @Tool({ description: 'Sends n progress notifications', input: z.object({ n: z.number().int().min(1) }) })
  progress(args: { n: number }): unknown {
    return concat(range(1, args.n).pipe(map((k) => progressNotice(k, args.n))), of(`done ${args.n}`));
  }
}

async function rxrest(): Promise<{ port: number; close: () => void }> {
  // The sessions of a bench run stay well within this; the grace and retry as configured by default.
  const overrides = { 'framework.rest.sse.keep-alive': '0' };
  const app = RestApplication.build({ classes: [BenchServer], config: resolveConfig({ overrides }) });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  return { port: server.port, close: () => void server.close() };
}

function sdkServer(): SdkServer {
  const server = new SdkServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Answers its text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'progress',
    { description: 'Sends n progress notifications', inputSchema: { n: z.number().int().min(1) } },
    async ({ n }, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        for (let k = 1; k <= n; k++)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: k, total: n },
          });
      return { content: [{ type: 'text', text: `done ${n}` }] };
    },
  );
  return server;
}

async function sdk(resumable: boolean): Promise<{ port: number; close: () => void }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      const made = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: resumable ? new InMemoryEventStore() : undefined,
        onsessioninitialized: (session) => void transports.set(session, made),
      });
      made.onclose = () => made.sessionId && transports.delete(made.sessionId);
      await sdkServer().connect(made);
      transport = made;
    }
    await transport.handleRequest(req, res);
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  const { port, close } = kind === 'rxrest' ? await rxrest() : await sdk(kind === 'sdk-resumable');
  process.stdout.write(`${READY_PREFIX}${port}\n`);
  followParent(close);
}

void main();
