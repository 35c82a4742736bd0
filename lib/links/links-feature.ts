/** Links and HAL as a feature: `@InjectRestLinks` Link headers, HAL wrapping, injected link providers. */
import { defineFeature } from '../feature/define-feature';
import { collectLinkTargets } from './collect-link-targets';
import { linkStage } from './link-stage';

export const linksFeature = defineFeature({
  name: 'links',
  settings: [],
  phases: ['after-invoke'],
  transports: {
    answer: 'Link headers (RFC 8288) on @InjectRestLinks methods; application/hal+json entities wrapped with _links',
    stream: 'not applied to streamed items',
  },
  build(build) {
    const links = { registry: collectLinkTargets(build.resources, build.applicationPath, build.problems) };
    return {
      endpoint(plan) {
        if (plan.transport !== 'answer') return undefined;
        const step = linkStage(plan.unit, plan.method, plan.info, links, plan.produces);
        return step ? [{ phase: 'after-invoke', step }] : undefined;
      },
    };
  },
});
