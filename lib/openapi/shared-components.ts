/**
 * The document's shared components: the problem-details schema and the error answers operations refer to, each
 * written only when some operation refers to it (a component nobody uses is a linter's complaint).
 */
import type { JsonSchema } from './type-schema';

/** The error answers the framework itself gives, by status. */
const ERROR_RESPONSES: Readonly<Record<string, string>> = {
  '400': 'A parameter or the body is invalid (problem details list each violation)',
  '401': 'No credential, or one that is not accepted: the WWW-Authenticate header names the schemes',
  '403': 'The caller may not use this operation',
  '404': 'No such resource, or a path or query parameter that does not convert',
  '406': 'None of the Accept types can be produced',
  '413': 'The body or one of its parts is larger than its limit',
  '415': 'The Content-Type is not one the endpoint consumes',
  '429': 'Past the per-client limit: Retry-After says when to come back',
  '500': 'An unexpected error; nothing of it reaches the client but this problem',
  '503': 'The service cannot answer now (shutting down, or what it depends on is unreachable)',
};

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details, with the stable error code',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    violations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { in: { type: 'string' }, field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/**
 * What an error answer can carry: the framework's problem details, or — for a `WebApplicationException` the
 * application throws with a message — that message as text.
 */
export function errorContent(): JsonSchema {
  return {
    'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    'text/plain': { schema: { type: 'string' } },
  };
}

/** Whether the framework has a shared answer for `status`. */
export function isSharedError(status: string): boolean {
  return status in ERROR_RESPONSES;
}

/** The shared answer for `status`, whole (to merge a mapper's answer into). */
export function sharedError(status: string): JsonSchema {
  return {
    description: `${ERROR_RESPONSES[status] ?? 'An answer a feature of the application gives by itself'}. A WebApplicationException thrown with a message answers it as text/plain`,
    content: errorContent(),
  };
}

/** What the operations refer to, gathered while they are described. */
export interface UsedComponents {
  /** The statuses whose shared answer an operation refers to. */
  readonly responses: Set<string>;
  /** Whether some answer carries problem details (inline ones too). */
  problem: boolean;
}

/** The components the operations refer to, and the schemes of `securitySchemes`; undefined when there are none. */
export function components(used: UsedComponents, securitySchemes: JsonSchema): JsonSchema | undefined {
  const responses = [...used.responses].sort().map((status) => [status, sharedError(status)]);
  const parts: JsonSchema = {};
  if (used.problem || responses.length) parts['schemas'] = { Problem: PROBLEM_SCHEMA };
  if (responses.length) parts['responses'] = Object.fromEntries(responses);
  if (Object.keys(securitySchemes).length) parts['securitySchemes'] = securitySchemes;
  return Object.keys(parts).length ? parts : undefined;
}
