import {
  BadRequestException,
  GET,
  Path,
  configureLogging,
  logging,
  resolveConfig,
  RestQuery,
  RestHeader,
  type LogRecord,
} from '../../lib';
import { buildApp, call } from '../support/app';

@Path('params')
class Params {
  @GET get(@RestQuery() limit: number, @RestHeader('X-Count') count: number): string {
    return `${limit}/${count}`;
  }
  @GET @Path('refused') refused(): string {
    throw new BadRequestException('Nope');
  }
}

async function logsOf(
  overrides: Record<string, string>,
  path: string,
  headers: Record<string, string> = {},
): Promise<[number, LogRecord[]]> {
  const app = buildApp([Params], overrides);
  const records: LogRecord[] = [];
  const previous = logging.setSink((record) => records.push(record));
  try {
    return [(await call(app, path, { headers })).status, records];
  } finally {
    logging.setSink(previous);
  }
}

describe('parameter failures in the log', () => {
  afterEach(() => configureLogging(resolveConfig({ overrides: {} })));

  it('are not logged by default', async () => {
    const [status, records] = await logsOf({}, '/params?limit=abc');
    expect(status).toBe(404);
    expect(records).toEqual([]);
  });

  it('appear at DEBUG under rxrest.params with framework.log.category."rxrest.params".level=DEBUG', async () => {
    const debug = { 'framework.log.category."rxrest.params".level': 'DEBUG' };
    const [notFound, queryRecords] = await logsOf(debug, '/params?limit=abc');
    expect(notFound).toBe(404);
    expect(queryRecords).toEqual([
      expect.objectContaining({
        level: 'DEBUG',
        category: 'rxrest.params',
        message: expect.stringContaining('"limit"'),
      }),
    ]);
    const [badRequest, headerRecords] = await logsOf(debug, '/params?limit=1', { 'x-count': 'many' });
    expect(badRequest).toBe(400);
    expect(headerRecords).toEqual([
      expect.objectContaining({
        level: 'DEBUG',
        category: 'rxrest.params',
        message: expect.stringContaining('"X-Count"'),
      }),
    ]);
  });

  it("log the application's WebApplicationExceptions under rxrest.errors at DEBUG only", async () => {
    const [quiet, none] = await logsOf({ 'framework.log.category."rxrest.params".level': 'DEBUG' }, '/params/refused');
    expect([quiet, none]).toEqual([400, []]);
    const [status, records] = await logsOf(
      { 'framework.log.category."rxrest.errors".level': 'DEBUG' },
      '/params/refused',
    );
    expect(status).toBe(400);
    expect(records).toEqual([
      expect.objectContaining({ level: 'DEBUG', category: 'rxrest.errors', message: 'BadRequestException: Nope' }),
    ]);
  });
});
