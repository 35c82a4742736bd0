/**
 * Security benchmark: what `@Authenticated` with a bearer JWT (ES256, verified against a PEM key) costs on `/hello`,
 * in server CPU µs per request over the open route, from one rxrest server loaded by wrk in alternating rounds.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Jose from 'jose';
import { BENCH_ROUTES, HELLO, type BenchRoute } from './bench-routes';
import { findLoadGenerator } from './load';
import { median } from './report';
import { clockTicksPerSecond, cpuPinning, cpuTicks, startServer } from './server-process';

const ROUNDS = 5;
const SECONDS = 5;
const CONNECTIONS = 50;
const TARGET_US = 25;

/** Runs the benchmark and prints its lines; returns the row (CPU µs per request of each route and the difference). */
export async function runSecurityBench(): Promise<Record<string, number>[]> {
  const note = (line: string): void => void process.stdout.write(`${line}\n`);
  const load = findLoadGenerator(note);
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-bench-jwt-'));
  try {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyFile = join(dir, 'public.pem');
    writeFileSync(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const jose = require('jose') as typeof Jose;
    const token = await new jose.SignJWT({ groups: ['user'] })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('bench')
      .setExpirationTime('2h')
      .sign(privateKey);
    const open = BENCH_ROUTES[0]!;
    const secure: BenchRoute = {
      name: 'GET /secure/hello (bearer JWT)',
      method: 'GET',
      path: '/secure/hello',
      headers: { Authorization: `Bearer ${token}` },
      expected: HELLO,
    };
    const pinning = cpuPinning();
    const server = await startServer('rxrest', { env: { BENCH_JWT_PUBLIC_KEY: keyFile }, cpus: pinning?.server });
    const ticks = clockTicksPerSecond();
    const cost = new Map<BenchRoute, number[]>([
      [open, []],
      [secure, []],
    ]);
    note(
      `${open.path} and ${secure.path} on one rxrest server, ${load.name} with ${CONNECTIONS} connections, ${SECONDS} s per run after 1 s of warm-up, ${ROUNDS} alternating rounds${pinning ? ', pinned' : ''}`,
    );
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const route of round % 2 === 1 ? [open, secure] : [secure, open]) {
          await load.load(server.port, route, { connections: CONNECTIONS, seconds: 1, cpus: pinning?.load });
          const before = cpuTicks(server.pid);
          const result = await load.load(server.port, route, {
            connections: CONNECTIONS,
            seconds: SECONDS,
            cpus: pinning?.load,
          });
          if (result.errors > 0) note(`  WARNING ${route.path}: ${result.errors} errors (a refused token answers 401)`);
          cost.get(route)!.push((((cpuTicks(server.pid) - before) / ticks) * 1e6) / result.requests);
        }
      }
    } finally {
      await server.stop();
    }
    const openUs = median(cost.get(open)!);
    const secureUs = median(cost.get(secure)!);
    const extra = secureUs - openUs;
    note(
      `  CPU µs/request (medians): open ${openUs.toFixed(1)}, with a bearer JWT ${secureUs.toFixed(1)}: +${extra.toFixed(1)} µs (target ≤ ${TARGET_US}: ${extra <= TARGET_US ? 'meets' : 'misses'})`,
    );
    return [
      {
        openUs: Math.round(openUs * 10) / 10,
        jwtUs: Math.round(secureUs * 10) / 10,
        extraUs: Math.round(extra * 10) / 10,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
