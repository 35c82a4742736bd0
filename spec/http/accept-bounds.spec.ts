// An Accept header is read as at most 100 distinct media ranges, a range repeated counting once (its first
// occurrence, the one that gives its weight). Ranking the types an endpoint produces against the ranges costs up to
// ranges² when it produces a wildcard (each range a candidate, each candidate weighed by every range): Node's 16 KB
// header block held 3,000 `*/*` or 900 `text/plain;a=<n>`, about a second of CPU for one request.
import { GET, Path, Produces, RestApplication, type RunningServer } from '../../lib';
import { parseAccept } from '../../lib/http/accept';
import { negotiate } from '../../lib/http/negotiate';
import { parseMediaType } from '../../lib/http/media-type';

@Path('any')
class Anything {
  @GET @Produces('application/json', 'text/*') get(): string {
    return '{"ok":true}';
  }
}

const produces = ['application/json', 'text/*'].map((type) => parseMediaType(type)!);
const repeated = Array.from({ length: 3000 }, () => '*/*').join(',');
const distinct = Array.from({ length: 900 }, (_, i) => `text/plain;a=${i}`).join(',');

describe('parseAccept on a header of thousands of ranges', () => {
  it('keeps the first occurrence of a repeated range, and at most 100 distinct ranges', () => {
    expect(parseAccept(repeated)).toHaveLength(1);
    expect(parseAccept('text/plain;q=0, text/plain, */*;q=0.1, */*').map((range) => range.q)).toEqual([0, 0.1]);
    const ranges = parseAccept(distinct);
    expect(ranges).toHaveLength(100);
    expect(ranges[99]!.params).toEqual({ a: '99' });
  });

  it('negotiates as before on what it keeps', () => {
    expect(negotiate(parseAccept('text/plain;q=0, text/plain, application/json;q=0.5'), produces)?.type).toEqual(
      parseMediaType('application/json'),
    );
    expect(negotiate(parseAccept(repeated), produces)?.index).toBe(0);
    // The type of the first range; its parameters are the client's, never the answer's.
    expect(negotiate(parseAccept(distinct), produces)?.type).toEqual(parseMediaType('text/plain'));
  });
});

describe('an endpoint producing a wildcard, over a socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await RestApplication.build({ classes: [Anything] }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });
  afterAll(() => server.close());

  it('answers a request whose Accept holds thousands of ranges', async () => {
    for (const [accept, type] of [
      [repeated, 'application/json;charset=UTF-8'],
      [distinct, 'text/plain;charset=UTF-8'],
    ]) {
      const answer = await fetch(`${server.url}/any`, { headers: { accept: accept! } });
      expect([answer.status, answer.headers.get('content-type')]).toEqual([200, type]);
    }
  });
});
