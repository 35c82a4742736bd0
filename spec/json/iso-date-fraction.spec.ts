// A fraction of a second is cut to milliseconds, as a Date holds it: read as a number, one of many 9s was 1 and
// carried a whole second into the next minute, day, or year 10000.
import { GET, Path, RestApplication, RestQuery } from '../../lib';

@Path('at')
class MomentResource {
  @GET at(@RestQuery() at: Date): string {
    return at.toISOString();
  }
}

const app = RestApplication.build({ classes: [MomentResource] });

async function read(text: string): Promise<string> {
  const response = await app.fetch(new Request(`http://localhost/at?at=${encodeURIComponent(text)}`));
  expect(response.status).toBe(200);
  return response.text();
}

describe('readIsoDate through a Date parameter', () => {
  it('cuts a fraction of many 9s to .999, in the same second', async () => {
    expect(await read('2024-03-04T10:20:59.999999999999999999Z')).toBe('2024-03-04T10:20:59.999Z');
    expect(await read('9999-12-31T23:59:59.99999999999999999Z')).toBe('9999-12-31T23:59:59.999Z');
  });

  it('reads a short fraction as milliseconds and ignores digits past the third', async () => {
    expect(await read('2024-03-04T10:20:30.5Z')).toBe('2024-03-04T10:20:30.500Z');
    expect(await read('2024-03-04T10:20:30,1239Z')).toBe('2024-03-04T10:20:30.123Z');
  });
});
