// A method without @Produces produces what its result is written as by default: text/plain for a string, JSON for
// other values, bytes as application/octet-stream. A request whose Accept admits none of that is answered 406, as
// a method whose @Produces Accept rules out (the Java REST specification: the Accept header selects among the types a
// method can produce; the reference framework derives them from the return type when @Produces is absent). It was
// answered JSON to `Accept: text/csv`.
import { GET, NotFoundException, Path, POST, ResponseHeader, RestResponse } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('plain')
class Plain {
  @GET item() {
    return { id: 1 };
  }
  @GET @Path('later') async later(): Promise<{ id: number }> {
    return { id: 2 };
  }
  @GET @Path('bytes') bytes() {
    return new Uint8Array([1, 2]);
  }
  @GET @Path('csv') csv() {
    return RestResponse.ok('id\n1\n', 'text/csv');
  }
  @GET @Path('declared') @ResponseHeader('Content-Type', 'text/csv') declared() {
    return new TextEncoder().encode('id\n3\n');
  }
  @GET @Path('missing') missing(): { id: number } {
    throw new NotFoundException('no such item');
  }
  @GET @Path('empty') empty(): void {
    return undefined;
  }
  @POST echo(body: { id: number }) {
    return body;
  }
}

const app = buildApp([Plain]);
const accept = (path: string, value: string) => call(app, path, { headers: { accept: value } });

describe('a method without @Produces', () => {
  it('answers 406 when Accept admits none of what its result is written as', async () => {
    for (const path of ['/plain', '/plain/later', '/plain/bytes']) {
      const refused = await accept(path, 'text/csv');
      expect([path, refused.status]).toEqual([path, 406]);
      expect(await refused.json()).toMatchObject({ status: 406, code: 'RXREST_NOT_ACCEPTABLE' });
    }
    expect((await accept('/plain/bytes', 'application/json')).status).toBe(406);
  });

  it('answers what Accept admits: its default type named, covered by a wildcard, or absent', async () => {
    for (const value of ['application/json', 'application/*', '*/*', 'text/csv, application/json;q=0.1', 'blah']) {
      const answer = await accept('/plain', value);
      expect([value, answer.status, answer.headers.get('content-type')]).toEqual([
        value,
        200,
        'application/json;charset=UTF-8',
      ]);
      expect(await answer.json()).toEqual({ id: 1 });
    }
    expect((await call(app, '/plain')).status).toBe(200);
    expect((await accept('/plain/bytes', 'application/octet-stream')).status).toBe(200);
  });

  it('answers a media type the response names itself, an error and an empty answer as they are', async () => {
    const csv = await accept('/plain/csv', 'text/csv');
    expect([csv.status, await csv.text()]).toEqual([200, 'id\n1\n']);
    // Named by a Content-Type header of its own (@ResponseHeader), as sent before the method ran.
    const declared = await accept('/plain/declared', 'text/csv');
    expect([declared.status, declared.headers.get('content-type'), await declared.text()]).toEqual([
      200,
      'text/csv',
      'id\n3\n',
    ]);
    expect((await accept('/plain/missing', 'text/csv')).status).toBe(404);
    expect((await accept('/plain/empty', 'text/csv')).status).toBe(204);
  });
});
