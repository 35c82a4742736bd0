// framework.http.limits.max-uploads-size: the bytes all uploads in progress of an application hold on disk together.
// A request whose file would pass it answers 503 with Retry-After (the server is busy, not the request too large),
// its partial file deleted; what a request held is given back when its files are deleted or it ends.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig, RestApplication } from '../../lib';
import { MultipartResource } from '../../samples/multipart/multipart-resource';
import { listingOnce, tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

const root = tempDir('upload-budget');
const BOUNDARY = 'budget-boundary';
const KB = 1024;

function build(overrides: Record<string, string> = {}) {
  const dir = mkdtempSync(join(root, 'uploads-'));
  const app = RestApplication.build({
    classes: [MultipartResource],
    config: resolveConfig({
      overrides: {
        'framework.http.body.uploads-directory': dir,
        'framework.http.limits.max-uploads-size': '64K',
        ...overrides,
      },
    }),
  });
  return { app, dir };
}

const head = new TextEncoder().encode(
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a.bin"\r\n` +
    'content-type: application/octet-stream\r\n\r\n',
);
const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);

/** A multipart upload of one file whose first `sent` bytes go at once; `finish()` sends `rest` more and ends it. */
function upload(app: ReturnType<typeof RestApplication.build>, sent: number, rest = 0) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(head);
      c.enqueue(new Uint8Array(sent).fill(1));
    },
  });
  const answer = app.fetch(
    new Request('http://localhost/multipart/all', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    } as RequestInit),
  );
  const finish = () => {
    if (rest) controller.enqueue(new Uint8Array(rest).fill(2));
    controller.enqueue(tail);
    controller.close();
    return within(Promise.resolve(answer), 'the upload to be answered');
  };
  return { answer, finish };
}

/** Bytes on disk in `dir` (the files of uploads in progress). */
function onDisk(dir: string): number {
  return readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
}

describe('framework.http.limits.max-uploads-size', () => {
  it('answers 503 with Retry-After to an upload past what all uploads in progress may hold, then takes it again', async () => {
    const { app, dir } = build();
    const first = upload(app, 40 * KB);
    await until(() => (onDisk(dir) >= 40 * KB ? true : undefined), 'the first upload on disk');
    const refused = await upload(app, 40 * KB).finish();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const problem = (await refused.json()) as { code: string; detail: string };
    expect(problem.code).toBe('RXREST_UPLOADS_FULL');
    expect(problem.detail).toContain('framework.http.limits.max-uploads-size');
    // Only the first upload's file is left: the refused one's partial file was deleted.
    expect(readdirSync(dir)).toHaveLength(1);
    expect((await first.finish()).status).toBe(200);
    expect(await listingOnce(dir)).toEqual([]);
    // The first request ended: what it held is free again.
    expect((await upload(app, 40 * KB).finish()).status).toBe(200);
  });

  it('gives back what a failed upload held when its files are deleted, before it is answered', async () => {
    const { app, dir } = build({ 'framework.http.limits.max-multipart-file-size': '50K' });
    expect((await upload(app, 40 * KB, 20 * KB).finish()).status).toBe(413);
    expect((await upload(app, 48 * KB).finish()).status).toBe(200);
    // Given back once the response has gone and the request's files are deleted.
    expect(await listingOnce(dir)).toEqual([]);
    expect((await upload(app, 48 * KB).finish()).status).toBe(200);
  });

  it('gives back what a request held when it ends with its files kept', async () => {
    const { app, dir } = build({ 'framework.http.body.delete-uploaded-files-on-end': 'false' });
    const first = await upload(app, 48 * KB).finish();
    expect(first.status).toBe(200);
    await first.text();
    // The request ends just after its response has gone: a second upload is taken from then on.
    await until(
      async () => ((await upload(app, 48 * KB).finish()).status === 200 ? true : undefined),
      'a second upload taken',
      5000,
    );
    expect(await listingOnce(dir, 2)).toHaveLength(2);
  });

  it('holds no bound at 0', async () => {
    const { app, dir } = build({ 'framework.http.limits.max-uploads-size': '0' });
    const first = upload(app, 100 * KB);
    await until(() => (onDisk(dir) >= 100 * KB ? true : undefined), 'the first upload on disk');
    expect((await upload(app, 100 * KB).finish()).status).toBe(200);
    expect((await first.finish()).status).toBe(200);
  });
});
