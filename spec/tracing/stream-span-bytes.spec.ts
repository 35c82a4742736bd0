// The stream span's byte count is the bytes on the wire, UTF-8, whichever way the stream wrote them: text framed for
// one stream, or a broadcast tick's bytes encoded once for every subscriber.
import { request } from 'node:http';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { from } from 'rxjs';
import { GET, Path, Produces, broadcast, multi, type Multi, type SseEvent } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { until, within } from '../support/until';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

afterAll(() => provider.shutdown());
beforeEach(() => exporter.reset());

/** Items whose characters take two, three and four bytes each in UTF-8. */
const ACCENTED = ['café', 'naïve € 3', '😀 ok', 'plain'];

const news = broadcast<string>('span-bytes-news');

@Path('accents')
class AccentResource {
  @GET
  @Produces('text/event-stream')
  accents(): Multi<string> {
    return multi(from(ACCENTED));
  }

  @GET
  @Path('news')
  @Produces('text/event-stream')
  news(): Multi<SseEvent> {
    return news.subscribe();
  }
}

/** The bytes of a GET's body, read until `enough` holds of its text (then the connection is cut) or its end. */
function readBody(url: string, enough: (text: string) => boolean = () => false): Promise<Buffer> {
  return within(
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const sent = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (enough(Buffer.concat(chunks).toString('utf8'))) {
            sent.destroy();
            resolve(Buffer.concat(chunks));
          }
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
      });
      sent.on('error', reject);
      sent.end();
    }),
    `the body of ${url}`,
  );
}

const spanNamed = (name: string): ReadableSpan | undefined =>
  exporter.getFinishedSpans().find((span) => span.name === name);

describe('the stream span', () => {
  it("counts a stream's bytes in UTF-8: non-ASCII items count as the bytes the client received", async () => {
    await withServer(buildApp([AccentResource]), async (server) => {
      const body = await readBody(`${server.url}/accents`);
      expect(body.toString('utf8').match(/^data:.*$/gm)).toEqual(ACCENTED.map((item) => `data:${item}`));
      const span = await until(() => spanNamed('GET /accents stream'), 'the stream span');
      expect(span.attributes['rxrest.stream.bytes']).toBe(body.length);
    });
  });

  it("counts a broadcast topic's ticks in the same unit, the bytes the subscriber received", async () => {
    await withServer(buildApp([AccentResource]), async (server) => {
      const reading = readBody(
        `${server.url}/accents/news`,
        (text) => text.includes('data:😀 ok') && text.lastIndexOf('data:plain') > text.indexOf('data:😀 ok'),
      );
      // The subscription starts once the head is out: publish until it has the first event.
      let received: Buffer | undefined;
      void reading.then((body) => (received = body));
      await until(
        async () => {
          if (received) return true;
          for (const item of ACCENTED) await news.publish(item);
          return undefined;
        },
        'the subscriber to receive the events published',
        15_000,
        20,
      );
      const body = await reading;
      expect(body.toString('utf8')).toContain('data:😀 ok');
      const span = await until(() => spanNamed('GET /accents/news stream'), 'the stream span');
      expect(span.attributes['rxrest.stream.bytes']).toBe(body.length);
    });
  });
});
