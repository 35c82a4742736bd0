// LocalFile bodies count in framework.http.limits.max-uploads-size, as multipart files do, over a real socket: a body
// that would pass what the uploads in progress may hold together answers 503 with Retry-After (its partial file
// deleted), and what a request held is given back when its file is deleted at its end.
import { request as httpRequest } from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Consumes, LocalFile, Path, POST, type RunningServer } from '../../lib';
import { buildApp, withServer } from '../support/app';
import { postBody } from '../support/http';
import { listingOnce, tempDir } from '../support/temp-dir';
import { until, within } from '../support/until';

const KB = 1024;
const dir = tempDir('local-file-uploads');

@Path('files')
class FileResource {
  @POST
  @Consumes('application/octet-stream')
  upload(file: LocalFile): string {
    return `${file.size}`;
  }
}

/** A POST of `size` bytes whose first `sent` go at once; `finish()` sends the rest and gives the answer. */
function upload(server: RunningServer, size: number, sent: number) {
  let text = '';
  const { port } = new URL(server.url);
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path: '/files',
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
  });
  // Not awaited when the spec fails before finish(): its connection cut at the end must not crash the run.
  answer.catch(() => undefined);
  req.write(new Uint8Array(sent).fill(1));
  return () => {
    req.end(new Uint8Array(size - sent).fill(2));
    return within(answer, 'the upload to be answered');
  };
}

const post = (server: RunningServer, body: Uint8Array) =>
  postBody(Number(new URL(server.url).port), '/files', { 'content-type': 'application/octet-stream' }, body);

const onDisk = (dir: string): number =>
  readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);

describe('LocalFile bodies and framework.http.limits.max-uploads-size', () => {
  it('answers 503 to a body past what the uploads in progress may hold, and takes one again once the file is deleted', async () => {
    const app = buildApp([FileResource], {
      'framework.http.body.uploads-directory': dir,
      'framework.http.limits.max-uploads-size': '64K',
    });
    await withServer(app, async (server) => {
      const finishFirst = upload(server, 48 * KB, 40 * KB);
      await until(() => (onDisk(dir) >= 40 * KB ? true : undefined), 'the first body on disk');
      const body = new Uint8Array(40 * KB).fill(3);
      const refused = await post(server, body);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'RXREST_UPLOADS_FULL' });
      // Only the first body's file is left: the refused one's partial file was deleted.
      expect(readdirSync(dir)).toHaveLength(1);
      expect(await finishFirst()).toEqual({ status: 200, body: String(48 * KB) });
      expect(await listingOnce(dir)).toEqual([]);
      // The first request ended and its file is deleted: what it held is free again.
      const taken = await post(server, body);
      expect(taken).toEqual({ status: 200, body: String(40 * KB) });
    });
  });
});
