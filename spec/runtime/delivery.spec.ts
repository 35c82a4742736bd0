// Answers whose clean-ups run once they are sent (a stream's place, an uploaded file), and the metrics counting them,
// on runtimes serving `fetch`. Deno 2.9 keeps a legacy `request.signal` for served requests: once read, it aborts after
// every successful answer too, and Deno warns. Neither must run a clean-up early, count a success as 499 or warn.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { call, type Answer } from './support/contract';
import { startFeatures } from './support/features';
import { ROOT, startOn, type Runtime, type RuntimeServer } from './support/runtime-server';
import { bounded, until, within } from '../support/until';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A stream request whose first chunk has arrived: `ended` resolves with the whole answer, `cut` leaves it. */
async function openStream(url: string): Promise<{ ended: Promise<string>; cut: () => void }> {
  const first = new Promise<{ ended: Promise<string>; cut: () => void }>((opened, fail) => {
    const sent = httpRequest(url, { agent: false }, (response) => {
      let text = '';
      const ended = new Promise<string>((done) => {
        response.on('end', () => done(text));
        response.on('close', () => done(text));
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (text === '') opened({ ended: bounded(ended, `the end of ${url}`), cut: () => sent.destroy() });
        text += chunk;
      });
    });
    sent.on('error', (error) => (sent.destroyed ? undefined : fail(error)));
    sent.end();
  });
  return within(first, `the first chunk of ${url}`);
}

/** The first status of `url` that is not 503, asked every 50 ms for up to 15 s (a place given back asynchronously). */
function admittedWithin(url: string): Promise<number> {
  return until(
    async () => {
      const { status } = await call(url);
      return status === 503 ? undefined : status;
    },
    `an answer other than 503 from ${url}`,
    15_000,
    50,
  );
}

/** The specs of stream places, which every runtime holds (`stream` answers `?count=` lines 50 ms apart). */
function describePlaces(server: () => RuntimeServer, stream: string, runtime: Runtime): void {
  it(`holds a stream's place on ${runtime} until its last item is sent, then gives it back`, async () => {
    const first = await openStream(`${server().url}${stream}?count=8`);
    // Halfway through its 400 ms: a clean-up run when the answer began, or at its head, has run by now.
    await pause(200);
    const refused = await call(`${server().url}${stream}?count=1`);
    const whole = await first.ended;
    expect([refused.status, whole.trim().split('\n').length]).toEqual([503, 8]);
    expect(await admittedWithin(`${server().url}${stream}?count=1`)).toBe(200);
  });

  it(`gives a stream's place back on ${runtime} when its client leaves mid-stream`, async () => {
    const endless = await openStream(`${server().url}${stream}?count=100000`);
    endless.cut();
    expect(await admittedWithin(`${server().url}${stream}?count=1`)).toBe(200);
  });
}

const json = (answer: Answer): unknown => JSON.parse(answer.body.toString('utf8'));

/**
 * The delivery application on Bun or Deno with `overrides`, one server for the specs `specs` declares: each group has
 * its own, since Deno warns once per process.
 */
function describeServed(
  runtime: 'bun' | 'deno',
  title: string,
  overrides: Record<string, string>,
  specs: (server: () => RuntimeServer, warned: () => Promise<boolean>) => void,
): void {
  describe(`${title}, on ${runtime}`, () => {
    let folder: string;
    let server: RuntimeServer;

    beforeAll(async () => {
      await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
      folder = await mkdtemp(join(ROOT, `node_modules/.cache/rxrest-${runtime}-delivery-`));
      await mkdir(join(folder, 'uploads'));
      const settings = { ...overrides, 'framework.http.body.uploads-directory': join(folder, 'uploads') };
      server = await startFeatures(runtime, settings, folder, { file: 'delivery-app', build: 'buildDeliveryApp' });
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      await rm(folder, { recursive: true, force: true });
    });

    // Deno writes its warning through a pipe of its own: give one written at an answer's end time to arrive.
    specs(
      () => server,
      async () => (await pause(200), /request\.signal/.test(server.output())),
    );
  });
}

/** No stream places: only the clean-ups (or metrics) a spec is about. */
const UNLIMITED = { 'framework.http.limits.max-streams': '0', 'framework.http.limits.max-streams-per-client': '0' };

function describeDelivery(runtime: 'bun' | 'deno'): void {
  describeServed(runtime, 'metrics', { ...UNLIMITED, 'framework.metrics.enabled': 'true' }, (server, warned) => {
    it('counts answers under the status sent, never 499, and prints no legacy-abort warning', async () => {
      const at = (path: string) => `${server().url}${path}`;
      const statuses = [];
      for (let n = 0; n < 3; n++) statuses.push((await call(at('/delivery/json'))).status);
      statuses.push((await call(at('/delivery/ticks?count=3'))).status);
      const metrics = (await call(at('/q/metrics'))).body.toString();
      expect(statuses).toEqual([200, 200, 200, 200]);
      expect(metrics).toMatch(
        /^http_server_requests_seconds_count\{[^}]*uri="\/delivery\/json",status="200"[^}]*\} 3$/m,
      );
      expect(metrics).toMatch(
        /^http_server_requests_seconds_count\{[^}]*uri="\/delivery\/ticks",status="200"[^}]*\} 1$/m,
      );
      expect(metrics).not.toMatch(/status="499"/);
      expect(await warned()).toBe(false);
    });

    // Deno tells of a client that left before its answer only through its legacy signal, which rxrest does not read.
    const counted = runtime === 'deno' ? '200' : '499';
    it(`counts an answer whose client left before it under ${counted}`, async () => {
      const socket = connect(Number(new URL(server().url).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('GET /delivery/late HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await pause(500);
      socket.destroy();
      const line = await until(
        async () => {
          const metrics = (await call(`${server().url}/q/metrics`)).body.toString();
          return /^http_server_requests_seconds_count\{[^}]*uri="\/delivery\/late"[^}]*\} \d+$/m.exec(metrics)?.[0];
        },
        'the late request counted in the metrics',
        15_000,
        50,
      );
      expect(line).toMatch(new RegExp(`status="${counted}".* 1$`));
      expect(await warned()).toBe(false);
    });
  });

  describeServed(runtime, 'uploads', UNLIMITED, (server, warned) => {
    it('keeps an uploaded file while its answer streams it, deletes it once sent, and prints no warning', async () => {
      const at = (path: string) => `${server().url}${path}`;
      const form = new FormData();
      form.append('file', new Blob(['kept until sent']), 'note.txt');
      const answer = await fetch(at('/delivery/upload'), { method: 'POST', body: form });
      const lines = (await answer.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { path: string; text: string });
      expect([answer.status, ...lines.map((line) => line.text)]).toEqual([200, ...Array(3).fill('kept until sent')]);
      const exists = async () =>
        (json(await call(at(`/delivery/exists?path=${encodeURIComponent(lines[0]!.path)}`))) as { exists: boolean })
          .exists;
      await until(async () => ((await exists()) ? undefined : true), 'the uploaded file deleted once sent', 15_000, 50);
      expect(await warned()).toBe(false);
    });
  });

  describeServed(
    runtime,
    'refused uploads',
    { ...UNLIMITED, 'framework.metrics.enabled': 'true' },
    (server, warned) => {
      it('answers an upload of the wrong type, and one its client cut short (499), and prints no warning', async () => {
        const refused = await call(`${server().url}/delivery/upload`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'not a form',
        });
        const socket = connect(Number(new URL(server().url).port), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(
          'POST /delivery/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n' +
            'Content-Length: 100000\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n' +
            'x'.repeat(5000),
        );
        await pause(200);
        socket.destroy();
        expect(refused.status).toBe(415);
        // The upload cut short is the client's leaving, as on Node: 499, not a malformed body's 400.
        const line = await until(
          async () => {
            const metrics = (await call(`${server().url}/q/metrics`)).body.toString();
            return /^http_server_requests_seconds_count\{[^}]*uri="\/delivery\/upload",status="4(?!15)\d\d"[^}]*\} \d+$/m.exec(
              metrics,
            )?.[0];
          },
          'the cut upload counted in the metrics',
          15_000,
          50,
        );
        expect(line).toMatch(/status="499"/);
        expect(await warned()).toBe(false);
      });
    },
  );

  describeServed(runtime, 'stream places', { 'framework.http.limits.max-streams': '1' }, (server, warned) => {
    describePlaces(server, '/delivery/ticks', runtime);

    it('prints no legacy-abort warning for those streams', async () => {
      expect(await warned()).toBe(false);
    });
  });
}

describeDelivery('deno');
describeDelivery('bun');

// workerd has no disk and no require() for prom-client: its stream places alone, told of a client's leaving by
// `request.signal` under enable_request_signal (workerd does not cancel the stream itself).
describe('stream places on workerd', () => {
  let server: RuntimeServer;

  beforeAll(async () => {
    server = await startOn('workerd', { overrides: { 'framework.http.limits.max-streams': 1 } });
  }, 60_000);

  afterAll(() => server?.stop());

  describePlaces(() => server, '/contract/ticks', 'workerd');
});
