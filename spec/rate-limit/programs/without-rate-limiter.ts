// Builds an application with an authentication mechanism while rate-limiter-flexible cannot be resolved, as in a
// project that never installed it, with the overrides given as JSON in OVERRIDES; prints the build's error (or "built").
import Module from 'node:module';
import { GET, Path, RestApplication, apiKeys } from '../../../lib';

const resolving = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = resolving._resolveFilename;
resolving._resolveFilename = (request, ...rest) => {
  if (request === 'rate-limiter-flexible' || request.startsWith('rate-limiter-flexible/'))
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  return resolve(request, ...rest);
};

class Open {
  @GET
  hello(): string {
    return 'hello';
  }
}
Path('open')(Open);

try {
  RestApplication.build({
    classes: [Open],
    overrides: JSON.parse(process.env.OVERRIDES ?? '{}') as Record<string, string>,
    authentication: [apiKeys({ keys: {} })],
  });
  process.stdout.write('built\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
}
process.exit(0);
