/** Rate limits as a feature: per-client budgets (`@RateLimit`, `framework.http.rate-limit.*`), refused credentials counted. */
import { RATE_LIMIT } from '../decorators/rate-limit';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { declaredOn, type EndpointJoin } from '../feature/feature';
import { REFUSALS, SECURITY } from '../security/security-feature';
import { RateLimiters, rateLimitSettings } from './rate-limits';
import { releaseUnlessStreaming, streamAdmission } from './stream-admission';
import type { RequestContext } from '../context/request-context';

/** The application's limiters (the packages check reads whether any endpoint is limited). */
export const RATE_LIMITS = new BuildKey<RateLimiters>('rate-limits');

export const rateLimitFeature = defineFeature({
  name: 'rate-limits',
  settings: [
    'framework.http.rate-limit.',
    'framework.http.proxy.',
    'framework.http.limits.max-streams',
    'framework.http.limits.max-streams-per-client',
  ],
  phases: ['admit', 'finish'],
  answers: [
    {
      status: 429,
      when: 'past the per-client budget, too many refused credentials, or too many open streams of one client',
    },
    { status: 503, when: 'the process holds as many streams as framework.http.limits.max-streams lets it' },
  ],
  transports: {
    answer: 'one request counted; RateLimit headers on the answer',
    stream: 'counted once, and held as an open stream against framework.http.rate-limit.streams until it ends',
    upgrade:
      'counted once at the upgrade, held as an open stream while the socket lives, against @RateLimit({ streams }) and the caps on open streams',
    message: 'messages on an open socket are not counted',
  },
  // Refused credentials are counted in the same store: with a mechanism to refuse them, Redis is needed too.
  packages: (build) =>
    build.config.get('framework.http.rate-limit.backend') === 'redis' &&
    (build.find(RATE_LIMITS)?.used || build.find(SECURITY)?.refusals !== undefined)
      ? [{ name: 'ioredis', feature: 'framework.http.rate-limit.backend=redis' }]
      : [],
  build(build) {
    const limiters = new RateLimiters(rateLimitSettings(build.config));
    build.provide(RATE_LIMITS, limiters);
    const refusals = limiters.failedAuthentications();
    if (refusals) build.provide(REFUSALS, refusals);
    const admission = streamAdmission(build.config, limiters.client);
    return {
      endpoint(plan) {
        const joins: EndpointJoin[] = [];
        const declared = declaredOn(plan, RATE_LIMIT);
        // A call is counted apart only under a limit of its own (its endpoint counted the request already).
        if (plan.transport === 'call' && declared === undefined) return joins;
        const step = build.problems.attempt(plan.where, () =>
          limiters.step(declared, plan.where, plan.streams || plan.transport === 'upgrade'),
        );
        if (step) joins.push({ phase: 'admit', step, answers: [429] });
        // The caps on open streams, after the limit; an open socket is a stream too, held until it closes.
        if (admission && plan.streams && plan.transport !== 'call')
          joins.push({ phase: 'admit', step: admission, answers: [429, 503] });
        return joins;
      },
      // Only once an endpoint is limited do answers carry RateLimit headers.
      get finish() {
        const headers = limiters.used ? limiters.finish : undefined;
        if (!admission) return headers;
        return headers ? (ctx: RequestContext) => (headers(ctx), releaseUnlessStreaming(ctx)) : releaseUnlessStreaming;
      },
      close: () => limiters.close(),
    };
  },
});
