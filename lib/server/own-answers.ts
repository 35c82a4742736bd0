/** The answers `listen()`'s servers write themselves, outside the pipeline. */
import { PROBLEM_JSON, problemDetails, type ErrorCode } from '../errors/problem-details';
import { resetUnsentHead } from '../pipeline/write-response';
import type { Outgoing } from './node-http';

/** Browsers then take a body as its declared type only (Fetch §3.5.2). */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** A request refused before it has a context, or a failure no stage answered. */
export function refuse(outgoing: Outgoing, code: ErrorCode, detail: string, nosniff: boolean): void {
  const problem = problemDetails(code, detail);
  const body = JSON.stringify(problem);
  const headers: Record<string, string> = {
    'content-type': `${PROBLEM_JSON};charset=UTF-8`,
    'content-length': String(Buffer.byteLength(body)),
    ...(nosniff ? NOSNIFF : {}),
  };
  outgoing.writeHead(problem.status, headers);
  outgoing.end(body);
}

/** The 500 problem while the head is not out (whatever a failed attempt left behind), else the answer cut short. */
export function answerFailure(outgoing: Outgoing, nosniff: boolean): void {
  if (outgoing.headersSent) return void outgoing.destroy();
  resetUnsentHead(outgoing);
  refuse(outgoing, 'RXREST_INTERNAL_ERROR', 'An unexpected error occurred.', nosniff);
}
