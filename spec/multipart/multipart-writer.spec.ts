import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BeanParam,
  MultipartFormDataOutput,
  FileUpload,
  GET,
  PartType,
  Path,
  POST,
  Produces,
  resolveConfig,
  RestApplication,
  RestForm,
} from '../../lib';
import { tempDir } from '../support/temp-dir';

class Card {
  @RestForm() title: string | undefined = 'Hello';
  @RestForm('meta') @PartType('application/json') info: object | undefined = { a: 1 };
  @RestForm() tags: string[] | undefined = ['one', 'two'];
  @RestForm() missing: string | undefined = undefined;
  // A union type is emitted as Object: the hint says it is a file.
  @RestForm('file', { type: FileUpload }) file: FileUpload | undefined;
}

@Path('card')
class CardResource {
  @GET
  @Produces('multipart/form-data')
  card(): Card {
    return new Card();
  }

  @POST
  @Produces('application/json')
  read(@BeanParam() card: Card) {
    return { title: card.title, info: card.info, file: card.file?.size };
  }
}

const files = tempDir('mp-writer-files');
const reportPath = join(files, 'report.txt');
writeFileSync(reportPath, 'quarterly figures');

@Path('parts')
class PartsResource {
  @GET
  @Produces('multipart/form-data')
  parts(): MultipartFormDataOutput {
    const output = new MultipartFormDataOutput();
    output.addFile('report', { path: reportPath }, 'text/plain');
    output.addFile('renamed', { path: reportPath }, 'text/plain', 'figures.txt');
    output.addFormData('bytes', new Uint8Array([104, 105]), 'application/octet-stream');
    output.addFormData('stream', new Blob(['streamed']).stream(), 'application/octet-stream');
    output.addFormData('count', 3);
    output.addFormData('person', { name: 'Ada' }, 'application/json');
    output.addFormData('evil', 'x', 'text/plain\r\nX-Injected: yes').addHeader('X-Note', 'a\r\nX-Injected: yes');
    return output;
  }

  /** An upload sent back as a part of the answer. */
  @POST
  @Path('echo')
  @Produces('multipart/form-data')
  echo(@RestForm('doc') doc: FileUpload): MultipartFormDataOutput {
    const output = new MultipartFormDataOutput();
    output.addFile('doc', doc, doc.contentType);
    return output;
  }
}

const app = RestApplication.build({
  classes: [CardResource, PartsResource],
  config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': tempDir('mp-writer') } }),
});

describe('multipartWriter', () => {
  it('writes a container class: one part per non-null property, default and @PartType media types', async () => {
    const res = await app.fetch(new Request('http://localhost/card'));
    const boundary = /boundary=(.+)$/.exec(res.headers.get('content-type')!)![1];
    const text = await res.text();
    expect(text).toContain('name="title"\r\nContent-Type: text/plain\r\n\r\nHello\r\n');
    expect(text).toContain('name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n');
    expect(text).toContain('name="tags"\r\nContent-Type: text/plain\r\n\r\n[one, two]\r\n');
    expect(text).not.toContain('name="missing"');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });

  it('writes files from disk under their base name or the one given, bytes, streams, numbers and JSON', async () => {
    const res = await app.fetch(new Request('http://localhost/parts'));
    const text = await res.text();
    expect(text).toContain(
      'name="report"; filename="report.txt"\r\nContent-Type: text/plain\r\n\r\nquarterly figures\r\n',
    );
    expect(text).toContain('name="renamed"; filename="figures.txt"\r\n');
    expect(text).not.toMatch(/^X-Injected/m);
    const form = await new Response(text, { headers: { 'content-type': res.headers.get('content-type')! } }).formData();
    expect(form.get('bytes')).toBe('hi');
    expect(form.get('stream')).toBe('streamed');
    expect(form.get('count')).toBe('3');
    expect(JSON.parse(String(form.get('person')))).toEqual({ name: 'Ada' });
  });

  it('sends an upload back under the name the client gave it', async () => {
    const sent = new FormData();
    sent.append('doc', new Blob(['the upload'], { type: 'text/plain' }), 'mine.txt');
    const res = await app.fetch(new Request('http://localhost/parts/echo', { method: 'POST', body: sent }));
    const form = await res.formData();
    const doc = form.get('doc') as File;
    expect([doc.name, await doc.text()]).toEqual(['mine.txt', 'the upload']);
  });

  it('reads the same container class through @BeanParam', async () => {
    const form = new FormData();
    form.append('title', 'T');
    form.append('meta', '{"b":2}');
    form.append('file', new Blob(['12345']), 'x.bin');
    const res = await app.fetch(new Request('http://localhost/card', { method: 'POST', body: form }));
    expect(await res.json()).toEqual({ title: 'T', info: { b: 2 }, file: 5 });
  });
});
