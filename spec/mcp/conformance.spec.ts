// The official MCP conformance suite (`@modelcontextprotocol/conformance`, its own CLI, as CI runs it) against the
// samples' `/mcp`: every check of every active server scenario, and of the pending ones (JSON Schema 2020-12
// keywords kept; an SSE stream closed mid-call and resumed with Last-Event-ID). It needs no network but loopback.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { tempDir } from '../support/temp-dir';
import { within } from '../support/until';

const CLI = join(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

/** Runs the suite's CLI; resolves with its exit code and the checks of each scenario it saved. */
function conformance(
  args: readonly string[],
  output: string,
): Promise<{ code: number | null; log: string; checks: Map<string, Check[]> }> {
  const child = spawn(process.execPath, [CLI, 'server', ...args, '-o', output], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = new Promise<{ code: number | null; log: string; checks: Map<string, Check[]> }>((resolve, reject) => {
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const checks = new Map<string, Check[]>();
      for (const folder of readdirSync(output)) {
        // Saved as `server-<scenario>-<time>`.
        const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
        checks.set(scenario, JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8')) as Check[]);
      }
      resolve({ code, log, checks });
    });
  });
  // Within its test's 120 s, and killed when it is not done by then (it would go on calling a closed server).
  return within(run, 'the conformance suite to finish', 110_000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
}

const ACTIVE = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
].sort();

const failuresOf = (checks: Map<string, Check[]>) =>
  [...checks].flatMap(([scenario, list]) =>
    list
      .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
      .map((check) => `${scenario}: ${check.id} ${check.status} ${check.errorMessage ?? ''}`),
  );
const passed = (checks: Map<string, Check[]>) =>
  [...checks.values()].flat().filter((check) => check.status === 'SUCCESS').length;

describe('the MCP conformance suite against the samples', () => {
  const active = tempDir('mcp-conformance');
  const pending = tempDir('mcp-conformance-pending');
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    server = await buildSamples().listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    url = `${server.url}/mcp`;
  });

  afterAll(() => server.close());

  it('passes every check of every active server scenario: 40 of 40, no warning', async () => {
    const run = await conformance(['--url', url], active);
    expect(failuresOf(run.checks)).toEqual([]);
    expect([...run.checks.keys()].sort()).toEqual(ACTIVE);
    expect(passed(run.checks)).toBe(40);
    expect(run.log).toContain('Total: 40 passed, 0 failed');
    expect(run.code).toBe(0);
  }, 120_000);

  it('passes the pending scenarios too: JSON Schema 2020-12 kept, a stream cut mid-call resumed with Last-Event-ID', async () => {
    const run = await conformance(['--url', url, '--suite', 'pending'], pending);
    expect(failuresOf(run.checks)).toEqual([]);
    expect(run.checks.get('json-schema-2020-12')!.map((check) => `${check.id} ${check.status}`)).toEqual([
      'json-schema-2020-12-tool-found SUCCESS',
      'json-schema-2020-12-$schema SUCCESS',
      'json-schema-2020-12-$defs SUCCESS',
      'json-schema-2020-12-additionalProperties SUCCESS',
    ]);
    const polling = run.checks.get('server-sse-polling')!.filter((check) => check.status === 'SUCCESS');
    expect(polling.map((check) => check.id)).toEqual([
      'server-sse-priming-event',
      'server-sse-retry-field',
      'server-sse-disconnect-resume',
    ]);
    expect(run.code).toBe(0);
  }, 120_000);
});
