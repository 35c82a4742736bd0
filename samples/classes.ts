/** Every class of the samples application; each feature's resources add themselves here. */
import { chatSampleClasses } from './chat/chat-resource';
import { cheeseSampleClasses } from './cheeses/cheese-resource';
import { ConditionalResource } from './conditional/conditional-resource';
import { conditionalSampleClasses } from './conditional/conditional-inclusion';
import { errorSampleClasses } from './errors/error-resource';
import { FruitResource } from './fruits/fruit-resource';
import { jobSampleClasses } from './jobs/job-resource';
import { UploadsReadiness } from './health/uploads-readiness';
import { legumeSampleClasses } from './legumes/legume-resource';
import { negotiatedSampleClasses } from './negotiated/negotiated-resource';
import { mcpSampleClasses } from './mcp/conformance-server';
import { multipartSampleClasses } from './multipart/multipart-resource';
import { RecordResource } from './records/record-resource';
import { securitySampleClasses } from './security/security-resource';
import { StoredFruitResource } from './stored-fruits/stored-fruit-resource';
import { streamSampleClasses } from './streams/stream-resource';
import { websocketSampleClasses } from './websocket/chat-socket';

export const sampleClasses: Function[] = [
  FruitResource,
  ConditionalResource,
  StoredFruitResource,
  ...conditionalSampleClasses,
  ...legumeSampleClasses,
  ...errorSampleClasses,
  ...cheeseSampleClasses,
  ...negotiatedSampleClasses,
  ...multipartSampleClasses,
  RecordResource,
  ...streamSampleClasses,
  ...chatSampleClasses,
  ...jobSampleClasses,
  ...securitySampleClasses,
  ...websocketSampleClasses,
  ...mcpSampleClasses,
  UploadsReadiness,
];
