/** Every class of the samples application; each feature's resources add themselves here. */
import { errorSampleClasses } from './errors/error-resource';
import { FruitResource } from './fruits/fruit-resource';
import { legumeSampleClasses } from './legumes/legume-resource';
import { RecordResource } from './records/record-resource';

export const sampleClasses: Function[] = [
  FruitResource,
  ...legumeSampleClasses,
  ...errorSampleClasses,
  RecordResource,
];
