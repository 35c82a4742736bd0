/**
 * The answer to a handshake `ws` refuses (a missing or malformed Sec-WebSocket-Key, -Version, -Protocol or
 * -Extensions): the 400 problem, written on the socket the upgrade took, where `ws` would write an HTML text with
 * no X-Content-Type-Options. Knows nothing of endpoints.
 */
import type { Duplex } from 'node:stream';
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';

/** Writes the 400 problem of `reason` (`ws`'s own words, which name the header) and closes the socket. */
export function refuseHandshake(socket: Duplex, reason: string, nosniff: boolean): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(problemDetails('RXREST_MALFORMED_HANDSHAKE', reason));
  const head = [
    'HTTP/1.1 400 Bad Request',
    'Connection: close',
    `Content-Type: ${PROBLEM_JSON};charset=UTF-8`,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  if (nosniff) head.push('X-Content-Type-Options: nosniff');
  // RFC 6455 §4.4: a version the server does not speak is answered with the versions it does.
  if (/version/i.test(reason)) head.push('Sec-WebSocket-Version: 13, 8');
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
