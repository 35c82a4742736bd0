// Every runtime's form of an answer's `Response` carries the same status, header lines and body.
import { ResponseHeaders } from '../../lib/response/response-headers';
import { responseMaker } from '../../lib/runtime/web-response';
import type { Runtime } from '../../lib/runtime/runtime-name';

const RUNTIMES: readonly Runtime[] = ['node', 'bun', 'deno', 'workerd'];

function headersOf(lines: readonly [string, string][]): ResponseHeaders {
  const headers = new ResponseHeaders();
  for (const [name, value] of lines) headers.add(name, value);
  return headers;
}

async function seen(response: Response) {
  return {
    status: response.status,
    lines: [...response.headers],
    cookies: response.headers.getSetCookie(),
    body: await response.text(),
  };
}

describe('responseMaker', () => {
  const cases: { name: string; body: string | Uint8Array | null; status: number; lines: [string, string][] }[] = [
    {
      name: 'a JSON 200 with nosniff',
      body: '{"id":42}',
      status: 200,
      lines: [
        ['x-content-type-options', 'nosniff'],
        ['content-type', 'application/json;charset=UTF-8'],
      ],
    },
    {
      name: 'a text 200 with two cookies and two links',
      body: 'Hello',
      status: 200,
      lines: [
        ['content-type', 'text/plain;charset=UTF-8'],
        ['set-cookie', 'a=1; Path=/'],
        ['set-cookie', 'b=2; Path=/'],
        ['link', '</a>; rel="next"'],
        ['link', '</b>; rel="prev"'],
      ],
    },
    {
      name: 'a byte 200',
      body: new Uint8Array([1, 2, 3]),
      status: 200,
      lines: [['content-type', 'application/octet-stream']],
    },
    { name: 'a 200 whose body has no declared type', body: 'plain', status: 200, lines: [['x-custom', 'yes']] },
    {
      name: 'a problem 404',
      body: '{"status":404}',
      status: 404,
      lines: [['content-type', 'application/problem+json']],
    },
    { name: 'an empty 204', body: null, status: 204, lines: [['etag', '"v1"']] },
  ];

  it.each(cases)('makes $name alike in every runtime’s form', async ({ body, status, lines }) => {
    const expected = await seen(new Response(body, { status, headers: headersOf(lines).toInit() }));
    for (const runtime of RUNTIMES) {
      const made = responseMaker(runtime)(body, status, headersOf(lines));
      expect({ runtime, ...(await seen(made)) }).toEqual({ runtime, ...expected });
    }
  });

  it('makes every answer with its own lines while Bun’s form keeps header sets it met twice', async () => {
    const make = responseMaker('bun');
    const json: [string, string][] = [
      ['x-content-type-options', 'nosniff'],
      ['content-type', 'application/json;charset=UTF-8'],
    ];
    const sequence: [string, string][][] = [
      json,
      json,
      json,
      [json[0], ['content-type', 'application/problem+json']],
      [json[1], json[0]],
      [...json, ['etag', '"1"']],
      [...json, ['etag', '"2"']],
      json,
      [...json, ['set-cookie', 'a=1'], ['set-cookie', 'b=2']],
      [...json, ['set-cookie', 'a=1'], ['set-cookie', 'b=2']],
      [...json, ['set-cookie', 'a=1'], ['set-cookie', 'b=2']],
      json,
    ];
    for (const [i, lines] of sequence.entries()) {
      const made = make('{}', 200, headersOf(lines));
      const expected = await seen(new Response('{}', { status: 200, headers: headersOf(lines).toInit() }));
      expect({ i, ...(await seen(made)) }).toEqual({ i, ...expected });
      // An answer's headers are its own: changing them changes no later answer.
      made.headers.set('x-changed', String(i));
    }
  });

  it('keeps each Set-Cookie line apart in every form', async () => {
    for (const runtime of RUNTIMES) {
      const headers = headersOf([
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      expect(responseMaker(runtime)('{}', 200, headers).headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    }
  });
});
