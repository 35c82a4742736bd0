// A plain SSE reader over node:http for specs: each event with its id, name and data as sent, the response head,
// and a way to cut the connection as a network would. Every wait on it has a deadline, and the connections a spec
// file left open are cut after it (a test that timed out mid-way would otherwise leave its stream, and the server's
// end of it, running through every later spec file of an in-band run).
import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { bounded, STEP_MS, within } from './until';

const open = new Set<ClientRequest>();
afterAll(() => {
  for (const req of open) req.destroy();
  open.clear();
});

export interface SseMessage {
  readonly id?: string;
  /** The event name; absent for plain messages. */
  readonly event?: string;
  readonly data: string;
}

export interface SseConnection {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The events received so far, comments and retry-only blocks left out. */
  readonly events: SseMessage[];
  /** Resolves when the answer ends, cleanly or not; fails if it has not within 15 s of being asked for. */
  readonly ended: Promise<void>;
  /** Whether the answer has ended. */
  readonly done: boolean;
  /**
   * Resolves once `check` is true of the events (checked after each chunk), or the answer has ended; fails naming
   * `what` when neither happened within `timeoutMs`.
   */
  until(check: (events: readonly SseMessage[]) => boolean, what?: string, timeoutMs?: number): Promise<void>;
  /** Destroys the socket, as a dropped connection. */
  cut(): void;
}

function parseEvent(block: string): SseMessage | undefined {
  let id: string | undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { ...(id === undefined ? {} : { id }), ...(event === undefined ? {} : { event }), data: data.join('\n') };
}

/**
 * Opens `url` as an event stream on a connection of its own; resolves with the head. Rejects if it cannot connect
 * or no head comes within `headTimeoutMs` (a connection handed to a process in the instant it died).
 */
export function openSse(
  url: string,
  headers: Record<string, string> = {},
  headTimeoutMs = 5000,
): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer from ${url} within ${headTimeoutMs} ms`));
    }, headTimeoutMs);
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      clearTimeout(timer);
      res.once('close', () => open.delete(req));
      const events: SseMessage[] = [];
      const waiters: (() => void)[] = [];
      let pending = '';
      let done = false;
      const wake = () => waiters.splice(0).forEach((waiter) => waiter());
      const ended = new Promise<void>((end) => {
        const finish = () => {
          done = true;
          wake();
          end();
        };
        res.on('end', finish);
        res.on('error', finish);
        res.on('close', finish);
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const blocks = (pending + chunk).split('\n\n');
        pending = blocks.pop()!;
        for (const block of blocks) {
          const event = parseEvent(block);
          if (event) events.push(event);
        }
        wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        get ended() {
          return bounded(ended, `the end of ${url}`);
        },
        get done() {
          return done;
        },
        until: (check, what = 'the events awaited', timeoutMs = STEP_MS) =>
          within(
            (async () => {
              while (!check(events) && !done) await new Promise<void>((waiter) => waiters.push(waiter));
            })(),
            `${what} from ${url}`,
            timeoutMs,
          ),
        cut: () => req.destroy(),
      });
    });
    open.add(req);
    req.on('error', (error) => {
      clearTimeout(timer);
      open.delete(req);
      reject(error);
    });
    req.end();
  });
}
