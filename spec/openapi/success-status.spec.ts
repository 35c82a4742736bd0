/** The success answer an operation documents, from what its metadata and compiled code can tell (docs/openapi.md). */
import { APIResponse, DELETE, GET, POST, PUT, Path, ResponseStatus, RestResponse } from '../../lib';
import { buildApp, call } from '../support/app';

@Path('s')
class Shapes {
  items = ['a'];

  @DELETE @Path('void') clear(): void {
    this.items = [];
  }

  @DELETE @Path('early') early(): void {
    if (this.items.length === 0) return;
    this.items.pop();
  }

  @DELETE @Path('undefined') explicit() {
    return undefined;
  }

  @POST @Path('async') async save(): Promise<void> {
    await Promise.resolve(this.items.push('b'));
  }

  // A `return` inside a callback is enough to say "may answer a body": the document never claims less than it knows.
  @PUT @Path('callback') sort(): void {
    this.items.sort((a, b) => {
      return a.localeCompare(b);
    });
  }

  @GET @Path('untyped') untyped() {
    return { count: this.items.length };
  }

  @POST @Path('accepted') @ResponseStatus(202) accept(): void {
    this.items.push('c');
  }

  @POST @Path('created') @ResponseStatus(201) create(): string[] {
    return this.items;
  }

  @POST @Path('redirect') @APIResponse({ status: 303, description: 'Go see it' }) redirect(): RestResponse<never> {
    return RestResponse.seeOther(new URL('http://localhost/s/untyped'));
  }
}

const app = buildApp([Shapes]);
const responses = (path: string, method: string) =>
  (app.openapi() as { paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> })
    .paths[path]![method]!.responses;
const success = (path: string, method: string) =>
  Object.entries(responses(path, method))
    .filter(([status]) => Number(status) < 400)
    .map(([status, response]) => `${status}${response.content ? ' with a body' : ''}`);

describe('the documented success answer', () => {
  it.each([
    ['/s/void', 'delete'],
    ['/s/early', 'delete'],
    ['/s/undefined', 'delete'],
    ['/s/async', 'post'],
  ])('is 204 with no body for %s, which can only return nothing, and the server agrees', async (path, method) => {
    expect(success(path, method)).toEqual(['204']);
    expect((await call(app, path, { method: method.toUpperCase() })).status).toBe(204);
  });

  it('is 200 with a body wherever the code returns a value, even inside a callback', async () => {
    expect(success('/s/untyped', 'get')).toEqual(['200 with a body']);
    expect(success('/s/callback', 'put')).toEqual(['200 with a body']);
  });

  it('is the @ResponseStatus, with a body only when the method can return one', async () => {
    expect(success('/s/accepted', 'post')).toEqual(['202']);
    expect(success('/s/created', 'post')).toEqual(['201 with a body']);
    const accepted = await call(app, '/s/accepted', { method: 'POST' });
    expect([accepted.status, await accepted.text()]).toEqual([202, '']);
  });

  it('is the declared status of a RestResponse, which the document cannot see otherwise', async () => {
    expect(success('/s/redirect', 'post')).toEqual(['303']);
    expect((await call(app, '/s/redirect', { method: 'POST' })).status).toBe(303);
  });
});
