import { describeSocketBackpressure } from './support/socket-backpressure';

describeSocketBackpressure('deno');
