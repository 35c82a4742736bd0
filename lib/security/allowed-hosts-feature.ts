/**
 * Allowed hosts as a feature: `listen()` applies the rules before a context is made (`server/request-host.ts`); this
 * step does it for `app.fetch`, where the refusal goes through the finishing touches (CORS, nosniff).
 */
import { RequestAborted } from '../context/request-context';
import { PROBLEM_JSON, problemDetails } from '../errors/problem-details';
import { BuildKey } from '../feature/build-key';
import { defineFeature } from '../feature/define-feature';
import { hostRules, type HostRules } from '../http/allowed-hosts';
import type { StageFn } from '../context/settle';

/** For `listen()` (absent: any Host, as sent). */
export const HOSTS = new BuildKey<HostRules>('allowed-hosts');

function refusal(): Response {
  const problem = problemDetails('RXREST_INVALID_HOST', 'The request is for a host this server does not serve');
  return new Response(JSON.stringify(problem), {
    status: 400,
    headers: { 'content-type': `${PROBLEM_JSON};charset=UTF-8` },
  });
}

/** The `receive` step: a request `listen()` made was checked by the listener already. */
function hostStep(rules: HostRules): StageFn {
  const origin = rules.public?.origin;
  return (ctx) => {
    if (ctx.exchange !== undefined) return ctx;
    const url = new URL(ctx.url);
    if (rules.allows && !rules.allows(url.host)) throw new RequestAborted(refusal());
    if (origin !== undefined && url.origin !== origin) ctx.moveOrigin(origin);
    return ctx;
  };
}

export const allowedHostsFeature = defineFeature({
  name: 'allowed-hosts',
  settings: ['framework.http.allowed-hosts', 'framework.http.public-base-url'],
  phases: ['receive'],
  answers: [{ status: 400, when: 'a Host (or :authority, or absolute target) the application does not serve' }],
  transports: {
    answer: 'checked before routing, on every port; the URL moved onto the public origin',
    stream: 'as an answer',
    upgrade: 'as an answer: a refused upgrade never becomes a socket',
  },
  build(build) {
    const rules = hostRules(
      build.config.get('framework.http.allowed-hosts'),
      build.config.get('framework.http.public-base-url'),
    );
    if (!rules) return undefined;
    build.provide(HOSTS, rules);
    return { receive: hostStep(rules) };
  },
});
