/** Links and HAL as a feature: `@InjectRestLinks` Link headers, HAL wrapping, injected link providers. */
import { defineFeature } from '../feature/define-feature';
import { hostRules } from '../http/allowed-hosts';
import { proxySettings } from '../rate-limit/client-address';
import { collectLinkTargets } from './collect-link-targets';
import { linkStage } from './link-stage';

export const linksFeature = defineFeature({
  name: 'links',
  settings: [
    'framework.http.proxy.proxy-address-forwarding',
    'framework.http.allowed-hosts',
    'framework.http.public-base-url',
  ],
  phases: ['after-invoke'],
  transports: {
    answer: 'Link headers (RFC 8288) on @InjectRestLinks methods; application/hal+json entities wrapped with _links',
    stream: 'not applied to streamed items',
  },
  build(build) {
    const { config } = build;
    const hosts = hostRules(config.get('framework.http.allowed-hosts'), config.get('framework.http.public-base-url'));
    const links = {
      registry: collectLinkTargets(build.resources, build.applicationPath, build.problems),
      // A configured public origin is the origin: forwarding headers cannot name another.
      proxy:
        config.get('framework.http.proxy.proxy-address-forwarding') && !hosts?.public
          ? proxySettings(config)
          : undefined,
      allowsHost: hosts?.allows,
    };
    return {
      endpoint(plan) {
        if (plan.transport !== 'answer') return undefined;
        const step = linkStage(plan.unit, plan.method, plan.info, links, plan.produces);
        return step ? [{ phase: 'after-invoke', step }] : undefined;
      },
    };
  },
});
