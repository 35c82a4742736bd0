import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { IncomingMessage, request, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  FileUpload,
  Path,
  POST,
  Produces,
  resolveConfig,
  RestApplication,
  RestForm,
  type RunningServer,
} from '../../lib';
import { nodeRequestOf } from '../../lib/body/body-source';
import { RequestContext } from '../../lib/context/request-context';
import { encodeForm, postBody } from '../support/http';
import { listingOnce } from '../support/temp-dir';

@Path('src')
class SourceResource {
  @POST
  @Produces('application/json')
  upload(@RestForm() title: string, @RestForm('file') file: FileUpload) {
    return { title, size: file?.size ?? null };
  }

  @POST
  @Path('fail')
  fail(@RestForm('file') _file: FileUpload): string {
    throw new Error('boom');
  }
}

function post(): Request {
  return new Request('http://localhost/src', { method: 'POST', body: 'x' });
}

function bindings(): { incoming: IncomingMessage; outgoing: ServerResponse } {
  const incoming = new IncomingMessage(new Socket());
  return { incoming, outgoing: new ServerResponse(incoming) };
}

describe('nodeRequestOf', () => {
  it('gives the Node request when the request is the one served and nothing read it', () => {
    const node = bindings();
    expect(nodeRequestOf(new RequestContext(post(), node))).toBe(node.incoming);
  });

  it('gives nothing under app.fetch, for a replaced request (a filter inflated it) or a body already being read', () => {
    expect(nodeRequestOf(new RequestContext(post()))).toBeUndefined();
    const replaced = new RequestContext(post(), bindings());
    replaced.replaceRequest(post());
    expect(nodeRequestOf(replaced)).toBeUndefined();
    const reading = bindings();
    reading.incoming.on('data', () => undefined);
    expect(nodeRequestOf(new RequestContext(post(), reading))).toBeUndefined();
    const used = post();
    void used.text();
    expect(nodeRequestOf(new RequestContext(used, bindings()))).toBeUndefined();
  });
});

const emptied = listingOnce;

function form(size: number): FormData {
  const data = new FormData();
  data.append('title', 'T');
  data.append('file', new Blob([new Uint8Array(size).fill(1)]), 'f.bin');
  return data;
}

describe('multipart over a real socket', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxrest-mp-socket-'));
  const keptDir = mkdtempSync(join(tmpdir(), 'rxrest-mp-kept-'));
  const overrides = { 'framework.http.body.uploads-directory': dir, 'framework.http.limits.max-body-size': '1M' };
  const servers: RunningServer[] = [];
  let server: RunningServer;
  let kept: RunningServer;
  beforeAll(async () => {
    server = await RestApplication.build({ classes: [SourceResource], config: resolveConfig({ overrides }) }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
    const keep = {
      ...overrides,
      'framework.http.body.uploads-directory': keptDir,
      'framework.http.body.delete-uploaded-files-on-end': 'false',
    };
    kept = await RestApplication.build({
      classes: [SourceResource],
      config: resolveConfig({ overrides: keep }),
    }).listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    servers.push(server, kept);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    // The kept uploads were the point of one test; the folders themselves are this spec's own.
    expect(readdirSync(dir)).toEqual([]);
    for (const folder of [dir, keptDir]) rmSync(folder, { recursive: true, force: true });
  });
  afterEach(() => jest.restoreAllMocks());

  it('parses the Node request directly, without adapting a Web stream, and deletes the upload after the response', async () => {
    const fromWeb = jest.spyOn(Readable, 'fromWeb');
    const res = await fetch(`${server.url}/src`, { method: 'POST', body: form(300 * 1024) });
    expect(await res.json()).toEqual({ title: 'T', size: 300 * 1024 });
    expect(fromWeb).not.toHaveBeenCalled();
    expect(await emptied(dir)).toEqual([]);
  });

  it('deletes the upload when the endpoint fails', async () => {
    const res = await fetch(`${server.url}/src/fail`, { method: 'POST', body: form(1000) });
    await res.text();
    expect(res.status).toBe(500);
    expect(await emptied(dir)).toEqual([]);
  });

  it('answers 413 for a body over max-body-size and keeps no partial file', async () => {
    const { headers, body } = await encodeForm(form(2 * 1024 * 1024));
    const res = await postBody(server.port, '/src', headers, body);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413 });
    expect(await emptied(dir)).toEqual([]);
  });

  it('deletes the partial file when the client disconnects mid-upload', async () => {
    const boundary = 'Cut';
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/src',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '900000' },
    });
    req.on('error', () => undefined);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n${'a'.repeat(100000)}`,
    );
    expect(await emptied(dir, 1)).toHaveLength(1);
    req.destroy();
    expect(await emptied(dir)).toEqual([]);
  });

  it('keeps the uploads under UUID names with delete-uploaded-files-on-end=false', async () => {
    const res = await fetch(`${kept.url}/src`, { method: 'POST', body: form(5000) });
    expect(await res.json()).toEqual({ title: 'T', size: 5000 });
    const files = await emptied(keptDir, 1);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('still deletes a failed upload with delete-uploaded-files-on-end=false', async () => {
    const before = readdirSync(keptDir);
    const { headers, body } = await encodeForm(form(2 * 1024 * 1024));
    expect((await postBody(kept.port, '/src', headers, body)).status).toBe(413);
    expect(await emptied(keptDir, before.length)).toEqual(before);
  });
});
