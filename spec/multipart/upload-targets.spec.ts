import type { FileHandle } from 'node:fs/promises';
import {
  FileUpload,
  MultipartFormDataInput,
  Path,
  POST,
  RestApplication,
  RestForm,
  UploadedFileHandle,
  resolveConfig,
} from '../../lib';
import { listingOnce, tempDir } from '../support/temp-dir';
import { until } from '../support/until';

const uploads = tempDir('upload-targets');
const handles: FileHandle[] = [];

@Path('uploads')
class UploadResource {
  @POST @Path('handle') async handle(@RestForm('doc', { type: UploadedFileHandle }) doc: FileHandle | undefined) {
    if (!doc) return { absent: true };
    handles.push(doc);
    return { text: (await doc.readFile()).toString('utf8') };
  }

  @POST @Path('all') async all(input: MultipartFormDataInput) {
    const files = input.files();
    return {
      parts: input.parts.map((part) => part.name),
      files: await Promise.all(
        files.map(async (file: FileUpload) => ({
          name: file.name,
          same: file.uploadedFile() === file.path,
          text: await file.open().then(async (handle) => {
            try {
              return (await handle.readFile()).toString('utf8');
            } finally {
              await handle.close();
            }
          }),
        })),
      ),
    };
  }
}

const app = RestApplication.build({
  classes: [UploadResource],
  config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': uploads } }),
});

function post(path: string, form: FormData): Promise<Response> {
  return Promise.resolve(app.fetch(new Request(`http://localhost/uploads/${path}`, { method: 'POST', body: form })));
}

describe('upload targets', () => {
  it('hands an UploadedFileHandle part an open handle, closed once the request completed', async () => {
    const form = new FormData();
    form.append('doc', new Blob(['handled text'], { type: 'text/plain' }), 'doc.txt');
    expect(await (await post('handle', form)).json()).toEqual({ text: 'handled text' });
    // A closed FileHandle has the descriptor -1.
    await until(() => (handles[0]!.fd === -1 ? true : undefined), 'the handle to be closed');
    expect(await listingOnce(uploads)).toEqual([]);
  });

  it('gives undefined to an UploadedFileHandle part that was not sent, or not as a file', async () => {
    const other = new FormData();
    other.append('other', 'text');
    expect(await (await post('handle', other)).json()).toEqual({ absent: true });
    const text = new FormData();
    text.append('doc', 'a text field, no file');
    expect(await (await post('handle', text)).json()).toEqual({ absent: true });
  });

  it("lists a MultipartFormDataInput's parts in order and its files, each readable by path or opened", async () => {
    const form = new FormData();
    form.append('note', 'not a file');
    form.append('first', new Blob(['one']), 'one.txt');
    form.append('second', new Blob(['two']), 'two.txt');
    const body = await (await post('all', form)).json();
    expect(body).toEqual({
      parts: ['note', 'first', 'second'],
      files: [
        { name: 'first', same: true, text: 'one' },
        { name: 'second', same: true, text: 'two' },
      ],
    });
    expect(await listingOnce(uploads)).toEqual([]);
  });
});
