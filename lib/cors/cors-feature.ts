/** CORS as a feature: preflights answered before routing, origins refused, CORS headers on every answer. */
import { defineFeature } from '../feature/define-feature';
import { corsSettings, corsStages } from './cors';

export const corsFeature = defineFeature({
  name: 'cors',
  settings: ['framework.http.cors.'],
  phases: ['receive', 'finish'],
  answers: [{ status: 403, when: 'an origin, method or header the CORS rules do not admit' }],
  transports: {
    answer:
      'preflights answered before routing; Access-Control-* headers and Vary: Origin on every answer, errors included',
    stream: 'the headers go out with the stream head',
    upgrade:
      'CORS does not apply to sockets: the WebSocket feature checks the origin of every upgrade (its own rules, plus these origins when CORS is on)',
  },
  build(build) {
    const settings = corsSettings(build.config);
    if (!settings) return undefined;
    const { before, finish } = corsStages(settings);
    return { receive: before, finish };
  },
});
