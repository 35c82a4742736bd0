/**
 * One MCP method as the build step compiles it, whatever it serves (a tool, a resource, a prompt, a completion): its
 * parameters told apart by type once — the call's handle (`McpCall`), the `SecurityContext`, and at most one parameter
 * for the input — and its guard: `@Authenticated`/`@RolesAllowed` hide it from the lists of callers who may not use it
 * and answer its calls 401/403 as a resource method would; `@RateLimit` counts its calls apart.
 */
import { ACCESS_RULE, type AccessRule } from '../decorators/security';
import { locate, type ProblemCollector } from '../errors/definition-error';
import { readDesignType } from '../metadata/reflect-shim';
import type { MetaKey, MethodMeta } from '../metadata/store';
import type { Unit } from '../metadata/unit';
import { chain, type StageFn } from '../pipeline/chain';
import { SecurityContext } from '../security/security-context';
import type { McpBuildContext } from './mcp-build-context';
import { McpCall } from './mcp-call';

type ParameterKind = 'input' | 'call' | 'security';

export interface McpMethod {
  /** `Class#method`, for errors and logs. */
  readonly where: string;
  /** The declared type of the input parameter (`undefined`: none, or unknown). */
  readonly inputType: unknown;
  readonly takesInput: boolean;
  readonly takesCall: boolean;
  /** Calls the method with its parameters in their places. */
  invoke(input: unknown, security: SecurityContext, call?: McpCall): unknown;
}

export interface MethodGuard {
  readonly rule: AccessRule | undefined;
  /** Authenticates and applies the rule and the limit before a call; `undefined` when nothing guards it. */
  readonly check: StageFn | undefined;
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
  const kinds: ParameterKind[] = [];
  let inputType: unknown;
  for (let i = 0; i < Math.max(types.length, fn.length); i++) {
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
    invoke(input, security, call) {
      return fn.apply(
        instance,
        kinds.map((kind) => (kind === 'input' ? input : kind === 'call' ? call : security)),
      );
    },
  };
}

/** Whether `security` passes `rule` (for lists: a method the caller may not use is not shown to it). */
export function allows(rule: AccessRule | undefined, security: SecurityContext): boolean {
  if (rule === undefined || rule.kind === 'permit-all') return true;
  if (rule.kind === 'deny-all' || !security.userPrincipal) return false;
  return rule.kind === 'authenticated' || rule.roles.some((role) => security.isUserInRole(role));
}

/**
 * The method's own rule and limit (its class's apply to every request, before this): the security and rate-limit
 * features' own steps, joined to the method as a call through its server's endpoint.
 */
export function methodGuard(unit: Unit, method: MethodMeta, where: string, context: McpBuildContext): MethodGuard {
  const info = { ...context.info, methodName: method.name };
  const joined = context.joins({ unit, method, where, info, produces: [], streams: false, transport: 'call' });
  const steps = [...joined.at('authenticate'), ...joined.at('admit')];
  return { rule: method.tags.get(ACCESS_RULE), check: steps.length ? chain(steps) : undefined };
}

/**
 * The class's methods tagged `tag`, each compiled to its key and what it is (`undefined`: not, its problems recorded).
 * A key taken twice is the problem `taken` words; without `taken`, the last method of a key wins.
 */
export function compileTagged<O, T>(
  unit: Unit,
  problems: ProblemCollector,
  tag: MetaKey<O>,
  compile: (options: O, meta: MethodMeta, where: string) => readonly [string, T] | undefined,
  taken?: (key: string, holder: T) => string,
): Map<string, T> {
  const compiled = new Map<string, T>();
  for (const meta of unit.meta.methods.values()) {
    const options = meta.tags.get(tag);
    const where = locate(unit.type, meta.name);
    const entry = options && compile(options, meta, where);
    if (!entry) continue;
    const holder = compiled.get(entry[0]);
    if (holder !== undefined && taken) problems.add(where, taken(entry[0], holder));
    else compiled.set(...entry);
  }
  return compiled;
}
