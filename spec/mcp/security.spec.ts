import {
  apiKeys,
  Authenticated,
  McpResource,
  McpServer,
  Prompt,
  RateLimit,
  RestApplication,
  resolveConfig,
  RolesAllowed,
  SecurityContext,
  Tool,
  type RestApp,
} from '../../lib';
import { initializeRequest, MCP_HEADERS, mcpPost, openLiveSession, rpc, sendLive } from '../support/mcp';
import { withServer } from '../support/app';
import { until } from '../support/until';

const keys = apiKeys({
  keys: { 'alice-key': { name: 'alice', roles: ['admin'] }, 'bob-key': { name: 'bob', roles: [] } },
});

@McpServer('/mcp')
@Authenticated
class Guarded {
  @Tool({ description: 'Who am I' })
  whoami(security: SecurityContext): string {
    return security.userPrincipal!.name;
  }

  @Tool({ description: 'Admins only' })
  @RolesAllowed('admin')
  purge(): string {
    return 'purged';
  }

  @Tool({ description: 'Twice a minute' })
  @RateLimit({ requests: 2, window: '1m' })
  scarce(): string {
    return 'some';
  }

  @McpResource({ uri: 'test://secrets' })
  @RolesAllowed('admin')
  secrets(): string {
    return 'the secrets';
  }

  @Prompt({ description: 'Admins only' })
  @RolesAllowed('admin')
  confess(): string {
    return 'confess';
  }
}

const app: RestApp = RestApplication.build({ classes: [Guarded], config: resolveConfig({}), authentication: [keys] });

async function sessionOf(key: string): Promise<string> {
  const response = await mcpPost(app, initializeRequest(), undefined, { 'x-api-key': key });
  return response.headers.get('mcp-session-id')!;
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

describe('security on an MCP server', () => {
  it('answers an anonymous request to an @Authenticated server 401 with a challenge, and opens no session', async () => {
    const response = await mcpPost(app, initializeRequest());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('ApiKey header="X-API-Key"');
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it("injects the caller's SecurityContext into a tool", async () => {
    const session = await sessionOf('alice-key');
    const answer = await mcpPost(app, request(1, 'tools/call', { name: 'whoami' }), session, {
      'x-api-key': 'alice-key',
    });
    expect(await rpc(answer)).toMatchObject({
      result: { content: [{ type: 'text', text: 'alice' }] },
    });
  });

  it('keeps a session to the caller who opened it: another caller naming it gets 404', async () => {
    const session = await sessionOf('alice-key');
    const answer = await mcpPost(app, request(1, 'ping'), session, { 'x-api-key': 'bob-key' });
    expect(answer.status).toBe(404);
  });

  it('hides the tools, resources and prompts a caller may not use, and answers 403 to a call of one', async () => {
    const session = await sessionOf('bob-key');
    const as = { 'x-api-key': 'bob-key' };
    const tools = await rpc(await mcpPost(app, request(1, 'tools/list'), session, as));
    expect((tools.result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual(['whoami', 'scarce']);
    const resources = await rpc(await mcpPost(app, request(2, 'resources/list'), session, as));
    expect(resources.result!.resources).toEqual([]);
    const prompts = await rpc(await mcpPost(app, request(3, 'prompts/list'), session, as));
    expect(prompts.result!.prompts).toEqual([]);
    const purge = await mcpPost(app, request(4, 'tools/call', { name: 'purge' }), session, as);
    expect(purge.status).toBe(403);
    expect((await purge.json()) as unknown).toMatchObject({ code: 'RXREST_FORBIDDEN' });
    expect((await mcpPost(app, request(5, 'resources/read', { uri: 'test://secrets' }), session, as)).status).toBe(403);
    expect((await mcpPost(app, request(6, 'prompts/get', { name: 'confess' }), session, as)).status).toBe(403);
  });

  it('lets a caller with the role use them', async () => {
    const session = await sessionOf('alice-key');
    const as = { 'x-api-key': 'alice-key' };
    const read = await rpc(await mcpPost(app, request(1, 'resources/read', { uri: 'test://secrets' }), session, as));
    expect(read.result).toEqual({ contents: [{ uri: 'test://secrets', mimeType: 'text/plain', text: 'the secrets' }] });
  });

  it("limits a tool's calls by its @RateLimit: 429 past it", async () => {
    const session = await sessionOf('bob-key');
    const as = { 'x-api-key': 'bob-key' };
    const scarce = (id: number) =>
      mcpPost(app, request(id, 'tools/call', { name: 'scarce', arguments: {} }), session, as);
    expect((await scarce(1)).status).toBe(200);
    expect((await scarce(2)).status).toBe(200);
    const refused = await scarce(3);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await mcpPost(app, request(4, 'tools/call', { name: 'whoami' }), session, as)).status).toBe(200);
  });
});

describe('stream caps', () => {
  // The slow tool's calls stay open until the spec opens the gate: a fixed sleep let the first call end before the
  // second was sent on a loaded machine (200 instead of 429).
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (openGate = resolve));

  @McpServer('/capped')
  @RateLimit({ streams: 1 })
  class Capped {
    @Tool({ description: 'Takes a while' })
    async slow(): Promise<string> {
      await gate;
      return 'slow';
    }
  }

  it('holds a client to the streams @RateLimit allows it at once: 429 for one more', async () => {
    const capped = RestApplication.build({ classes: [Capped], config: resolveConfig({}) });
    await withServer(capped, async (server) => {
      const url = `${server.url}/capped`;
      const session = await openLiveSession(url);
      const headers = { ...MCP_HEADERS, 'mcp-session-id': session };
      const first = await sendLive(url, 'POST', headers, request(1, 'tools/call', { name: 'slow' }));
      expect(first.status).toBe(200);
      const second = await sendLive(url, 'POST', headers, request(2, 'tools/call', { name: 'slow' }));
      expect(second.status).toBe(429);
      openGate();
      await first.ended;
      await until(async () => {
        const third = await sendLive(url, 'POST', headers, request(3, 'tools/call', { name: 'slow' }));
        await third.ended;
        return third.status === 200 ? true : undefined;
      }, 'the stream to be given back');
    });
  });
});
