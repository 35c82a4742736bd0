// A program run by spec/params/read-item-stream-memory.spec.ts: one endpoint that takes an NDJSON body as a Multi
// and consumes it at a fixed rate of bytes a second (INGEST_RATE), answering how many items and bytes it saw.
import { Body, Consumes, Multi, Path, POST, Produces, RestApplication } from '../../../lib';

const RATE = Number(process.env.INGEST_RATE ?? 10 * 1024 * 1024);

@Path('ingest')
class IngestResource {
  @POST
  @Consumes('application/x-ndjson')
  @Produces('application/json')
  async slow(@Body() rows: Multi<{ pad: string }>): Promise<{ items: number; bytes: number }> {
    const started = Date.now();
    let items = 0;
    let bytes = 0;
    for await (const row of rows) {
      items++;
      bytes += row.pad.length + 10;
      // Ahead of the rate: wait until it catches up (the socket is not read meanwhile).
      const due = started + (bytes / RATE) * 1000;
      if (due - Date.now() > 5) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    }
    return { items, bytes };
  }
}

async function main(): Promise<void> {
  const app = RestApplication.build({ classes: [IngestResource], overrides: { 'framework.http.limits.max-body-size': '2G' } });
  const server = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`listening on ${server.url}\n`);
}

void main();
