import { describeContract } from './support/contract';

describeContract('workerd');
