import { describeContract } from './support/contract';
import { describeFeatures } from './support/features';

describeContract('deno');

describeFeatures('deno');
