import {
  BeanParam,
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

const app = RestApplication.build({
  classes: [CardResource],
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

  it('reads the same container class through @BeanParam', async () => {
    const form = new FormData();
    form.append('title', 'T');
    form.append('meta', '{"b":2}');
    form.append('file', new Blob(['12345']), 'x.bin');
    const res = await app.fetch(new Request('http://localhost/card', { method: 'POST', body: form }));
    expect(await res.json()).toEqual({ title: 'T', info: { b: 2 }, file: 5 });
  });
});
