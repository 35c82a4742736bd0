// Builds an application using one optional feature while its package (MISSING) cannot be resolved, as in a project
// that never installed it, and prints the build's error message (or "built").
import Module from 'node:module';
import { DateFormat, GET, OnTextMessage, Path, QueryParam, RestApplication, WebSocketEndpoint } from '../../../lib';

const missing = process.env.MISSING!;
const resolving = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = resolving._resolveFilename;
resolving._resolveFilename = (request, ...rest) => {
  if (request === missing || request.startsWith(`${missing}/`)) {
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve(request, ...rest);
};

@WebSocketEndpoint('/ws')
class EchoSocket {
  @OnTextMessage
  echo(message: string): string {
    return message;
  }
}

class Report {
  @GET
  day(@QueryParam('day') @DateFormat('dd-MM-yyyy') day: Date): string {
    return day.toISOString();
  }
}
Path('report')(Report);

const CLASSES: Record<string, Function[]> = {
  ws: [EchoSocket],
  'date-fns': [Report],
};

const FEATURES: Record<string, Record<string, string>> = {
  'prom-client': { 'framework.metrics.enabled': 'true' },
  ioredis: { 'framework.broadcast.backend': 'redis-streams' },
  'swagger-ui-dist': { 'framework.openapi.ui.always-include': 'true' },
  ws: {},
  'date-fns': {},
  // Only a key source is read at build: nothing is fetched from it.
  jose: { 'framework.security.jwt.jwks-url': 'http://127.0.0.1:9/jwks.json' },
};

try {
  RestApplication.build({
    classes: CLASSES[missing] ?? [],
    overrides: { 'framework.openapi.ui.always-include': 'false', ...FEATURES[missing] },
  });
  process.stdout.write('built\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
}
process.exit(0);
