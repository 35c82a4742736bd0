// What the last stage writes for a single value: the built-in writers, and a logged 500 when none fits.
import { request as httpRequest } from 'node:http';
import { throwError } from 'rxjs';
import {
  GET,
  Path,
  Produces,
  Provider,
  RestResponse,
  ServerExceptionMapper,
  logging,
  multi,
  type LogRecord,
  type Multi,
  type ServerMessageBodyWriter,
} from '../../lib';
import { buildApp, call, withServer } from '../support/app';

class NotReady extends Error {}

@Path('single')
class SingleResource {
  @GET
  @Path('ndjson')
  @Produces('application/x-ndjson')
  async ndjson(): Promise<{ a: number }> {
    return { a: 1 };
  }

  @GET
  @Path('seq')
  @Produces('application/json-seq')
  seq(): { a: number } {
    return { a: 2 };
  }

  // Fails before its first item: the mapper's plain object answers for the stream.
  @GET
  @Path('stream')
  @Produces('application/x-ndjson')
  stream(): Multi<{ row: number }> {
    return multi(throwError(() => new NotReady('later')));
  }

  @GET
  @Path('xml')
  @Produces('application/xml')
  xml(): { a: number } {
    return { a: 3 };
  }

  @ServerExceptionMapper()
  notReady(error: NotReady): RestResponse<{ retry: string }> {
    return RestResponse.status(503, { retry: error.message });
  }
}

@Path('plain')
class PlainResource {
  @GET @Path('count') @Produces('text/plain') count(): number {
    return 42;
  }
  @GET @Path('flag') @Produces('text/plain') flag(): boolean {
    return false;
  }
  @GET @Path('bytes') bytes(): Uint8Array {
    return new Uint8Array([1, 2, 3]);
  }
  @GET @Path('buffer') @Produces('application/octet-stream') buffer(): ArrayBuffer {
    return new Uint8Array([4, 5]).buffer;
  }
}

/** A report a server writer answers for itself, as a whole Web Response. */
class Report {
  constructor(readonly title: string) {}
}

@Provider()
class ReportWriter implements ServerMessageBodyWriter<Report> {
  isWriteable(type: Function | undefined) {
    return type === Report;
  }
  writeResponse(report: Report) {
    const headers = new Headers({ 'content-type': 'text/x-report' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    return new Response(`report ${report.title}`, { status: 202, statusText: 'Queued', headers });
  }
}

@Path('report')
class ReportResource {
  @GET get(): Report {
    return new Report('q3');
  }
}

const app = buildApp([SingleResource, PlainResource]);

describe('a single value under a type of one JSON text per item', () => {
  it('is a body of one item: an NDJSON line, or an RFC 7464 record', async () => {
    const ndjson = await call(app, '/single/ndjson');
    expect([ndjson.status, ndjson.headers.get('content-type'), await ndjson.text()]).toEqual([
      200,
      'application/x-ndjson',
      '{"a":1}\n',
    ]);
    const seq = await call(app, '/single/seq');
    expect([seq.status, await seq.text()]).toEqual([200, '\x1e{"a":2}\n']);
  });

  it("is how an exception mapper's object answers a stream that failed before its first item", async () => {
    const response = await call(app, '/single/stream');
    expect([response.status, await response.text()]).toEqual([503, '{"retry":"later"}\n']);
  });
});

describe('the built-in writers', () => {
  it('write a number or a boolean under a text type as its text', async () => {
    const count = await call(app, '/plain/count');
    expect([count.headers.get('content-type'), await count.text()]).toEqual(['text/plain;charset=UTF-8', '42']);
    expect(await (await call(app, '/plain/flag')).text()).toBe('false');
  });

  it('write bytes as they are, application/octet-stream when nothing names a type, and an ArrayBuffer too', async () => {
    const bytes = await call(app, '/plain/bytes');
    expect([bytes.headers.get('content-type'), [...new Uint8Array(await bytes.arrayBuffer())]]).toEqual([
      'application/octet-stream',
      [1, 2, 3],
    ]);
    expect([...new Uint8Array(await (await call(app, '/plain/buffer')).arrayBuffer())]).toEqual([4, 5]);
  });
});

describe("a server writer's Web Response on a real socket", () => {
  it('goes out with its status line, each Set-Cookie on its own line, and its body', async () => {
    await withServer(buildApp([ReportResource, ReportWriter]), async (server) => {
      const reply = await new Promise<{
        status: string;
        cookies: string[] | undefined;
        type: string | undefined;
        body: string;
      }>((resolve, reject) => {
        httpRequest(`${server.url}/report`, { agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () =>
            resolve({
              status: `${res.statusCode} ${res.statusMessage}`,
              cookies: res.headers['set-cookie'],
              type: res.headers['content-type'],
              body,
            }),
          );
        })
          .on('error', reject)
          .end();
      });
      expect(reply).toEqual({
        status: '202 Queued',
        cookies: ['a=1', 'b=2'],
        type: 'text/x-report',
        body: 'report q3',
      });
    });
  });
});

describe('a value no writer takes', () => {
  it('answers the 500 problem and logs the type, media type and endpoint', async () => {
    const records: LogRecord[] = [];
    const previous = logging.setSink((record) => records.push(record));
    try {
      const response = await call(app, '/single/xml');
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ code: 'RXREST_INTERNAL_ERROR' });
    } finally {
      logging.setSink(previous);
    }
    expect(records).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        category: 'rxrest.errors',
        detail: expect.objectContaining({
          message: expect.stringMatching(/No entity writer for a Object as application\/xml from SingleResource#xml/),
        }),
      }),
    ]);
  });
});
