import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig, RestApplication } from '../../lib';
import { MultipartResource } from '../../samples/multipart/multipart-resource';
import { listingOnce, tempDir } from '../support/temp-dir';

const root = tempDir('mp');

function build(overrides: Record<string, string> = {}) {
  const dir = mkdtempSync(join(root, 'uploads-'));
  const app = RestApplication.build({
    classes: [MultipartResource],
    config: resolveConfig({ overrides: { 'framework.http.body.uploads-directory': dir, ...overrides } }),
  });
  return { app, dir };
}

const settled = listingOnce;

function sampleForm(): FormData {
  const form = new FormData();
  form.append('description', 'A portrait');
  form.append('image', new Blob([new Uint8Array(3000).fill(7)], { type: 'image/png' }), 'ada.png');
  form.append('person', new Blob(['{"firstName":"Ada","lastName":"Lovelace"}'], { type: 'application/json' }));
  return form;
}

describe('MultipartResource', () => {
  it('binds a text part, a FileUpload and a JSON entity part, then deletes the upload', async () => {
    const { app, dir } = build();
    const res = await app.fetch(new Request('http://localhost/multipart', { method: 'POST', body: sampleForm() }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      description: 'A portrait',
      image: { fileName: 'ada.png', size: 3000, contentType: 'image/png' },
      person: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(await settled(dir)).toEqual([]);
  });

  it('keeps uploads under UUID names when delete-uploaded-files-on-end is false', async () => {
    const { app, dir } = build({ 'framework.http.body.delete-uploaded-files-on-end': 'false' });
    const res = await app.fetch(new Request('http://localhost/multipart', { method: 'POST', body: sampleForm() }));
    await res.text();
    expect(res.status).toBe(200);
    const files = await settled(dir, 2);
    // image and person (a Blob part is a file part: it has a filename) stay, named by UUID only.
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('summarises every part of a MultipartFormDataInput', async () => {
    const { app, dir } = build();
    const form = sampleForm();
    form.append('description', 'second');
    const res = await app.fetch(new Request('http://localhost/multipart/all', { method: 'POST', body: form }));
    const body = (await res.json()) as Record<
      string,
      {
        name: string;
        size: number;
        isFileItem: boolean;
        fileName: string | null;
        charset: string;
        headers: Record<string, string[]>;
      }[]
    >;
    expect(Object.keys(body)).toEqual(['description', 'image', 'person']);
    expect(body.description.map((d) => d.size)).toEqual([10, 6]);
    expect(body.description[0]).toMatchObject({
      name: 'description',
      isFileItem: false,
      fileName: null,
      charset: 'UTF-8',
    });
    expect(body.image[0]).toMatchObject({ name: 'image', size: 3000, isFileItem: true, fileName: 'ada.png' });
    expect(body.image[0].headers['content-type']).toEqual(['image/png']);
    expect(body.image[0].headers['content-disposition'][0]).toContain('filename="ada.png"');
    expect(await settled(dir)).toEqual([]);
  });

  it('writes a MultipartFormDataOutput with per-part headers', async () => {
    const { app } = build();
    const res = await app.fetch(new Request('http://localhost/multipart/person'));
    expect(res.status).toBe(200);
    const type = res.headers.get('content-type')!;
    expect(type).toMatch(/^multipart\/form-data;boundary=rxrest-[0-9a-f]{48}$/);
    const text = await res.text();
    expect(text).toContain(
      'Content-Disposition: form-data; name="note"\r\nContent-Type: text/plain\r\nX-Part: 1\r\n\r\nThe first programmer',
    );
    const form = await new Response(text, { headers: { 'content-type': type } }).formData();
    expect(JSON.parse(String(form.get('person')))).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(form.get('note')).toBe('The first programmer');
  });
});
