import { readdirSync } from 'node:fs';
import { FileUpload, PartType, Path, POST, Produces, resolveConfig, RestApplication, RestForm } from '../../lib';
import { listingOnce, tempDir } from '../support/temp-dir';

class Meta {
  tag = '';
}

class Upload {
  @RestForm() title: string | undefined;
  @RestForm('n', { type: Number }) count: number | undefined;
  @RestForm('file', { type: FileUpload }) file: FileUpload | undefined;
  // Optional rather than `| undefined`: transpile-only emitters write Object for a union.
  @RestForm() @PartType('application/json') meta?: Meta;
}

class Plain {
  title = '';
}

@Path('container')
class ContainerResource {
  @POST
  @Produces('application/json')
  upload(upload: Upload) {
    return {
      isUpload: upload instanceof Upload,
      title: upload.title,
      count: upload.count,
      file: upload.file && { name: upload.file.fileName, size: upload.file.size },
      meta: upload.meta && { isMeta: upload.meta instanceof Meta, tag: upload.meta.tag },
    };
  }

  @POST
  @Path('plain')
  @Produces('application/json')
  plain(plain: Plain) {
    return { title: plain.title };
  }
}

const dir = tempDir('mp-container');
const app = RestApplication.build({
  classes: [ContainerResource],
  config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': dir } }),
});

async function call(
  path: string,
  body: string | FormData,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await app.fetch(new Request(`http://localhost/container${path}`, { method: 'POST', body, headers }));
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('compileContainerBodyReader', () => {
  it('reads an undecorated parameter whose class has @RestForm properties from a multipart request, part by part', async () => {
    const form = new FormData();
    form.append('title', 'Report');
    form.append('n', '3');
    form.append('file', new Blob([new Uint8Array(1234)]), 'r.pdf');
    form.append('meta', '{"tag":"q1"}');
    expect(await call('', form)).toEqual({
      status: 200,
      body: {
        isUpload: true,
        title: 'Report',
        count: 3,
        file: { name: 'r.pdf', size: 1234 },
        meta: { isMeta: true, tag: 'q1' },
      },
    });
    expect(await listingOnce(dir)).toEqual([]);
  });

  it('leaves parts that were not sent undefined', async () => {
    const form = new FormData();
    form.append('title', 'Only');
    expect(await call('', form)).toEqual({ status: 200, body: { isUpload: true, title: 'Only' } });
  });

  it('reads the same class from an urlencoded form', async () => {
    expect(await call('', 'title=Form&n=7', { 'content-type': 'application/x-www-form-urlencoded' })).toEqual({
      status: 200,
      body: { isUpload: true, title: 'Form', count: 7 },
    });
  });

  it('still reads the class from JSON when the request is not a form', async () => {
    expect(await call('', '{"title":"Json","count":2}', { 'content-type': 'application/json' })).toEqual({
      status: 200,
      body: { isUpload: true, title: 'Json', count: 2 },
    });
  });

  it('answers 400 when a container part fails to convert', async () => {
    const form = new FormData();
    form.append('n', 'many');
    expect((await call('', form)).status).toBe(400);
  });

  it('keeps a class without @RestForm properties a JSON body: a multipart request is 415', async () => {
    const form = new FormData();
    form.append('title', 'x');
    expect((await call('/plain', form)).status).toBe(415);
    expect(await call('/plain', '{"title":"j"}', { 'content-type': 'application/json' })).toEqual({
      status: 200,
      body: { title: 'j' },
    });
  });
});
