// Metrics across framework.http.workers, over real processes: the samples with two workers take 10,000 requests
// through the shared port, and one scrape (whichever worker gets it) shows all 10,000, and as many open streams as
// are really open, the primary having summed both workers' registries.
import { request, type ClientRequest } from 'node:http';
import { startSamples, type SamplesProcess } from '../support/samples-process';
import { until } from '../support/until';

let samples: SamplesProcess;

beforeAll(async () => {
  samples = await startSamples({ FRAMEWORK_HTTP_WORKERS: '2' });
}, 60_000);

afterAll(() => samples?.crash());

/** The value of the sample `name{labels}` in a Prometheus text, 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text
    .split('\n')
    .find((candidate) =>
      labels ? candidate.startsWith(`${name}{`) && candidate.includes(labels) : candidate.startsWith(`${name} `),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const scrape = async () => (await fetch(`${samples.url}/q/metrics`, { headers: { connection: 'close' } })).text();

/** Opens an SSE stream on a connection of its own (so the primary hands it to the next worker). */
function openStream(): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(`${samples.url}/chat/stream`, { agent: false }, (res) => {
      res.resume();
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('metrics with two workers', () => {
  it('count every request of both workers in one scrape', async () => {
    const total = 10_000;
    let sent = 0;
    // 50 clients at a time, each on connections the primary spreads over the workers.
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (sent < total) {
          sent++;
          const response = await fetch(`${samples.url}/fruits`);
          await response.arrayBuffer();
          expect(response.status).toBe(200);
        }
      }),
    );
    const uri = 'uri="/fruits",status="200"';
    for (let scrapes = 0; scrapes < 4; scrapes++)
      expect(sample(await scrape(), 'http_server_requests_seconds_count', uri)).toBe(total);
  }, 120_000);

  it('show as many open streams as the workers really hold together', async () => {
    const streams = await Promise.all(Array.from({ length: 3 }, () => openStream()));
    await until(
      async () => (sample(await scrape(), 'rxrest_streams_active', '') === 3 ? true : undefined),
      'three open streams in a scrape',
    );
    for (const stream of streams) stream.destroy();
    await until(
      async () => (sample(await scrape(), 'rxrest_streams_active', '') === 0 ? true : undefined),
      'no open stream in a scrape',
    );
  }, 60_000);
});
