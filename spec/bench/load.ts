/** Drives load at a server with wrk (installed from Debian's packages when missing), or autocannon as a fallback. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BenchRoute } from './bench-routes';

const run = promisify(execFile);

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  /** A `taskset -c` CPU list for the load generator (absent: not pinned). */
  readonly cpus?: string;
}

/** What one load run achieved, as the load generator saw it. */
export interface LoadResult {
  /** Requests completed with a 2xx answer. */
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  /** Socket errors, timeouts and non-2xx answers: any of them makes the run suspect. */
  readonly errors: number;
}

export interface LoadGenerator {
  readonly name: 'wrk' | 'autocannon';
  /** Loads `http://127.0.0.1:<port><route.path>` for `options.seconds`. */
  load(port: number, route: BenchRoute, options: LoadOptions): Promise<LoadResult>;
}

function succeeds(command: string, args: readonly string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 300_000 });
    return true;
  } catch {
    return false;
  }
}

/** wrk if it is installed or apt-get can install it (refreshing the package lists only if the first try fails). */
function haveWrk(note: (line: string) => void): boolean {
  if (succeeds('sh', ['-c', 'command -v wrk'])) return true;
  note('wrk not found: apt-get install -y wrk');
  if (succeeds('apt-get', ['install', '-y', 'wrk'])) return true;
  note('install failed: apt-get update, then retry');
  return succeeds('apt-get', ['update']) && succeeds('apt-get', ['install', '-y', 'wrk']);
}

/** The cheapest load generator available: wrk (C, one thread) before autocannon (Node, competes for the CPU more). */
export function findLoadGenerator(note: (line: string) => void): LoadGenerator {
  if (haveWrk(note)) return wrk();
  note('wrk cannot be had: falling back to `npx --yes autocannon` (costs more CPU, so ratios are less reliable)');
  return autocannon();
}

const RESULT_PREFIX = 'WRK_RESULT ';

/** A Lua script that sets the request and prints the summary as one JSON line (wrk's own text rounds p99). */
function wrkScript(route: BenchRoute): string {
  const body =
    route.body === undefined
      ? ''
      : `wrk.method = "${route.method}"\nwrk.body = [==[${route.body}]==]\nwrk.headers["Content-Type"] = "application/json"\n`;
  const headers = Object.entries(route.headers ?? {})
    .map(([name, value]) => `wrk.headers["${name}"] = [==[${value}]==]\n`)
    .join('');
  return `${body}${headers}done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${RESULT_PREFIX}{"requests":%d,"duration_us":%d,"p99_us":%d,"errors":%d,"status":%d}\\n',
    summary.requests, summary.duration, latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
`;
}

function wrk(): LoadGenerator {
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-bench-'));
  // The scripts are only needed while the bench runs.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return {
    name: 'wrk',
    async load(port, route, options) {
      // One script per server: head-to-head rounds run two wrk at once, and a shared file would be rewritten under the other.
      const script = join(dir, `${route.name.replace(/\W+/g, '-')}-${port}.lua`);
      writeFileSync(script, wrkScript(route));
      const args = [
        '-t1',
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        '--timeout',
        '5s',
        '-s',
        script,
        `http://127.0.0.1:${port}${route.path}`,
      ];
      const [command, argv] =
        options.cpus === undefined ? ['wrk', args] : ['taskset', ['-c', options.cpus, 'wrk', ...args]];
      const { stdout } = await run(command, argv, { timeout: (options.seconds + 30) * 1000 });
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (line === undefined) throw new Error(`wrk printed no result:\n${stdout}`);
      const raw = JSON.parse(line.slice(RESULT_PREFIX.length)) as Record<string, number>;
      const seconds = (raw.duration_us ?? 0) / 1e6;
      const requests = (raw.requests ?? 0) - (raw.status ?? 0);
      return {
        requests,
        seconds,
        requestsPerSecond: requests / seconds,
        p99Ms: (raw.p99_us ?? 0) / 1000,
        errors: (raw.errors ?? 0) + (raw.status ?? 0),
      };
    },
  };
}

function autocannon(): LoadGenerator {
  return {
    name: 'autocannon',
    async load(port, route, options) {
      const args = [
        '--yes',
        'autocannon',
        '-j',
        '-c',
        String(options.connections),
        '-d',
        String(options.seconds),
        '-m',
        route.method,
      ];
      if (route.body !== undefined) args.push('-H', 'content-type=application/json', '-b', route.body);
      for (const [name, value] of Object.entries(route.headers ?? {})) args.push('-H', `${name}=${value}`);
      args.push(`http://127.0.0.1:${port}${route.path}`);
      const [command, argv] =
        options.cpus === undefined ? ['npx', args] : ['taskset', ['-c', options.cpus, 'npx', ...args]];
      const { stdout } = await run(command, argv, {
        timeout: (options.seconds + 120) * 1000,
        maxBuffer: 16 * 1024 * 1024,
      });
      const raw = JSON.parse(stdout) as {
        requests: { total: number };
        latency: { p99: number };
        errors: number;
        timeouts: number;
        non2xx: number;
        duration: number;
      };
      const requests = raw.requests.total - raw.non2xx;
      return {
        requests,
        seconds: raw.duration,
        requestsPerSecond: requests / raw.duration,
        p99Ms: raw.latency.p99,
        errors: raw.errors + raw.timeouts + raw.non2xx,
      };
    },
  };
}
