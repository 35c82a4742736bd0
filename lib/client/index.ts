/**
 * `rxrest/client`: typed, reactive REST clients made from resource classes. It loads nothing of the server nor Node,
 * and exports the decorators, so a contract class written against it alone is shared by server and browser.
 */
export { RestClient } from './rest-client';
export type {
  ClientControls,
  ClientProvider,
  ClientRequestContext,
  ClientRequestFilter,
  ClientResponseContext,
  ClientResponseFilter,
  RestClientOptions,
} from './rest-client';
export type {
  ClientArg,
  ClientArgs,
  ClientEventsOf,
  ClientItem,
  ClientValue,
  MethodNames,
  RestClientOf,
} from './client-types';
export { StreamEndedException, type ClientSseEvent } from './read-response';
export { ResponseTooLargeException, type AnswerLimits } from './answer-limits';
export { ResponseProcessingException } from './response-processing';
export { StreamResetException } from './resuming-call';
export {
  McpClient,
  McpClientError,
  type McpCallEvent,
  type McpClientOptions,
  type McpRequestHandler,
  type McpToolResult,
} from './mcp-client';
export type { McpReconnectOptions } from './mcp-stream';
export type { CallOptions, ReconnectOptions } from './write-request';
export {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  InternalServerErrorException,
  NotAcceptableException,
  NotAllowedException,
  NotAuthorizedException,
  NotFoundException,
  NotSupportedException,
  PayloadTooLargeException,
  PreconditionFailedException,
  RedirectionException,
  ServiceUnavailableException,
  WebApplicationException,
} from '../errors/web-application-exception';
export type { ProblemDetails, Violation } from '../errors/problem-details';
export {
  Consumes,
  DELETE,
  GET,
  HEAD,
  HttpMethod,
  OPTIONS,
  PATCH,
  POST,
  PUT,
  Path,
  Produces,
} from '../decorators/resource';
export {
  BeanParam,
  Body,
  CookieParam,
  DateFormat,
  DefaultValue,
  FormParam,
  HeaderParam,
  MatrixParam,
  PathParam,
  QueryParam,
  RestCookie,
  RestForm,
  RestHeader,
  RestMatrix,
  RestPath,
  RestQuery,
  Separator,
} from '../decorators/params';
export { RestStreamElementType } from '../decorators/stream-element-type';
export { ConstrainedTo } from '../providers/constrained-to';
export type { MessageBodyReader, MessageBodyWriter, EntityInput } from '../body/message-body';
export { DefaultJsonMapper } from '../json/default-json-mapper';
export type { JsonMapper, JsonMapperCustomizer } from '../json/json-mapper';
export { Multi, multi } from '../streaming/multi';
export {
  SocketClient,
  SocketClosedException,
  type ClientWebSocket,
  type ConnectOptions,
  type SocketClientOptions,
  type SocketMessageIn,
  type SocketMessageOut,
  type SocketMethodNames,
  type WebSocketFactory,
} from './socket-client';
export { OnBinaryMessage, OnClose, OnError, OnOpen, OnTextMessage, WebSocketEndpoint } from '../decorators/websocket';
