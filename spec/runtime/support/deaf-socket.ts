/**
 * A WebSocket client that completes its handshake, sends one text message, then reads nothing until told to: what
 * the server sends meanwhile fills the kernel's buffers and then waits in the server. Raw TCP, so that no client
 * library reads ahead; once it reads again, the server's (unmasked) frames are parsed into messages.
 */
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface DeafSocket {
  /** Starts reading again: every message from now on (and what waited in the kernel) lands in `messages`. */
  listen(): void;
  /** The messages read, each cut to its first 32 characters (a spec sending hundreds of MB keeps only their heads). */
  readonly messages: string[];
  /** The close frame's code once one arrived (1006 when the connection ended without one). */
  readonly closed: Promise<number>;
  cut(): void;
}

/** A masked text frame from the client (RFC 6455 §5.3: a client masks every frame). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  return Buffer.concat([
    Buffer.from([0x81, 0x80 | payload.length]),
    mask,
    payload.map((byte, i) => byte ^ mask[i % 4]!),
  ]);
}

/** Opens a socket on `url` (ws://host:port/path) and sends `first` once it is open. */
export function openDeafSocket(url: string, first: string): Promise<DeafSocket> {
  const { hostname, port, pathname } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const messages: string[] = [];
  let pending = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let closeCode: ((code: number) => void) | undefined;
  const closed = new Promise<number>((done) => (closeCode = done));
  socket.on('close', () => closeCode!(1006));
  socket.on('error', () => undefined);
  const parse = (): void => {
    for (;;) {
      if (pending.length < 2) return;
      let length = pending[1]! & 0x7f;
      let offset = 2;
      if (length === 126) [length, offset] = [pending.length >= 4 ? pending.readUInt16BE(2) : -1, 4];
      else if (length === 127) [length, offset] = [pending.length >= 10 ? Number(pending.readBigUInt64BE(2)) : -1, 10];
      if (length < 0 || pending.length < offset + length) return;
      const [final, opcode] = [(pending[0]! & 0x80) !== 0, pending[0]! & 0x0f];
      const payload = pending.subarray(offset, offset + length);
      pending = pending.subarray(offset + length);
      if (opcode === 0x8) closeCode!(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
      if (opcode !== 0x1 && opcode !== 0x0) continue;
      fragments.push(payload);
      if (final) {
        messages.push(Buffer.concat(fragments).subarray(0, 32).toString());
        fragments = [];
      }
    }
  };
  return new Promise((done, fail) => {
    socket.once('error', fail);
    socket.once('connect', () =>
      socket.write(
        `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onHead);
      socket.pause();
      const status = head.subarray(0, head.indexOf('\r\n')).toString();
      if (!status.includes(' 101 ')) return fail(new Error(`handshake answered ${status}`));
      pending = head.subarray(end + 4);
      socket.write(textFrame(first));
      done({
        messages,
        closed,
        cut: () => socket.destroy(),
        listen: () => {
          socket.on('data', (data: Buffer) => {
            pending = Buffer.concat([pending, data]);
            parse();
          });
          parse();
          socket.resume();
        },
      });
    };
    socket.on('data', onHead);
  });
}
