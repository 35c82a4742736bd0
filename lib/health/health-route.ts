/** Answers `/q/health` and its `live`, `ready` and `started` parts by running the application's checks. */
import { firstValueFrom } from 'rxjs/internal/firstValueFrom';
import { isObservable } from 'rxjs/internal/util/isObservable';
import { logging } from '../logging/logger';
import { ResponseContext } from '../context/response-context';
import type { RequestContext } from '../context/request-context';
import type { UnroutedAnswer } from '../context/settle';
import { HealthCheckResponse, type HealthCheck, type HealthKind } from './health-check';

const log = logging.getLogger('rxrest.server');

export interface RegisteredCheck {
  readonly name: string;
  readonly kinds: readonly HealthKind[];
  readonly check: HealthCheck;
}

const PARTS: Record<string, HealthKind | undefined> = {
  '': undefined,
  '/live': 'liveness',
  '/ready': 'readiness',
  '/started': 'startup',
};

/** The name of the readiness check every application has: DOWN from the moment shutdown starts. */
const SERVER_CHECK = 'rxrest';

/** One check, bounded by `timeoutMs`: a failure or a time-out is DOWN, its detail only in the log. */
async function run(registered: RegisteredCheck, timeoutMs: number): Promise<HealthCheckResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthCheckResponse>((resolve) => {
    timer = setTimeout(
      () => resolve(new HealthCheckResponse(registered.name, 'DOWN', { error: `no answer within ${timeoutMs} ms` })),
      timeoutMs,
    );
  });
  try {
    const answer = registered.check.call();
    return await Promise.race([isObservable(answer) ? firstValueFrom(answer) : Promise.resolve(answer), timeout]);
  } catch (error) {
    log.error(`The health check ${registered.name} failed`, error);
    return new HealthCheckResponse(registered.name, 'DOWN', { error: 'the check failed' });
  } finally {
    clearTimeout(timer);
  }
}

async function answerHealth(
  ctx: RequestContext,
  checks: readonly RegisteredCheck[],
  kind: HealthKind | undefined,
  timeoutMs: number,
): Promise<RequestContext> {
  const answers = await Promise.all(
    checks
      .filter((registered) => kind === undefined || registered.kinds.includes(kind))
      .map((registered) => run(registered, timeoutMs)),
  );
  const status = answers.every((answer) => answer.status === 'UP') ? 'UP' : 'DOWN';
  const body = {
    status,
    checks: answers.map(({ name, status: checkStatus, data }) =>
      data ? { name, status: checkStatus, data } : { name, status: checkStatus },
    ),
  };
  ctx.response = new ResponseContext(status === 'UP' ? 200 : 503, body, undefined, 'application/json');
  ctx.response.headers.set('cache-control', 'no-store');
  return ctx;
}

/** MicroProfile Health's JSON: 200 when every check of the kind is UP, else 503. */
export function healthAnswer(
  base: string,
  checks: readonly RegisteredCheck[],
  timeoutMs: number,
  shuttingDown: () => boolean,
): UnroutedAnswer {
  const root = base.replace(/\/+$/, '');
  const server: RegisteredCheck = {
    name: SERVER_CHECK,
    kinds: ['readiness'],
    check: {
      call: () =>
        shuttingDown()
          ? new HealthCheckResponse(SERVER_CHECK, 'DOWN', { 'shutting-down': true })
          : HealthCheckResponse.up(SERVER_CHECK),
    },
  };
  const all = [server, ...checks];
  return (ctx) => {
    const part = ctx.rawPath.startsWith(root) ? ctx.rawPath.slice(root.length).replace(/\/$/, '') : undefined;
    if (part === undefined || !Object.hasOwn(PARTS, part) || (ctx.method !== 'GET' && ctx.method !== 'HEAD'))
      return undefined;
    return answerHealth(ctx, all, PARTS[part], timeoutMs);
  };
}
