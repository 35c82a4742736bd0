/**
 * MCP benchmark: rxrest's MCP server beside the official SDK's own (`McpServer` and its Streamable HTTP transport; and
 * the same with the SDK's in-memory event store, so that its events can be resumed as rxrest's always can), each in
 * a process of its own, driven by plain HTTP clients in this one. Tool calls per second (32 sessions calling `echo`
 * in a loop) and progress notifications per second (4 sessions calling `progress` with n = 2,000), with the server's
 * CPU time per call. Target: rxrest ≥ 1.0× the SDK's server on both.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startChildServer, type ChildServer } from './child-server';
import { median } from './report';
import { clockTicksPerSecond, cpuPinning, cpuTicks } from './server-process';

const SERVERS = ['rxrest', 'sdk', 'sdk-resumable'] as const;
type ServerName = (typeof SERVERS)[number];
const ROUNDS = 3;
const SECONDS = 5;
const CALL_SESSIONS = 32;
const PROGRESS_SESSIONS = 4;
const PROGRESS_N = 2000;

const note = (line: string): void => void process.stdout.write(`${line}\n`);

/** As the SDK's client asks: JSON first (so a call answered at once may come as JSON). */
const JSON_FIRST = 'application/json, text/event-stream';
/** A client that would rather have SSE: every call is answered on a stream, kept in the store for resuming. */
const SSE_FIRST = 'text/event-stream, application/json';

interface Reply {
  readonly status: number;
  readonly session: string | undefined;
  readonly body: string;
}

/** One POST on a kept-alive connection; the whole answer (JSON, or an SSE stream to its end). */
function post(agent: Agent, port: number, body: unknown, session?: string, accept = JSON_FIRST): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const base = { accept, 'content-type': 'application/json' };
    const headers = session ? { ...base, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : base;
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          session: res.headers['mcp-session-id'] as string | undefined,
          body: text,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function openSession(agent: Agent, port: number): Promise<string> {
  const init = await post(agent, port, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  if (init.status !== 200 || !init.session) throw new Error(`initialize answered ${init.status}: ${init.body}`);
  await post(agent, port, { jsonrpc: '2.0', method: 'notifications/initialized' }, init.session);
  return init.session;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args, _meta: { progressToken: id } },
});

/** Each session calls `name` in a loop for `seconds`; resolves with the calls and the items `count` found per second. */
async function drive(
  port: number,
  sessions: number,
  name: string,
  args: Record<string, unknown>,
  count: (reply: Reply) => number,
  accept = JSON_FIRST,
): Promise<{ calls: number; items: number; seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: sessions });
  const ids = await Promise.all(Array.from({ length: sessions }, () => openSession(agent, port)));
  let calls = 0;
  let items = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    ids.map(async (session) => {
      for (let id = 1; performance.now() < deadline; id++) {
        const reply = await post(agent, port, call(id, name, args), session, accept);
        if (reply.status !== 200 || !reply.body.includes('"result"'))
          throw new Error(`${name}: ${reply.status} ${reply.body.slice(0, 300)}`);
        calls++;
        items += count(reply);
      }
    }),
  );
  agent.destroy();
  return { calls, items, seconds: (performance.now() - started) / 1000 };
}

/** How often `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number {
  let found = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) found++;
  return found;
}

interface Figures {
  calls: number[];
  cpuPerCall: number[];
  progress: number[];
  /** rxrest only: tool calls/s and CPU µs/call when every call streams (through the store). */
  streamed: number[];
  streamedCpu: number[];
}

/** Tool calls per second, and the server's CPU µs per call. */
async function callRate(server: ChildServer, ticksPerSecond: number, accept: string): Promise<[number, number]> {
  const before = cpuTicks(server.pid);
  const calls = await drive(server.port, CALL_SESSIONS, 'echo', { text: 'hello' }, () => 1, accept);
  return [calls.calls / calls.seconds, (((cpuTicks(server.pid) - before) / ticksPerSecond) * 1e6) / calls.calls];
}

async function measure(
  server: ChildServer,
  figures: Figures,
  ticksPerSecond: number,
  streamed: boolean,
): Promise<void> {
  // A short warm-up, then the measured runs.
  await drive(server.port, 4, 'echo', { text: 'warm' }, () => 0).catch(() => undefined);
  const [rate, cpu] = await callRate(server, ticksPerSecond, JSON_FIRST);
  figures.calls.push(rate);
  figures.cpuPerCall.push(cpu);
  if (streamed) {
    const [streamedRate, streamedCpu] = await callRate(server, ticksPerSecond, SSE_FIRST);
    figures.streamed.push(streamedRate);
    figures.streamedCpu.push(streamedCpu);
  }
  const progress = await drive(server.port, PROGRESS_SESSIONS, 'progress', { n: PROGRESS_N }, (reply) =>
    occurrences(reply.body, 'notifications/progress'),
  );
  if (progress.items !== progress.calls * PROGRESS_N)
    throw new Error(`progress: ${progress.items} notifications for ${progress.calls} calls of ${PROGRESS_N}`);
  figures.progress.push(progress.items / progress.seconds);
}

const callsOf = (figures: Figures): number[] => figures.calls;
const streamedOf = (figures: Figures): number[] => figures.streamed;

export async function runMcpBench(): Promise<void> {
  const pinning = cpuPinning();
  const ticksPerSecond = clockTicksPerSecond();
  note(
    `\nMCP: tool calls/s (${CALL_SESSIONS} sessions calling echo) and progress notifications/s (${PROGRESS_SESSIONS} sessions, n = ${PROGRESS_N}), ${SECONDS} s each, ${ROUNDS} rounds; ${pinning ? `servers on CPU ${pinning.server}` : 'not pinned'}`,
  );
  const empty = (): Figures => ({ calls: [], cpuPerCall: [], progress: [], streamed: [], streamedCpu: [] });
  const figures: Record<ServerName, Figures> = { rxrest: empty(), sdk: empty(), 'sdk-resumable': empty() };
  // Rounds alternate the servers, so that a noisy moment of the machine falls on each.
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
    for (const name of order) {
      const server = await startChildServer('mcp-server', [name], pinning?.server);
      try {
        await measure(server, figures[name], ticksPerSecond, name === 'rxrest');
      } finally {
        await server.stop();
      }
    }
  }
  note('| server | tool calls/s | server CPU µs/call | progress notifications/s |');
  note('|---|---:|---:|---:|');
  const count = (values: number[]) => Math.round(median(values)).toLocaleString('en');
  for (const name of SERVERS) {
    const { calls, cpuPerCall, progress } = figures[name];
    note(`| ${name} | ${count(calls)} | ${median(cpuPerCall).toFixed(0)} | ${count(progress)} |`);
  }
  const { streamed, streamedCpu } = figures.rxrest;
  note(
    `| rxrest, every call on a stream kept in the store | ${count(streamed)} | ${median(streamedCpu).toFixed(0)} | |`,
  );
  // rxrest's own figure (streamed or not) against the other's plain one.
  const ratio = (other: ServerName, pick: (f: Figures) => number[]) =>
    (median(pick(figures.rxrest)) / median((pick === streamedOf ? callsOf : pick)(figures[other]))).toFixed(2);
  for (const other of ['sdk', 'sdk-resumable'] as const)
    note(
      `rxrest ÷ ${other}: ${ratio(other, callsOf)}× tool calls/s (${ratio(other, streamedOf)}× with every call streamed), ${ratio(other, (f) => f.progress)}× progress notifications/s (target ≥ 1.00)`,
    );
}
