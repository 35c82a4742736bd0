// An MCP POST is read as every JSON the framework reads, over a real socket: an object with a `__proto__` key, or a
// `constructor` key holding a `prototype`, however JSON escapes spell them, is refused (400, -32600 naming the key)
// before any message runs. The transport read its body with JSON.parse alone, so a tool without an input schema got
// such keys as they came, for the first field-by-field copy of its arguments to poison a prototype; docs/security.md
// said every JSON the framework reads refuses them.
import { McpServer, RestApplication, Tool, type RunningServer } from '../../lib';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';

const received: unknown[] = [];

@McpServer('/mcp')
class Untyped {
  @Tool({ description: 'Takes any arguments' })
  take(args: unknown): string {
    received.push(args);
    return 'taken';
  }
}

let server: RunningServer;
let session: Record<string, string>;
beforeAll(async () => {
  const app = RestApplication.build({ classes: [Untyped] });
  server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  const opened = await post(JSON.stringify(initializeRequest()));
  session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  await opened.text();
});
afterAll(() => server.close());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body });

const call = (args: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"take","arguments":${args}}}`;

describe('an MCP POST', () => {
  it('refuses prototype-poisoning keys however JSON spells them, before any message runs', async () => {
    for (const [body, key] of [
      [call('{"\\u005f_proto__":{"isAdmin":true}}'), '__proto__'],
      [call('{"__proto__":{"isAdmin":true}}'), '__proto__'],
      [call('{"a":{"\\u0063onstructor":{"prototype":{"isAdmin":true}}}}'), 'constructor.prototype'],
      [`[${call('{}')},{"jsonrpc":"2.0","id":2,"method":"ping","params":{"__proto__":{}}}]`, '__proto__'],
    ]) {
      const refused = await post(body, session);
      expect([refused.status, await refused.json()]).toEqual([
        400,
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `Invalid Request: The request body contains the forbidden key "${key}"` },
        },
      ]);
    }
    expect(received).toEqual([]);
    // The words elsewhere are untouched: as values, and a constructor key holding no prototype.
    const taken = await post(call('{"note":"__proto__","constructor":"x"}'), session);
    expect(await taken.json()).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'taken' }] } });
    expect(received).toEqual([{ note: '__proto__', constructor: 'x' }]);
  });
});
