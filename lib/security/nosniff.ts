/** `X-Content-Type-Options: nosniff` (Fetch §3.5.2): a body an attacker filled is never run as a script or a page. */
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';

const NAME = 'x-content-type-options';

/** Whether the answers the servers write themselves carry the header too (`listen()` reads it). */
export const NOSNIFF = new BuildKey<boolean>('nosniff');

/** A copy when its headers are immutable, as a fetched one's are. */
function forbidSniffingOf(body: Response): Response {
  if (body.headers.has(NAME)) return body;
  try {
    body.headers.set(NAME, 'nosniff');
    return body;
  } catch {
    const copy = new Response(body.body, body);
    copy.headers.set(NAME, 'nosniff');
    return copy;
  }
}

export const nosniffFeature = defineFeature({
  name: 'nosniff',
  settings: ['framework.http.nosniff'],
  phases: ['finish', 'write'],
  transports: {
    answer: 'X-Content-Type-Options: nosniff on every answer, errors and the listener’s own refusals included',
    stream: 'on the stream’s head',
    upgrade: 'on a refused upgrade’s answer',
  },
  build(build) {
    const on = build.config.get('framework.http.nosniff');
    build.provide(NOSNIFF, on);
    if (!on) return undefined;
    return {
      finish: (ctx) => {
        const headers = ctx.response!.headers;
        if (!headers.has(NAME)) headers.set(NAME, 'nosniff');
      },
      written: forbidSniffingOf,
    };
  },
});
