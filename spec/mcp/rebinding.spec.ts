import { McpServer, Tool } from '../../lib';
import { hostName, originHostName } from '../../lib/mcp/rebinding';
import { buildApp, call } from '../support/app';
import { initializeRequest, MCP_HEADERS } from '../support/mcp';

@McpServer('/mcp')
class Local {
  @Tool({ description: 'Answers' })
  answer(): string {
    return '42';
  }
}

const initialize = (app: ReturnType<typeof buildApp>, headers: Record<string, string>, host = 'localhost:3000') =>
  call(app, '/mcp', {
    method: 'POST',
    headers: { ...MCP_HEADERS, host, ...headers },
    body: JSON.stringify(initializeRequest()),
  });

describe('DNS rebinding protection', () => {
  const app = buildApp([Local]);

  it('refuses a request whose Host names another host, with 403 before anything else runs', async () => {
    const response = await initialize(app, {}, 'evil.example.com');
    expect(response.status).toBe(403);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: the Host header names a host this server does not serve' },
    });
  });

  it('refuses a request from an Origin of another host, also when the Host is local', async () => {
    for (const origin of ['http://evil.example.com', 'http://localhost.evil.example.com:3000', 'null']) {
      const response = await initialize(app, { origin });
      expect(response.status).toBe(403);
    }
  });

  it('accepts localhost, 127.0.0.1 and [::1] on any port, with or without an Origin', async () => {
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:1'])
      expect((await initialize(app, {}, host)).status).toBe(200);
    expect((await initialize(app, { origin: 'http://127.0.0.1:5173' })).status).toBe(200);
    expect((await initialize(app, { origin: 'https://[::1]' })).status).toBe(200);
  });

  it('accepts the hosts framework.mcp.allowed-hosts names, and any with *', async () => {
    const named = buildApp([Local], { 'framework.mcp.allowed-hosts': 'mcp.example.com' });
    expect((await initialize(named, { origin: 'https://mcp.example.com' }, 'mcp.example.com')).status).toBe(200);
    expect((await initialize(named, {}, 'localhost')).status).toBe(403);
    const open = buildApp([Local], { 'framework.mcp.allowed-hosts': '*' });
    expect((await initialize(open, { origin: 'http://evil.example.com' }, 'evil.example.com')).status).toBe(200);
  });
});

describe('hostName', () => {
  it('takes the port off a Host value, IPv6 literals included', () => {
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName('[::1]')).toBe('[::1]');
    expect(hostName('localhost')).toBe('localhost');
  });

  it('reads the host of an Origin, undefined for null or a malformed one', () => {
    expect(originHostName('http://localhost:3000')).toBe('localhost');
    expect(originHostName('https://[::1]:8443')).toBe('[::1]');
    expect(originHostName('null')).toBeUndefined();
  });
});
