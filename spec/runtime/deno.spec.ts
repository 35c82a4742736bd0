import { describeContract } from './support/contract';

describeContract('deno');
