import {
  Body,
  ConstrainedTo,
  Consumes,
  GET,
  IOException,
  Path,
  POST,
  Priority,
  Produces,
  Provider,
  RestApplication,
  RestResponse,
  resolveConfig,
  type EntityInput,
  type MessageBodyReader,
  type MessageBodyWriter,
  type ReaderInterceptor,
  type ReaderInterceptorContext,
  type ServerMessageBodyWriter,
  type ServerWriterContext,
  type WriterInterceptor,
  type WriterInterceptorContext,
  type WrittenBody,
} from '../../lib';

class Csv {
  constructor(readonly rows: string[][]) {}
}
class Report {
  title = 'q3';
}
class Raw {
  value = 'raw';
}

@Provider()
@Consumes('text/csv')
class CsvReader implements MessageBodyReader<Csv> {
  isReadable(type: unknown) {
    return type === Csv;
  }
  async readFrom(_type: unknown, _mediaType: string, _headers: Headers, input: EntityInput) {
    const text = await input.text();
    if (text.includes('!')) throw new IOException('bad csv');
    return new Csv(text.split('\n').map((line) => line.split(',')));
  }
}

@Provider()
@Produces('*/*')
class AnyReportWriter implements MessageBodyWriter<Report> {
  isWriteable(type: Function | undefined) {
    return type === Report;
  }
  writeTo(report: Report) {
    return `any:${report.title}`;
  }
}

@Provider()
@Produces('text/plain')
class TextReportWriter implements MessageBodyWriter<Report> {
  isWriteable(type: Function | undefined) {
    return type === Report;
  }
  writeTo(report: Report) {
    return `text:${report.title}`;
  }
}

@Provider()
@Produces('text/plain')
@ConstrainedTo('client')
class ClientOnlyWriter implements MessageBodyWriter<Report> {
  isWriteable() {
    return true;
  }
  writeTo() {
    return 'client';
  }
}

@Provider()
class RawServerWriter implements ServerMessageBodyWriter<Raw> {
  isWriteable(type: Function | undefined) {
    return type === Raw;
  }
  writeResponse(raw: Raw, context: ServerWriterContext) {
    return new Response(`direct:${raw.value}`, {
      status: context.status,
      headers: { 'content-type': 'text/x-raw', 'x-direct': 'yes' },
    });
  }
}

const order: string[] = [];

@Provider()
@Priority(200)
class InnerReadInterceptor implements ReaderInterceptor {
  async aroundReadFrom(context: ReaderInterceptorContext) {
    order.push('inner');
    return context.proceed();
  }
}

@Provider()
@Priority(100)
class OuterReadInterceptor implements ReaderInterceptor {
  async aroundReadFrom(context: ReaderInterceptorContext) {
    order.push('outer');
    const original = context.input;
    context.input = { ...original, text: async () => (await original.text()).toUpperCase() };
    return context.proceed();
  }
}

@Provider()
class SigningWriteInterceptor implements WriterInterceptor {
  async aroundWriteTo(context: WriterInterceptorContext): Promise<WrittenBody> {
    context.headers.set('x-signed', 'true');
    const body = await context.proceed();
    return typeof body === 'string' ? `${body}|signed` : body;
  }
}

@Path('prov')
class ProviderResource {
  @POST
  @Path('csv')
  @Consumes('text/csv')
  csv(@Body({ type: Csv }) csv: Csv) {
    return csv.rows;
  }

  @POST
  @Path('text')
  text(@Body({ type: String }) text: string) {
    return text;
  }

  @GET
  @Path('report')
  @Produces('text/plain', 'application/xml')
  report() {
    return new Report();
  }

  @GET
  @Path('raw')
  raw() {
    return RestResponse.ResponseBuilder.status<Raw>(202).entity(new Raw()).build();
  }
}

const classes = [
  ProviderResource,
  CsvReader,
  AnyReportWriter,
  TextReportWriter,
  ClientOnlyWriter,
  RawServerWriter,
  InnerReadInterceptor,
  OuterReadInterceptor,
  SigningWriteInterceptor,
];
const app = RestApplication.build({ classes, config: resolveConfig({ overrides: {} }) });
const call = (path: string, init?: RequestInit) =>
  Promise.resolve(app.fetch(new Request(`http://localhost/prov/${path}`, init)));

describe('BodyProviders', () => {
  it('reads with a @Consumes-limited reader, through reader interceptors in priority order', async () => {
    order.length = 0;
    const response = await call('csv', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a,b\nc,d' });
    expect(await response.text()).toBe('[["A","B"],["C","D"]]|signed');
    expect(order).toEqual(['outer', 'inner']);
  });

  it('answers 400 when a reader throws an IOException', async () => {
    expect((await call('csv', { method: 'POST', headers: { 'content-type': 'text/csv' }, body: 'a!' })).status).toBe(
      400,
    );
  });

  it('lets reader interceptors wrap the built-in readers too', async () => {
    expect(
      await (await call('text', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'shh' })).text(),
    ).toBe('SHH|signed');
  });

  it('prefers the writer with the more specific @Produces, ignores client-only writers, and runs writer interceptors', async () => {
    const text = await call('report', { headers: { accept: 'text/plain' } });
    expect(await text.text()).toBe('text:q3|signed');
    expect(text.headers.get('x-signed')).toBe('true');
    expect(await (await call('report', { headers: { accept: 'application/xml' } })).text()).toBe('any:q3|signed');
  });

  it('lets a server writer make the whole response', async () => {
    const response = await call('raw');
    expect(response.status).toBe(202);
    expect(response.headers.get('x-direct')).toBe('yes');
    expect(await response.text()).toBe('direct:raw');
  });
});
