// The uploads directory is the server's: removed while it runs (a temp cleaner, an operator), it is made again for the
// next upload; a disk that refuses a file is the server's failure. Made once per process, a removed directory failed
// every later upload, each answered 400 "malformed or truncated" with the server's own path in its detail.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Consumes, FileUpload, Path, POST, resolveConfig, RestApplication, RestForm } from '../../lib';
import { tempDir } from '../support/temp-dir';

@Path('up')
class UploadResource {
  @POST
  @Consumes('multipart/form-data')
  upload(@RestForm() file: FileUpload): string {
    return String(file.size);
  }
}

const uploading = (directory: string) =>
  RestApplication.build({
    classes: [UploadResource],
    config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': directory } }),
  });

async function upload(app: ReturnType<typeof uploading>): Promise<[number, string]> {
  const form = new FormData();
  form.append('file', new Blob(['abc']), 'a.txt');
  const res = await app.fetch(new Request('http://localhost/up', { method: 'POST', body: form }));
  return [res.status, await res.text()];
}

describe('the uploads directory', () => {
  const root = tempDir('uploads-gone');

  it('is made again for the next upload once removed', async () => {
    const directory = join(root, 'uploads');
    const app = uploading(directory);
    expect(await upload(app)).toEqual([200, '3']);
    rmSync(directory, { recursive: true });
    expect(await upload(app)).toEqual([200, '3']);
  });

  it('answers the 500 problem, naming no path, when the disk refuses a file', async () => {
    // A directory that exists but takes no new file.
    const [status, body] = await upload(uploading('/proc/self'));
    expect(status).toBe(500);
    expect(body).not.toContain('/proc');
    expect(JSON.parse(body)).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
  });
});
