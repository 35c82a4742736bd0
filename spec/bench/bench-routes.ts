/** The routes every benchmarked server serves, and the requests the load generator sends to them. */

/** The list other benches serialize (JSON, metrics). */
export const FRUITS: readonly { name: string; description: string }[] = [
  { name: 'Apple', description: 'Winter fruit' },
  { name: 'Pineapple', description: 'Tropical fruit' },
];

/** One route under load: the request wrk repeats, and what a correct answer is. */
export interface BenchRoute {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** JSON request body (POST only). */
  readonly body?: string;
  /** Request headers besides the body's `Content-Type` (a bearer token). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The exact response body every server must send, checked once before measuring. */
  readonly expected: string;
}

const ECHO_BODY = JSON.stringify({
  name: 'Banana',
  description: 'Yellow and bent',
  stock: 12,
  tags: ['fruit', 'soft'],
});

/** What `GET /hello` answers, as `text/plain`. */
export const HELLO = 'Hello, World!';

export const BENCH_ROUTES: readonly BenchRoute[] = [
  { name: 'GET /hello', method: 'GET', path: '/hello', expected: HELLO },
  {
    name: 'GET /users/:id?fields=a,b',
    method: 'GET',
    path: '/users/42?fields=a,b',
    expected: '{"id":42,"fields":["a","b"]}',
  },
  { name: 'POST /echo', method: 'POST', path: '/echo', body: ECHO_BODY, expected: ECHO_BODY },
];

/** The line a server child prints on stdout once it listens: `LISTENING <port>`. */
export const READY_PREFIX = 'LISTENING ';
