// Streams and sockets end when the credential that opened them expires, however far away that is: Node's timers
// hold at most 2^31-1 ms (about 24.8 days) and fire at once past it, so a token valid for a month closed its socket
// the moment it opened. Over real sockets for the transports, with Jest's clock for the month-long wait itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as JoseModule from 'jose';
import { interval, map } from 'rxjs';
import {
  Authenticated,
  GET,
  OnTextMessage,
  Path,
  Produces,
  RestApplication,
  WebSocketEndpoint,
  multi,
  resolveConfig,
  type Multi,
  type RunningServer,
} from '../../lib';
import { expiryTimer } from '../../lib/security/expiry-timer';
import { tempDir } from '../support/temp-dir';
import { openSocket } from '../support/ws-client';

const jose = require('jose') as typeof JoseModule;

@Path('expiring')
class TickResource {
  @GET
  @Path('ticks')
  @Authenticated
  @Produces('text/event-stream', 'application/x-ndjson')
  ticks(): Multi<{ tick: number }> {
    return multi(interval(50).pipe(map((tick) => ({ tick }))));
  }
}

@WebSocketEndpoint('/expiring/socket')
@Authenticated
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

const DAY_MS = 86_400_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const AUDIENCE = 'expiry-api';
const directory = tempDir('credential-expiry');
let keys: Awaited<ReturnType<typeof JoseModule.generateKeyPair>>;
let server: RunningServer;

beforeAll(async () => {
  keys = await jose.generateKeyPair('ES256', { extractable: true });
  const keyFile = join(directory, 'public.pem');
  writeFileSync(keyFile, await jose.exportSPKI(keys.publicKey));
  const config = resolveConfig({
    overrides: {
      'framework.security.jwt.public-key-file': keyFile,
      'framework.security.jwt.audience': AUDIENCE,
    },
  });
  server = await RestApplication.build({ classes: [TickResource, EchoSocket], config }).listen({
    port: 0,
    host: '127.0.0.1',
    handleSignals: false,
  });
});
afterAll(() => server.close());

/** A token expiring at `exp` (seconds since the epoch). */
function token(exp: number): Promise<string> {
  return new jose.SignJWT({ sub: 'alice', aud: AUDIENCE, exp })
    .setProtectedHeader({ alg: 'ES256' })
    .sign(keys.privateKey);
}

const inThirtyDays = () => Math.floor((Date.now() + 30 * DAY_MS) / 1000);
const LONG_LIVED: [string, () => number][] = [
  ['valid for 30 days', inThirtyDays],
  ['with exp: 1e15', () => 1e15],
];

describe('a credential valid beyond what a timer holds', () => {
  it.each(LONG_LIVED)('keeps a WebSocket open for a token %s', async (_name, exp) => {
    const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/expiring/socket`, {
      headers: { authorization: `Bearer ${await token(exp())}` },
    });
    await socket.opened;
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.socket.send('still there?');
    expect(await socket.next()).toBe('still there?');
    const closed = socket.closed;
    socket.socket.close(1000);
    expect(await closed).toEqual({ code: 1000, reason: '' });
  });

  it.each(LONG_LIVED)('keeps SSE and NDJSON streams going for a token %s', async (_name, exp) => {
    for (const accept of ['text/event-stream', 'application/x-ndjson']) {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/expiring/ticks`, {
        headers: { accept, authorization: `Bearer ${await token(exp())}` },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = '';
      // Three ticks (150 ms of a stream a timer that overflows would end at once), however long a loaded machine takes
      // to send them: a 400 ms window of reading could end with fewer.
      while ((text.match(/"tick":\d+/g)?.length ?? 0) < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
      }
      controller.abort();
      expect(text).not.toContain('expired');
      expect(text.match(/"tick":\d+/g)!.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('still closes a socket with 1008 when a token valid for a second expires', async () => {
    const socket = openSocket(`${server.url.replace(/^http/, 'ws')}/expiring/socket`, {
      headers: { authorization: `Bearer ${await token(Math.floor(Date.now() / 1000) + 1)}` },
    });
    await socket.opened;
    expect(await socket.closed).toEqual({ code: 1008, reason: 'The credential expired' });
  });
});

describe('expiryTimer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires at an expiry 30 days away, not when the longest timer would', () => {
    const expire = jest.fn();
    expiryTimer(Date.now() + 30 * DAY_MS, expire);
    jest.advanceTimersByTime(MAX_TIMER_MS + 1);
    expect(expire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(30 * DAY_MS - MAX_TIMER_MS - 2);
    expect(expire).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60 * DAY_MS);
    expect(expire).toHaveBeenCalledTimes(1);
  });

  it('never fires for an expiry thousands of years away (exp: 1e15), and fires soon for a past one', () => {
    const far = jest.fn();
    expiryTimer(1e18, far);
    jest.advanceTimersByTime(365 * DAY_MS);
    expect(far).not.toHaveBeenCalled();
    const past = jest.fn();
    expiryTimer(Date.now() - 1000, past);
    expect(past).not.toHaveBeenCalled();
    jest.advanceTimersByTime(0);
    expect(past).toHaveBeenCalledTimes(1);
  });

  it('is cancelled by what it returns, before or after it waited a first step', () => {
    const expire = jest.fn();
    const cancel = expiryTimer(Date.now() + 30 * DAY_MS, expire);
    jest.advanceTimersByTime(MAX_TIMER_MS + 1);
    cancel();
    jest.advanceTimersByTime(30 * DAY_MS);
    expect(expire).not.toHaveBeenCalled();
    expect(jest.getTimerCount()).toBe(0);
  });
});
