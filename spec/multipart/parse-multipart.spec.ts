import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import {
  Consumes,
  FileUpload,
  MultipartFormDataInput,
  MultipartPartReadingException,
  PartType,
  Path,
  POST,
  Produces,
  resolveConfig,
  RestApplication,
  RestForm,
  RestResponse,
  ServerExceptionMapper,
  UploadedFilePath,
  type RunningServer,
} from '../../lib';
import { listingOnce, tempDir } from '../support/temp-dir';

class Person {
  firstName = '';
}

@Path('up')
class UploadResource {
  @POST
  @Consumes('multipart/form-data')
  @Produces('application/json')
  one(@RestForm() name: string, @RestForm('file') file: FileUpload) {
    return { name, size: file?.size ?? null };
  }

  @POST
  @Path('list')
  @Produces('application/json')
  list(
    @RestForm('f', { type: [FileUpload] }) files: FileUpload[],
    @RestForm(FileUpload.ALL, { type: [FileUpload] }) all: FileUpload[],
    @RestForm('f', { type: UploadedFilePath }) path: string,
  ) {
    return { same: files.map((f) => f.fileName), all: all.map((f) => f.name), path: typeof path };
  }

  @POST
  @Path('person')
  @Produces('application/json')
  person(@RestForm() @PartType('application/json') person: Person) {
    return { isPerson: person instanceof Person, person };
  }

  @POST
  @Path('input')
  @Produces('application/json')
  input(input: MultipartFormDataInput) {
    return {
      names: [...input.getValues().keys()],
      proto: Object.getPrototypeOf({}) === Object.prototype && !('polluted' in {}),
    };
  }

  @POST
  @Path('fail')
  fail(@RestForm('file') _file: FileUpload): string {
    throw new Error('boom');
  }
}

class PartMapper {
  @ServerExceptionMapper()
  map(_error: MultipartPartReadingException) {
    return RestResponse.status(422);
  }
}

const dir = tempDir('mp-limits');
const config = resolveConfig({
  overrides: {
    'framework.http.body.uploads-directory': dir,
    'framework.http.limits.max-body-size': '64K',
    'framework.http.limits.max-parts': '5',
  },
});
const app = RestApplication.build({ classes: [UploadResource], config });

const emptied = (): Promise<string[]> => listingOnce(dir);

async function post(path: string, form: FormData): Promise<{ status: number; body: unknown }> {
  const res = await app.fetch(new Request(`http://localhost/up${path}`, { method: 'POST', body: form }));
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

function file(size: number, name = 'f.bin'): [Blob, string] {
  return [new Blob([new Uint8Array(size)]), name];
}

afterEach(async () => expect(await emptied()).toEqual([]));

describe('parseMultipart', () => {
  it('binds text and file parts and reads a text part sent as a file into a string', async () => {
    const form = new FormData();
    form.append('name', new Blob(['from a file']), 'name.txt');
    form.append('file', ...file(1000));
    expect(await post('', form)).toEqual({ status: 200, body: { name: 'from a file', size: 1000 } });
  });

  it('collects repeated names into lists, every file with FileUpload.ALL, and a path', async () => {
    const form = new FormData();
    form.append('f', ...file(10, 'a'));
    form.append('f', ...file(10, 'b'));
    form.append('g', ...file(10, 'c'));
    expect(await post('/list', form)).toEqual({
      status: 200,
      body: { same: ['a', 'b'], all: ['f', 'f', 'g'], path: 'string' },
    });
  });

  it('answers 413 for a text part over max-form-attribute-size (2048 by default)', async () => {
    const form = new FormData();
    form.append('name', 'x'.repeat(2049));
    form.append('file', ...file(100));
    const res = await post('', form);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'RXREST_PART_TOO_LARGE' });
  });

  it('accepts a text part of exactly max-form-attribute-size', async () => {
    const form = new FormData();
    form.append('name', 'x'.repeat(2048));
    expect((await post('', form)).status).toBe(200);
  });

  it('answers 413 and deletes the partial file for a file over max-body-size', async () => {
    const form = new FormData();
    form.append('file', ...file(100 * 1024));
    expect((await post('', form)).status).toBe(413);
  });

  it('answers 413 for a part whose name makes its headers larger than max-header-size', async () => {
    const form = new FormData();
    form.append('n'.repeat(30_000), 'value');
    const res = await post('/input', form);
    expect(res).toEqual({
      status: 413,
      body: expect.objectContaining({
        code: 'RXREST_PART_TOO_LARGE',
        detail: "A part's headers are larger than 16384 bytes",
      }),
    });
  });

  it('answers 413 beyond max-parts', async () => {
    const form = new FormData();
    for (let i = 0; i < 6; i++) form.append('f', ...file(10));
    expect((await post('/list', form)).status).toBe(413);
  });

  it('answers 400 MultipartPartReadingException for an unreadable JSON part, and a mapper may answer otherwise', async () => {
    const form = new FormData();
    form.append('person', new Blob(['{nope'], { type: 'application/json' }), 'p.json');
    const res = await post('/person', form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'RXREST_PART_UNREADABLE' });
    const mapped = RestApplication.build({ classes: [UploadResource, PartMapper], config });
    const again = new FormData();
    again.append('person', new Blob(['{nope'], { type: 'application/json' }), 'p.json');
    const res2 = await mapped.fetch(new Request('http://localhost/up/person', { method: 'POST', body: again }));
    await res2.text();
    expect(res2.status).toBe(422);
  });

  it('reads a JSON part into an instance of its class', async () => {
    const form = new FormData();
    form.append('person', '{"firstName":"Ada"}');
    expect(await post('/person', form)).toEqual({
      status: 200,
      body: { isPerson: true, person: { firstName: 'Ada' } },
    });
  });

  it('keeps __proto__ part names as plain map keys', async () => {
    const form = new FormData();
    form.append('__proto__', 'polluted');
    form.append('constructor', ...file(5));
    expect(await post('/input', form)).toEqual({
      status: 200,
      body: { names: ['__proto__', 'constructor'], proto: true },
    });
  });

  it('answers 400 for a truncated body and deletes what was written', async () => {
    const boundary = 'XyZ';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'a'.repeat(5000)}`;
    const res = await app.fetch(
      new Request('http://localhost/up', {
        method: 'POST',
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'RXREST_MALFORMED_MULTIPART' });
  });

  it('answers 400 without a boundary', async () => {
    const res = await app.fetch(
      new Request('http://localhost/up', {
        method: 'POST',
        body: 'x',
        headers: { 'content-type': 'multipart/form-data' },
      }),
    );
    await res.text();
    expect(res.status).toBe(400);
  });

  it('answers 400 for a multipart request without a body', async () => {
    const res = await app.fetch(
      new Request('http://localhost/up', {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    );
    expect([res.status, ((await res.json()) as { detail: string }).detail]).toEqual([
      400,
      'The multipart/form-data request has no body',
    ]);
  });

  it('deletes uploads when the endpoint fails', async () => {
    const form = new FormData();
    form.append('file', ...file(100));
    expect((await post('/fail', form)).status).toBe(500);
  });
});

describe('parseMultipart over a socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
  });
  afterAll(() => server.close());

  it('deletes the partial file when the client disconnects mid-upload', async () => {
    const boundary = 'Bnd';
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/up',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '50000' },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'a'.repeat(20000)}`);
    expect(await listingOnce(dir, 1)).toHaveLength(1);
    req.destroy();
    expect(await emptied()).toEqual([]);
  });

  it('answers 413 over a socket and leaves no file', async () => {
    const form = new FormData();
    form.append('file', ...file(200 * 1024));
    const res = await fetch(`${server.url}/up`, { method: 'POST', body: form });
    expect(res.status).toBe(413);
    await res.text();
  });
});
