/**
 * The parameters of an MCP method, told apart by type once at build time: the call's handle (`McpCall`), the
 * `SecurityContext`, and at most one parameter for the input (a tool's arguments, a prompt's, a template's variables).
 */
import { locate, type ProblemCollector } from '../errors/definition-error';
import { readDesignType } from '../metadata/reflect-shim';
import { SecurityContext } from '../security/security-context';
import type { Unit } from '../metadata/unit';
import { McpCall } from './mcp-call';

type ParameterKind = 'input' | 'call' | 'security';

/** What a method is called with, per request. */
export interface Invocation {
  readonly input: unknown;
  readonly call: McpCall | undefined;
  readonly security: SecurityContext;
}

export interface McpMethod {
  /** `Class#method`, for errors and logs. */
  readonly where: string;
  /** The declared type of the input parameter (`undefined`: none, or unknown). */
  readonly inputType: unknown;
  readonly takesInput: boolean;
  readonly takesCall: boolean;
  /** Calls the method with its parameters in their places. */
  invoke(invocation: Invocation): unknown;
}

function kindOf(type: unknown): ParameterKind {
  if (type === McpCall) return 'call';
  if (type === SecurityContext) return 'security';
  return 'input';
}

/** Reads the method's parameters; a second input parameter, or a handle where none is given, is a problem. */
export function compileMcpMethod(
  unit: Unit,
  name: string,
  problems: ProblemCollector,
  callAllowed: boolean,
): McpMethod {
  const where = locate(unit.type, name);
  const fn = (unit.instance as Record<string, Function>)[name]!;
  const types = (readDesignType('design:paramtypes', unit.type.prototype, name) as unknown[] | undefined) ?? [];
  const count = Math.max(types.length, fn.length);
  const kinds: ParameterKind[] = [];
  let inputType: unknown;
  for (let i = 0; i < count; i++) {
    const kind = kindOf(types[i]);
    if (kind === 'input' && kinds.includes('input'))
      problems.add(
        where,
        'takes one parameter for its input (the arguments); the others are McpCall or SecurityContext',
      );
    if (kind === 'call' && !callAllowed) problems.add(where, 'only a @Tool method gets an McpCall');
    if (kind === 'input') inputType = types[i];
    kinds.push(kind);
  }
  const instance = unit.instance;
  return {
    where,
    inputType,
    takesInput: kinds.includes('input'),
    takesCall: kinds.includes('call'),
    invoke(invocation) {
      const args = kinds.map((kind) =>
        kind === 'input' ? invocation.input : kind === 'call' ? invocation.call : invocation.security,
      );
      return fn.apply(instance, args);
    },
  };
}
