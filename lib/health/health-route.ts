/** Answers `/q/health` and its `live`, `ready` and `started` parts by running the application's checks. */
import { firstValueFrom } from 'rxjs/internal/firstValueFrom';
import { from } from 'rxjs/internal/observable/from';
import { of } from 'rxjs/internal/observable/of';
import { timeout } from 'rxjs/internal/operators/timeout';
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
/**
 * One call of `registered`, DOWN past `timeoutMs`: an Observable check is then unsubscribed (a Promise cannot be
 * stopped, but is no longer waited for).
 */
async function run(registered: RegisteredCheck, timeoutMs: number): Promise<HealthCheckResponse> {
  const late = () =>
    of(new HealthCheckResponse(registered.name, 'DOWN', { error: `no answer within ${timeoutMs} ms` }));
  try {
    const answer = registered.check.call();
    const answers = isObservable(answer) ? answer : from(Promise.resolve(answer));
    return await firstValueFrom(answers.pipe(timeout({ first: timeoutMs, with: late })));
  } catch (error) {
    log.error(`The health check ${registered.name} failed`, error);
    return new HealthCheckResponse(registered.name, 'DOWN', { error: 'the check failed' });
  }
}

/**
 * `run` for requests that come while a call of the check runs: they share its answer, so a flood of probes, or a
 * check hung on its dependency, starts one call per `timeoutMs` at most, not one per request.
 */
function sharedRun(registered: RegisteredCheck, timeoutMs: number): () => Promise<HealthCheckResponse> {
  let running: Promise<HealthCheckResponse> | undefined;
  return () => {
    if (running) return running;
    const answer = (running = run(registered, timeoutMs));
    void answer.then(() => (running = undefined));
    return answer;
  };
}

/** A check's kinds, and its call shared by the requests that come while it runs. */
type SharedCheck = Pick<RegisteredCheck, 'kinds'> & { readonly run: () => Promise<HealthCheckResponse> };

async function answerHealth(
  ctx: RequestContext,
  checks: readonly SharedCheck[],
  kind: HealthKind | undefined,
): Promise<RequestContext> {
  const answers = await Promise.all(
    checks.filter((check) => kind === undefined || check.kinds.includes(kind)).map((check) => check.run()),
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
  const all = [server, ...checks].map((registered) => ({
    kinds: registered.kinds,
    run: sharedRun(registered, timeoutMs),
  }));
  return (ctx) => {
    const part = ctx.rawPath.startsWith(root) ? ctx.rawPath.slice(root.length).replace(/\/$/, '') : undefined;
    if (part === undefined || !Object.hasOwn(PARTS, part) || (ctx.method !== 'GET' && ctx.method !== 'HEAD'))
      return undefined;
    return answerHealth(ctx, all, PARTS[part]);
  };
}
