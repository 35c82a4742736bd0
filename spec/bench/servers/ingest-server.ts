/**
 * The ingest bench server: `POST /bench/ingest` takes an NDJSON body and answers how many items it held, from
 * rxrest (a `Multi` body parameter counted with RxJS) or a hand-written node:http server (line splitter and
 * `JSON.parse`), by argv[2].
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, lastValueFrom } from 'rxjs';
import { Body, Consumes, Multi, Path, POST, Produces, QueryParam, RestApplication, resolveConfig } from '../../../lib';
import { READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

@Path('bench')
class IngestBenchResource {
  @POST
  @Path('ingest')
  @Consumes('application/x-ndjson')
  @Produces('application/json')
  async ingest(@Body() rows: Multi<unknown>): Promise<{ count: number }> {
    return { count: await lastValueFrom(rows.pipe(count())) };
  }

  /** Consumes `rate` bytes a second (pulled: the socket is read only as fast as this loop goes). */
  @POST
  @Path('slow')
  @Consumes('application/x-ndjson')
  @Produces('application/json')
  async slow(@QueryParam('rate') rate: number, @Body() rows: Multi<{ pad: string }>): Promise<{ count: number }> {
    const started = Date.now();
    let items = 0;
    let bytes = 0;
    for await (const row of rows) {
      items++;
      bytes += row.pad.length + 11;
      const due = started + (bytes / rate) * 1000;
      if (due - Date.now() > 5) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    }
    return { count: items };
  }
}

/** What a careful user writes by hand: decode, split lines, parse each. */
function handWritten(): Promise<number> {
  const server = createServer((req, res) => {
    let pending = '';
    let items = 0;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line) (JSON.parse(line) as unknown, items++);
    });
    req.on('end', () => {
      if (pending) (JSON.parse(pending) as unknown, items++);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count: items }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function main(): Promise<void> {
  if (process.argv[2] === 'node') {
    process.stdout.write(`${READY_PREFIX}${await handWritten()}\n`);
    followParent(() => undefined);
    return;
  }
  const app = RestApplication.build({
    classes: [IngestBenchResource],
    config: resolveConfig({ overrides: { 'framework.http.limits.max-body-size': '2G' } }),
  });
  const server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  process.stdout.write(`${READY_PREFIX}${server.port}\n`);
  followParent(() => void server.close());
}

void main();
