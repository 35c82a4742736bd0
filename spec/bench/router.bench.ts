// Micro-benchmark of parseRequestPath + Router.match on 100 routes; run: npm run build && node dist/spec/bench/router.bench.js
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { compilePathTemplate, joinPaths } from '../../lib/routing/path-template';
import { parseRequestPath } from '../../lib/routing/request-path';
import { Router } from '../../lib/routing/router';

const RESOURCES = 25;

/** 25 resources under `/api`, four templates each: 100 templates, 25 of them literal. */
function buildRouter(): Router<string> {
  const router = new Router<string>();
  for (let r = 0; r < RESOURCES; r++) {
    for (const [path, method] of [
      ['', 'GET'],
      ['{id}', 'GET'],
      ['{id: \\d+}/items', 'GET'],
      ['{id}/items/{item}', 'DELETE'],
    ] as const) {
      router.add(compilePathTemplate(joinPaths('/api', `resource${r}`, path)), method);
    }
  }
  router.freeze();
  return router;
}

function measure(label: string, paths: readonly string[], work: (path: string) => unknown): void {
  const rounds = 2_000_000;
  let sink = 0;
  for (let i = 0; i < 200_000; i++) sink += work(paths[i % paths.length] as string) === undefined ? 0 : 1;
  const start = performance.now();
  for (let i = 0; i < rounds; i++) sink += work(paths[i % paths.length] as string) === undefined ? 0 : 1;
  const nanoseconds = ((performance.now() - start) * 1e6) / rounds;
  process.stdout.write(`${label.padEnd(44)} ${nanoseconds.toFixed(0).padStart(5)} ns/op  (${sink % 7})\n`);
}

/** Each case runs in its own process so that one case's type feedback cannot slow another down. */
function cases(): Record<string, [paths: readonly string[], work: (path: string) => unknown]> {
  const router = buildRouter();
  const literal = Array.from({ length: RESOURCES }, (_, r) => `/api/resource${r}`);
  const oneVariable = literal.map((path, r) => `${path}/id-${r}`);
  const parseAndMatch = (path: string): unknown => {
    const parsed = parseRequestPath(path);
    return parsed === undefined ? undefined : router.match(parsed.path)[0]?.params;
  };
  return {
    'parseRequestPath, plain path': [oneVariable, parseRequestPath],
    'parseRequestPath, %-escape and matrix': [['/api/caf%C3%A9;v=1/x'], parseRequestPath],
    'match literal': [literal, (path) => router.match(path)[0]],
    'match {id} + read params': [oneVariable, (path) => router.match(path)[0]?.params],
    'match {id: \\d+}/items': [literal.map((path, r) => `${path}/${r}/items`), (path) => router.match(path)[0]],
    'match {id}/items/{item} + read params': [
      literal.map((path, r) => `${path}/${r}/items/x${r}`),
      (path) => router.match(path)[0]?.params,
    ],
    'match nothing': [literal.map((path) => `${path}/a/b/c/d`), (path) => router.match(path)[0]],
    'parse + match {id} + params': [oneVariable, parseAndMatch],
  };
}

function main(): void {
  const only = process.argv[2];
  const all = cases();
  if (only !== undefined) {
    const [paths, work] = all[only] as [readonly string[], (path: string) => unknown];
    measure(only, paths, work);
    return;
  }
  for (const name of Object.keys(all)) {
    process.stdout.write(execFileSync(process.execPath, [__filename, name], { encoding: 'utf8' }));
  }
}

if (require.main === module) main();
