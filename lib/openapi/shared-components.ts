/** The document's shared components, each written only when used (an unused one is a linter's complaint). */
import type { JsonSchema } from './type-schema';

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

/** Problem details, or the message a `WebApplicationException` is thrown with, as text. */
export function errorContent(): JsonSchema {
  return {
    'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    'text/plain': { schema: { type: 'string' } },
  };
}

export function isSharedError(status: string): boolean {
  return status in ERROR_RESPONSES;
}

/** Whole, to merge a mapper's answer into. */
export function sharedError(status: string): JsonSchema {
  return {
    description: `${ERROR_RESPONSES[status] ?? 'An answer a feature of the application gives by itself'}. A WebApplicationException thrown with a message answers it as text/plain`,
    content: errorContent(),
  };
}

/** What the operations refer to, gathered while they are described. */
export interface UsedComponents {
  readonly responses: Set<string>;
  /** Whether some answer carries problem details (inline ones too). */
  problem: boolean;
}

export function components(used: UsedComponents, securitySchemes: JsonSchema): JsonSchema | undefined {
  const responses = [...used.responses].sort().map((status) => [status, sharedError(status)]);
  const parts: JsonSchema = {};
  if (used.problem || responses.length) parts['schemas'] = { Problem: PROBLEM_SCHEMA };
  if (responses.length) parts['responses'] = Object.fromEntries(responses);
  if (Object.keys(securitySchemes).length) parts['securitySchemes'] = securitySchemes;
  return Object.keys(parts).length ? parts : undefined;
}
