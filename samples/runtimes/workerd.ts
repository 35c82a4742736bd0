/**
 * `npm run start:workerd`: bundles the samples Worker (`worker.ts`, compiled) for workerd as a Worker bundler would,
 * with no alias and no banner, and serves it with Miniflare on PORT (default 8080).
 */
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The compatibility rxrest asks of workerd: `enable_request_signal` alone, so a client leaving aborts `request.signal`
 * (workerd does not cancel the answer's stream). No `nodejs_compat`: rxrest's core uses no Node built-in or global
 * there, and what needs a disk (multipart uploads, static files) is left out of the samples on Workers.
 */
export const WORKERD_COMPATIBILITY = {
  compatibilityDate: '2026-07-01',
  compatibilityFlags: ['enable_request_signal'],
};

/**
 * The samples Worker (`worker.ts`, compiled) in one ES module, configured by `properties` (the text of
 * samples/application.properties, which a Worker has no disk to read); `plugins` may compile the sources on the way
 * (the suite bundles `worker.ts` itself, with decorator metadata).
 */
export async function bundleWorker(entry: string, properties: string, plugins: Plugin[] = []): Promise<string> {
  const contents = `import { samplesWorker } from ${JSON.stringify(entry)};
export default samplesWorker(${JSON.stringify(properties)});`;
  const result = await build({
    stdin: { contents, resolveDir: __dirname },
    plugins,
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    conditions: ['workerd', 'worker'],
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

async function main(): Promise<void> {
  const samples = join(__dirname.replace(/[\\/]dist[\\/]samples[\\/]runtimes$/, '/samples/runtimes'), '..');
  const script = await bundleWorker(
    join(__dirname, 'worker.js'),
    readFileSync(join(samples, 'application.properties'), 'utf8'),
  );
  const server = new Miniflare({
    modules: true,
    script,
    ...WORKERD_COMPATIBILITY,
    port: Number(process.env.PORT ?? 8080),
    host: process.env.HOST ?? '0.0.0.0',
  });
  const url = await server.ready;
  process.stdout.write(`rxrest samples listening on ${url.href.replace(/\/$/, '')} (workerd)\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.dispose());
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
