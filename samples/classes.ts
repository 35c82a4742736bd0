/** Every class of the samples application; each feature's resources add themselves here. */
import { cheeseSampleClasses } from './cheeses/cheese-resource';
import { errorSampleClasses } from './errors/error-resource';
import { FruitResource } from './fruits/fruit-resource';
import { legumeSampleClasses } from './legumes/legume-resource';
import { negotiatedSampleClasses } from './negotiated/negotiated-resource';
import { RecordResource } from './records/record-resource';

export const sampleClasses: Function[] = [
  FruitResource,
  ...legumeSampleClasses,
  ...errorSampleClasses,
  ...cheeseSampleClasses,
  ...negotiatedSampleClasses,
  RecordResource,
];
