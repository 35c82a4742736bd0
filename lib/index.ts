/** The public API of rxrest: everything users import comes from here. */
export { Application } from './decorators/application';
export {
  ApplicationPath,
  Path,
  HttpMethod,
  GET,
  HEAD,
  POST,
  PUT,
  DELETE,
  OPTIONS,
  PATCH,
  Produces,
  Consumes,
  type MethodDecoratorFn,
} from './decorators/resource';
export {
  RestPath,
  RestQuery,
  RestHeader,
  RestCookie,
  RestForm,
  RestMatrix,
  PathParam,
  QueryParam,
  HeaderParam,
  CookieParam,
  FormParam,
  MatrixParam,
  Body,
  Context,
  BeanParam,
  DefaultValue,
  Separator,
  DateFormat,
  type ParamOptions,
  type TypeHint,
  type EnumLike,
} from './decorators/params';
// params: conversion, context objects, body types, readers/writers/interceptors, JSON
export { UriInfo } from './params/context/uri-info';
export { UriBuilder } from './params/context/uri-builder';
export { HttpHeaders } from './params/context/http-headers';
export { ResourceInfo } from './params/context/resource-info';
export { registerContextType, type ContextResolver } from './params/context-types';
export type { ParamConverter, ParamConverterProvider } from './convert/param-converter';
export { LocalFile } from './body/local-file-body';
export type { EntityWriter, WrittenBody, WriteTarget } from './body/entity-writers';
export {
  IOException,
  type MessageBodyReader,
  type MessageBodyWriter,
  type ServerMessageBodyWriter,
  type ServerWriterContext,
  type EntityInput,
  type ReaderInterceptor,
  type WriterInterceptor,
  type ReaderInterceptorContext,
  type WriterInterceptorContext,
} from './body/message-body';
export { ConstrainedTo, type RuntimeType } from './providers/constrained-to';
export { JsonValue, JsonObject, JsonArray, type JsonPrimitive } from './json/json-values';
export {
  JsonIgnoreProperties,
  JsonFormat,
  JsonProperty,
  JsonCreator,
  type JsonIgnorePropertiesOptions,
  type JsonFormatOptions,
  type JsonPropertyOptions,
} from './json/json-decorators';
export { DefaultJsonMapper, type JsonFeature } from './json/default-json-mapper';
export type { JsonMapper, JsonMapperCustomizer, JsonMapperProducer } from './json/json-mapper';
export {
  ServerRequestFilter,
  ServerResponseFilter,
  ServerExceptionMapper,
  Provider,
  Priority,
  PreMatching,
  NameBinding,
  ResponseStatus,
  ResponseHeader,
  DEFAULT_PRIORITY,
  type RequestFilterOptions,
  type ResponseFilterOptions,
  type ProviderOptions,
  type NameBindingDecorator,
} from './decorators/providers';
export { UnwrapException, ExceptionUnwrapStrategy, type UnwrapStrategy } from './decorators/exceptions';
export {
  Interceptor,
  InterceptorBinding,
  type MethodInterceptor,
  type InvocationContext,
  type InterceptorBindingDecorator,
} from './decorators/interceptors';
export type { ClassOrMethodDecorator, ParamOrPropertyDecorator } from './decorators/decorator-types';

export {
  WebApplicationException,
  BadRequestException,
  NotAuthorizedException,
  ForbiddenException,
  NotFoundException,
  NotAllowedException,
  NotAcceptableException,
  ConflictException,
  GoneException,
  PreconditionFailedException,
  PayloadTooLargeException,
  NotSupportedException,
  InternalServerErrorException,
  ServiceUnavailableException,
  RedirectionException,
  type WebApplicationExceptionOptions,
} from './errors/web-application-exception';
export {
  ErrorCodes,
  PROBLEM_JSON,
  type ErrorCode,
  type ProblemDetails,
  type Violation,
} from './errors/problem-details';

export { PartType } from './decorators/multipart';
export { FileUpload, UploadedFilePath, UploadedFileHandle, type PartHeaders } from './multipart/file-upload';
export {
  FormValue,
  MultipartFormDataInput,
  type FileItem,
  type ItemSummary,
} from './multipart/multipart-form-data-input';
export {
  MultipartFormDataOutput,
  OutputPart,
  type PartValue,
  type FileSource,
} from './multipart/multipart-form-data-output';
export { MultipartPartReadingException } from './multipart/read-part-entity';

export { RestResponse, ResponseBuilder } from './response/rest-response';
export { ResponseHeaders } from './response/response-headers';
export {
  RequestContext,
  RequestContext as ContainerRequestContext,
  type EndpointInfo,
  type Lane,
} from './context/request-context';
export { ResponseContext, ResponseContext as ContainerResponseContext } from './context/response-context';

export { EntityTag } from './http/entity-tag';
export { NewCookie, type NewCookieOptions } from './http/cookies';
export type { CacheControl } from './http/cache-control';
export type { WebLink } from './http/link-header';
export { type MediaType, parseMediaType, formatMediaType, mediaType } from './http/media-type';
export { formatHttpDate, parseHttpDate } from './http/http-date';
export { parseSize } from './http/size';
// http: preconditions, compression, build conditions
export { RestRequest } from './preconditions/rest-request';
export { Compressed, Uncompressed, GZIP, type CompressionMode } from './decorators/compression';
export {
  IfBuildProfile,
  UnlessBuildProfile,
  IfBuildProperty,
  UnlessBuildProperty,
  EndpointDisabled,
  type ProfileSelector,
  type BuildPropertyOptions,
  type EndpointDisabledOptions,
} from './decorators/build-conditions';

// links: web links and HAL
export { RestLink, InjectRestLinks, RestLinkId, RestLinkType, type RestLinkOptions } from './decorators/links';
export { RestLinksProvider } from './links/rest-links-provider';
export { RestMediaType } from './hal/rest-media-type';
export { HalService } from './links/hal-service';
export { HalEntityWrapper, type HalWrapper } from './hal/hal-entity-wrapper';
export { HalCollectionWrapper } from './hal/hal-collection-wrapper';
export type { HalLink } from './hal/hal-link';

// streaming, execution lanes, files (docs/streaming.md)
export { multi, uni, isMulti, Multi, type Uni } from './streaming/multi';
export { RestMulti } from './streaming/rest-multi';
export { sseEvent, type SseEvent } from './streaming/sse-event';
export { StreamOverflowError, type OverflowPolicy } from './streaming/backlog';
export { StreamBuffer } from './decorators/streaming';
export { RestStreamElementType } from './decorators/stream-element-type';
export { Blocking, NonBlocking, Transactional } from './decorators/execution';
export { Authenticated, DenyAll, PermitAll, RolesAllowed } from './decorators/security';
export { SecurityContext, securityContext, type Identity, type Principal } from './security/security-context';
export {
  CredentialRefused,
  type AuthenticationMechanism,
  type SecurityScheme,
} from './security/authentication-mechanism';
export { apiKeys, type ApiKeyOptions } from './security/api-key-mechanism';
export { RateLimit, type RateLimitOptions } from './decorators/rate-limit';
export { localFile, FilePart } from './files/file-results';

export { RestApplication, RestApp, type BuildOptions, type EndpointSummary } from './assembly/rest-application';
export * from './feature';

// health checks, served at framework.health.path
export { Liveness, Readiness, Startup } from './decorators/health';
export {
  HealthCheckResponse,
  HealthCheckResponseBuilder,
  type HealthCheck,
  type HealthStatus,
  type HealthKind,
} from './health/health-check';

// OpenAPI: the document of the application, served at framework.openapi.path
export {
  Tag,
  Operation,
  APIResponse,
  Hidden,
  type APIResponseOptions,
  type OperationOptions,
} from './decorators/openapi';
export type { OpenApiDocument } from './openapi/openapi-document';
export type { OperatorFilter } from './assembly/compile-filters';
export { DefinitionError, type DefinitionProblem } from './errors/definition-error';
export type { RunningServer } from './server/listen';

export {
  Config,
  ConfigError,
  type ConfigProblem,
  loadConfig,
  type LoadConfigOptions,
  resolveConfig,
  describeConfiguration,
  type FrameworkConfig,
  type FrameworkKey,
} from './config';
export { LOG_CATEGORIES, LOG_LEVELS, type LogLevel } from './logging/log-level';
export type { LogRecord, LogSink } from './logging/log-record';
export { configureLogging, LogManager, logging, type Logger } from './logging/logger';
export {
  Broadcaster,
  type BroadcasterOptions,
  type PublishOptions,
  type SubscribeOptions,
  type SubscriptionChange,
} from './broadcast/broadcaster';
export { broadcast } from './broadcast/topics';
export { resumable, type ResumableEnd, type ResumableOptions, type ResumableStream } from './broadcast/resumable';
export { resume } from './broadcast/resume';
export { OnBinaryMessage, OnClose, OnError, OnOpen, OnTextMessage, WebSocketEndpoint } from './decorators/websocket';
export { WebSocketConnection } from './websocket/web-socket-connection';
export { bunWebSocket } from './runtime/runtime-sockets';
export { nodeWebSocket } from './websocket/node-web-socket';

// Model Context Protocol servers (docs/mcp.md)
export * from './mcp';
