// A non-2xx answer with a large body, over a real socket: the exception's message quotes at most 1024 characters of
// the problem's detail (or title) or of the text body, with an ellipsis, so a log line holds no megabytes of a body;
// the whole parsed problem stays on the exception.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom } from 'rxjs';
import { GET, InternalServerErrorException, Path, PathParam, RestClient, BadRequestException } from '../../lib/client';
import { within } from '../support/until';

@Path('broken')
class Broken {
  @GET @Path('{name}') read(@PathParam('name') _name: string): string {
    throw new Error('a contract');
  }
}

const LONG = 'x'.repeat(2 * 1024 * 1024);
const ANSWERS: Record<string, [number, string, string]> = {
  '/broken/text': [500, 'text/plain', LONG],
  '/broken/short': [500, 'text/plain', '  database down  '],
  '/broken/emoji': [500, 'text/plain', 'a' + '\u{1F600}'.repeat(1000)],
  '/broken/problem': [
    400,
    'application/problem+json',
    JSON.stringify({ type: 'about:blank', title: 'Bad', status: 400, detail: LONG, code: 'X' }),
  ],
  '/broken/title': [400, 'application/problem+json', JSON.stringify({ title: LONG, status: 400 })],
};

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, type, body] = ANSWERS[req.url ?? ''] ?? [404, 'text/plain', 'none'];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await within(new Promise((resolve) => server.close(resolve)), 'the server to close', 5000);
});

function failure(name: string): Promise<unknown> {
  return within(
    firstValueFrom(RestClient.create(Broken, { baseUrl }).read(name)).then(
      () => new Error('the call succeeded'),
      (error: unknown) => error,
    ),
    `the call to ${name} to fail`,
  );
}

describe('the message of an error answer', () => {
  it('quotes the first 1024 characters of a large text body, with an ellipsis', async () => {
    const error = await failure('text');
    expect(error).toBeInstanceOf(InternalServerErrorException);
    expect((error as Error).message).toBe(`${'x'.repeat(1024)}…`);
  });

  it('quotes a short text body whole, trimmed', async () => {
    expect(((await failure('short')) as Error).message).toBe('database down');
  });

  it('never cuts a character in two', async () => {
    expect(((await failure('emoji')) as Error).message).toBe(`a${'\u{1F600}'.repeat(511)}…`);
  });

  it("quotes the start of a large problem's detail, the whole problem kept", async () => {
    const error = (await failure('problem')) as BadRequestException;
    expect(error).toBeInstanceOf(BadRequestException);
    expect(error.message).toBe(`${'x'.repeat(1024)}…`);
    expect(error.problem).toEqual({ type: 'about:blank', title: 'Bad', status: 400, detail: LONG, code: 'X' });
  });

  it("quotes the start of a large problem's title when it has no detail", async () => {
    const error = (await failure('title')) as BadRequestException;
    expect(error.message).toBe(`${'x'.repeat(1024)}…`);
    expect(error.problem?.title).toBe(LONG);
  });
});
