import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { call, describeContract, leaveEndlessStream, type Answer } from './support/contract';
import { JwksServer } from './support/jwks';
import { until } from '../support/until';
import { startOn, type RuntimeServer } from './support/runtime-server';

// Without nodejs_compat (as docs/runtimes.md asks): no Buffer, no process, no Node built-in, only the Web platform.
describeContract('workerd');

// With it, rxrest takes what Node's built-ins give (node:zlib compresses event streams, node:crypto hashes API keys).
describeContract('workerd', undefined, {
  title: 'the contract application on workerd with nodejs_compat',
  compatibilityFlags: ['nodejs_compat', 'enable_request_signal'],
});

describe('streams on workerd without enable_request_signal (the client leaving is not told)', () => {
  let server: RuntimeServer;
  const at = (path: string) => `${server.url}${path}`;
  const open = async () => (JSON.parse((await call(at('/contract/open'))).body.toString()) as { open: number }).open;

  beforeAll(async () => {
    server = await startOn('workerd', {
      compatibilityFlags: [],
      overrides: {
        'framework.runtime.workerd.stream-stall-timeout': '1s',
        'framework.runtime.workerd.stream-max-duration': '3s',
      },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('ends a stream whose client left once a write goes untaken (its clean-up runs)', async () => {
    await leaveEndlessStream(at('/contract/endless'));
    await until(
      async () => ((await open()) === 0 ? true : undefined),
      'no stream open once its client left',
      15_000,
      100,
    );
  }, 30_000);

  it('ends a stream that a client reads after the maximum duration, cleanly', async () => {
    const started = Date.now();
    const answer = await call(at('/contract/endless'), { headers: { accept: 'text/event-stream' } });
    const took = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body.toString().match(/^data:\d+$/gm)!.length).toBeGreaterThan(10);
    expect(took).toBeGreaterThanOrEqual(2900);
    // Ended near its maximum duration (3 s), not run on: the margin is for a loaded machine's slow reads.
    expect(took).toBeLessThan(12_000);
    expect(await open()).toBe(0);
  }, 20_000);
});

describe('a package handed in to a Worker bundle (jose for bearer JWTs)', () => {
  const jwks = new JwksServer();
  let server: RuntimeServer;

  beforeAll(async () => {
    const url = await jwks.start();
    server = await startOn('workerd', {
      fixture: { file: 'secure-app', build: 'buildSecureApp' },
      overrides: jwks.settings(url),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await jwks.close();
  });

  it('verifies a JWT on workerd with the jose the bundle handed in', async () => {
    const token = await jwks.sign('alice', ['user']);
    const answer = await call(`${server.url}/secure/me`, { headers: { authorization: `Bearer ${token}` } });
    expect([answer.status, JSON.parse(answer.body.toString())]).toEqual([200, { name: 'alice', roles: ['user'] }]);
    const refused = await call(`${server.url}/secure/me`, { headers: { authorization: 'Bearer not.a.token' } });
    expect(refused.status).toBe(401);
  });
});

describe('compression on workerd without nodejs_compat (no node:zlib)', () => {
  let server: RuntimeServer;
  const text = 'rxrest on every runtime. '.repeat(200);

  beforeAll(async () => {
    server = await startOn('workerd', {
      // Event streams are compressed where zlib can flush each event.
      overrides: { 'framework.http.compress-media-types': 'text/plain,text/event-stream' },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  /** What the application answered inside workerd, before Miniflare's front line re-encodes it. */
  async function inside(path: string, acceptEncoding: string) {
    const answer = await call(`${server.url}/inside${path}`, { headers: { 'x-accept-encoding': acceptEncoding } });
    const made = JSON.parse(answer.body.toString()) as { headers: Record<string, string>; body: string };
    return { encoding: made.headers['content-encoding'], body: Buffer.from(made.body, 'base64') };
  }

  it('encodes gzip and deflate a client can decode, and offers no brotli', async () => {
    const gzipped = await inside('/contract/text', 'br, gzip');
    expect(gzipped.encoding).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(text);
    const deflated = await inside('/contract/text', 'deflate');
    expect(deflated.encoding).toBe('deflate');
    expect(inflateSync(deflated.body).toString()).toBe(text);
    // Through Miniflare's front line too, as a client gets it.
    const answer = await call(`${server.url}/contract/text`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(answer.body).toString()).toBe(text);
  });

  it('sends an event stream unencoded, each event as it comes', async () => {
    const answer = await call(`${server.url}/contract/events`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'identity' },
    });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString().match(/^data:.*$/gm)).toEqual(['data:0', 'data:1', 'data:2']);
    const events = answer.chunks.filter((chunk) => chunk.text.includes('data:'));
    expect(events.at(-1)!.at - events[0]!.at).toBeGreaterThan(300);
  });
});

/** The peak resident memory (VmHWM, bytes) of the workerd process below `pid` (Linux's /proc). */
function peakOf(pid: number): number {
  const children = (of: number): number[] =>
    readFileSync(`/proc/${of}/task/${of}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  const pending = [pid];
  while (pending.length) {
    const next = pending.shift()!;
    if (readFileSync(`/proc/${next}/comm`, 'utf8').trim() === 'workerd') {
      const status = readFileSync(`/proc/${next}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
    }
    pending.push(...children(next));
  }
  throw new Error(`no workerd process below ${pid}`);
}

describe('gzip request bodies on workerd without nodejs_compat (no node:zlib)', () => {
  let server: RuntimeServer;
  const text = 'rxrest inflates on every runtime. '.repeat(3000);
  /** The answer's status and JSON (a @GZIP method's answers are gzip too, Miniflare's front line may keep it). */
  const post = async (body: Buffer) => {
    const answer = await call(`${server.url}/contract/inflated`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'accept-encoding': 'gzip' },
      body,
    });
    const bytes = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
    return [answer.status, JSON.parse(bytes.toString())] as [number, Record<string, unknown>];
  };
  /** What went into workerd's DecompressionStream and came out of it (the prelude counts both). */
  const inflation = async () =>
    JSON.parse((await call(`${server.url}/probe`, { headers: { 'accept-encoding': 'identity' } })).body.toString()) as {
      input: number;
      output: number;
    };

  beforeAll(async () => {
    server = await startOn('workerd', {
      // The platform's DecompressionStream, wrapped to count the compressed bytes written to it and those inflated.
      prelude: `const Native = globalThis.DecompressionStream;
  globalThis.probe = { input: 0, output: 0 };
  const counter = (key) => new TransformStream({ transform(chunk, controller) { globalThis.probe[key] += chunk.byteLength; controller.enqueue(chunk); } });
  globalThis.DecompressionStream = class {
    constructor(format) {
      const native = new Native(format);
      const input = counter('input');
      input.readable.pipeTo(native.writable).catch(() => undefined);
      this.writable = input.writable;
      this.readable = native.readable.pipeThrough(counter('output'));
    }
  };`,
      overrides: { 'framework.legacy.gzip.enabled': true, 'framework.legacy.gzip.max-input': '1M' },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('hands a @GZIP method the inflated body', async () => {
    expect(await post(gzipSync(text))).toEqual([200, { length: text.length, head: text.slice(0, 20) }]);
  });

  it('answers 400 for a body that is not gzip, is cut short, or has a second member (which workerd refuses)', async () => {
    const members = Buffer.concat([gzipSync(text), gzipSync(text)]);
    for (const body of [Buffer.from('not gzip at all'), gzipSync(text).subarray(0, 200), members]) {
      expect(await post(body)).toMatchObject([400, { code: 'RXREST_MALFORMED_BODY' }]);
    }
  });

  it('answers 413 for a gzip bomb without inflating it whole', async () => {
    const bomb = gzipSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 });
    const before = await inflation();
    const peakBefore = peakOf(server.pid);
    expect(await post(bomb)).toMatchObject([413, { code: 'RXREST_BODY_TOO_LARGE' }]);
    const after = await inflation();
    // 100 MiB of zeros is about 100 KB of gzip; the limit of 1 MiB needs about 1 KB of it. workerd inflates each
    // write at once, whole: had it been given the bomb, its memory would have grown by 150 MB (measured).
    expect(after.output - before.output).toBeLessThan(2 * 1024 * 1024);
    expect(after.input - before.input).toBeLessThan(bomb.length / 10);
    expect(peakOf(server.pid) - peakBefore).toBeLessThan(48 * 1024 * 1024);
  });
});

describe('features that need Node, on workerd without nodejs_compat', () => {
  let server: RuntimeServer;
  const at = (path: string) => `${server.url}${path}`;
  const text = async (answer: Promise<Answer>) => {
    const { status, headers, body } = await answer;
    return [status, (headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString()] as const;
  };

  beforeAll(async () => {
    server = await startOn('workerd', {
      fixture: { file: 'node-only-app', build: 'buildNodeOnlyApp' },
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('stop their build, naming the runtime and the feature', async () => {
    const builds = JSON.parse((await text(call(at('/node-only/builds'))))[1]) as Record<string, string>;
    const refused = (feature: string) =>
      expect.stringMatching(
        new RegExp(`${feature} needs Node's node:\\S+, which Cloudflare Workers \\(workerd\\) does not provide`),
      );
    expect(builds).toEqual({
      upload: refused('UploadResource#upload\\(file\\d*\\): multipart forms \\(files, MultipartFormDataInput\\)'),
      saved: refused('SavedResource#saved\\(file\\d*\\): bodies saved to disk \\(LocalFile parameters\\)'),
      parts: refused('PartsResource#parts\\(input\\d*\\): multipart forms \\(files, MultipartFormDataInput\\)'),
      report: refused('ReportResource#report: file results \\(LocalFile, FilePart\\) returned from a method'),
      static: refused('static files \\(framework.http.static.directory\\)'),
    });
  });

  it('answers a file result no build could see with a 500 problem, naming the feature and the runtime in the log', async () => {
    const [status, body] = await text(call(at('/node-only/file')));
    expect([status, JSON.parse(body)]).toMatchObject([500, { status: 500 }]);
    expect(body).not.toMatch(/hostname|node:|at /);
    // The runtime's log may come after the answer.
    await until(() => (server.output().includes('NodeOnlyResource#file') ? true : undefined), 'the log', 5000);
    expect(server.output()).toMatch(
      /NodeOnlyResource#file: file results \(LocalFile, FilePart\) returned from a method needs Node's node:\S+, which Cloudflare Workers \(workerd\) does not provide/,
    );
  });

  it('reads an urlencoded form, and answers a multipart one with 415', async () => {
    const form = (type: string, body: string) =>
      text(call(at('/node-only/form'), { method: 'POST', headers: { 'content-type': type }, body }));
    expect(await form('application/x-www-form-urlencoded', 'name=workerd')).toEqual([200, 'hello workerd']);
    const [status, problem] = await form(
      'multipart/form-data; boundary=b',
      '--b\r\ncontent-disposition: form-data; name="name"\r\n\r\nworkerd\r\n--b--\r\n',
    );
    expect([status, JSON.parse(problem)]).toMatchObject([415, { code: 'RXREST_UNSUPPORTED_MEDIA_TYPE' }]);
  });

  it('authenticates API keys through Web Crypto', async () => {
    expect(await text(call(at('/node-only/keyed'), { headers: { 'x-api-key': 'the-key' } }))).toEqual([
      200,
      'ops as admin',
    ]);
    expect((await call(at('/node-only/keyed'), { headers: { 'x-api-key': 'the-kez' } })).status).toBe(401);
  });
});

describe('files on disk, on workerd with nodejs_compat (a node:fs without the application’s files)', () => {
  let server: RuntimeServer;
  const noDisk = (feature: string) =>
    expect.stringMatching(
      new RegExp(`${feature} needs files on a local disk, which Cloudflare Workers \\(workerd\\) does not have`),
    );

  beforeAll(async () => {
    server = await startOn('workerd', {
      fixture: { file: 'node-only-app', build: 'buildNodeOnlyApp' },
      compatibilityFlags: ['nodejs_compat', 'enable_request_signal'],
    });
  }, 60_000);

  afterAll(() => server?.stop());

  it('stop the build of static files and of a method declared to return a file', async () => {
    const builds = JSON.parse((await call(`${server.url}/node-only/builds`)).body.toString()) as Record<string, string>;
    expect(builds).toMatchObject({
      report: noDisk('ReportResource#report: file results \\(LocalFile, FilePart\\) returned from a method'),
      static: noDisk('static files \\(framework.http.static.directory\\)'),
    });
  });

  it('answers a file result no build could see with a 500 problem, naming the feature and the runtime in the log', async () => {
    const { status, body } = await call(`${server.url}/node-only/file`);
    expect([status, JSON.parse(body.toString())]).toMatchObject([500, { status: 500 }]);
    expect(body.toString()).not.toMatch(/hostname|node:|at /);
    // The runtime's log may come after the answer.
    await until(() => (server.output().includes('NodeOnlyResource#file') ? true : undefined), 'the log', 5000);
    expect(server.output()).toMatch(
      /NodeOnlyResource#file: file results \(LocalFile, FilePart\) returned from a method needs files on a local disk, which Cloudflare Workers \(workerd\) does not have/,
    );
  });

  it('fails localFile() in a method as a 500 problem, naming the feature and the runtime in the log', async () => {
    const { status, body } = await call(`${server.url}/node-only/made-file`);
    expect([status, JSON.parse(body.toString())]).toMatchObject([500, { status: 500 }]);
    expect(body.toString()).not.toMatch(/hostname|node:|at /);
    const logged =
      /Error: file results \(LocalFile, FilePart\) returned from a method needs files on a local disk, which Cloudflare Workers \(workerd\) does not have/;
    // The runtime's log may come after the answer.
    await until(() => (logged.test(server.output()) ? true : undefined), 'the log', 5000);
    expect(server.output()).toMatch(logged);
  });
});
