/** The feature contract, as applications use it to add their own features. */
export { BuildKey, ListKey } from './build-key';
export { defineFeature } from './define-feature';
export { declaredOn } from './feature';
export type {
  Around,
  Within,
  EndpointJoin,
  EndpointJoins,
  EndpointPlan,
  Feature,
  FeatureAnswer,
  FeatureBuild,
  FeatureParts,
  JoinedSteps,
  PackageNeed,
  Transport,
} from './feature';
export { PHASES, type Phase, type PhaseDescription } from './phases';
export { ContextKey } from '../context/context-key';
