/** Static files as a feature: a directory served for requests no resource matched, with ranges and validators. */
import type { UnroutedAnswer } from '../context/settle';
import { needLocalDisk, nodeBuiltin } from '../runtime/node-builtins';
import { defineFeature } from '../feature/define-feature';
import { STATIC_FILES, StaticFiles } from './static-files';

export const staticFilesFeature = defineFeature({
  name: 'static-files',
  settings: ['framework.http.static.'],
  phases: ['route'],
  // No 416: a Range it cannot satisfy gets the whole file (RFC 9110 §14.2 lets a server ignore a Range).
  transports: { answer: 'GET and HEAD of files under the directory, last of the unrouted answers (any resource wins)' },
  build(build) {
    // Relative to the directory of `application.properties` (else the working directory).
    const folder = build.config.get('framework.http.static.directory');
    if (!folder) return undefined;
    // Every file is read at a request: a runtime without a disk stops here, at build.
    needLocalDisk(STATIC_FILES, 'node:fs', 'node:fs/promises', 'node:path', 'node:stream');
    const files = new StaticFiles(
      nodeBuiltin('node:path', STATIC_FILES).resolve(build.directory, folder),
      build.config.get('framework.http.static.serve-dotfiles'),
    );
    const answer: UnroutedAnswer = (ctx) =>
      files.respond(ctx.method, ctx.rawPath, ctx.headers).then((response) => {
        if (!response) return undefined;
        ctx.response = response;
        return ctx;
      });
    return { unrouted: () => [answer] };
  },
});
