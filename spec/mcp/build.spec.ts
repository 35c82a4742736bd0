import { z } from 'zod';
import {
  Authenticated,
  Completion,
  DefinitionError,
  McpCall,
  McpResource,
  McpServer,
  Prompt,
  RolesAllowed,
  SecurityContext,
  Tool,
} from '../../lib';
import { buildApp } from '../support/app';

/** The problems a build reports, each as `where: message`. */
function problemsOf(classes: Function[]): string[] {
  try {
    buildApp(classes);
  } catch (error) {
    if (error instanceof DefinitionError) return error.problems.map((p) => `${p.location}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('building an @McpServer class', () => {
  it('reports tools that share a name, naming both methods', () => {
    @McpServer('/mcp')
    class Twice {
      @Tool({ name: 'look', description: 'a' })
      first(): string {
        return 'a';
      }

      @Tool({ name: 'look', description: 'b' })
      second(): string {
        return 'b';
      }
    }
    expect(problemsOf([Twice])).toEqual(['Twice#second: the tool name "look" is taken by Twice#first']);
  });

  it('reports a tool name MCP does not allow and a tool without a description', () => {
    @McpServer('/mcp')
    class Badly {
      @Tool({ name: 'look around', description: '' })
      look(): string {
        return '';
      }
    }
    expect(problemsOf([Badly])).toEqual([
      `Badly#look: the tool name "look around" must be 1 to 128 letters, digits, '_', '-' or '.'`,
      'Badly#look: a @Tool needs a description (the model reads it to choose tools)',
    ]);
  });

  it('reports an input that is not an object, a second input parameter, and an input nothing receives', () => {
    @McpServer('/mcp')
    class Inputs {
      @Tool({ description: 'a', input: z.string() })
      scalar(text: string): string {
        return text;
      }

      @Tool({ description: 'b' })
      two(first: { a: string }, second: { b: string }): string {
        return first.a + second.b;
      }

      @Tool({ description: 'c', input: z.object({ a: z.string() }) })
      deaf(): string {
        return '';
      }
    }
    expect(problemsOf([Inputs])).toEqual([
      'Inputs#scalar: the input of a tool is an object of named arguments: give a z.object(...) schema',
      'Inputs#two: takes one parameter for its input (the arguments); the others are McpCall or SecurityContext',
      'Inputs#deaf: declares an input but has no parameter for it',
    ]);
  });

  it('takes McpCall and SecurityContext parameters beside the input, by type', () => {
    @McpServer('/mcp')
    class Injected {
      @Tool({ description: 'a', input: z.object({ a: z.string() }) })
      all(call: McpCall, args: { a: string }, security: SecurityContext): string {
        return `${String(call.requestId)}${args.a}${security.isSecure}`;
      }
    }
    expect(problemsOf([Injected])).toEqual([]);
  });

  it('reports @Authenticated and @RolesAllowed with no authentication mechanism, on the class and on a tool', () => {
    @McpServer('/mcp')
    @Authenticated
    class Guarded {
      @Tool({ description: 'a' })
      @RolesAllowed('admin')
      admin(): string {
        return '';
      }
    }
    expect(problemsOf([Guarded])).toEqual([
      'Guarded: @Authenticated needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()',
      'Guarded#admin: @RolesAllowed needs an authentication mechanism: set framework.security.jwt.jwks-url or .public-key-file, or pass authentication to build()',
    ]);
  });

  it('reports a path with variables', () => {
    @McpServer('/mcp/{tenant}')
    class Tenanted {}
    expect(problemsOf([Tenanted])).toEqual(["Tenanted: an MCP server's path has no variables: /mcp/{tenant}"]);
  });

  it('reports resources with both a uri and a template, or neither, a level-2 template, a second of one URI, and input on a fixed URI', () => {
    @McpServer('/mcp')
    class Resources {
      @McpResource({ uri: 'a://x', uriTemplate: 'a://{x}' })
      both(): string {
        return '';
      }

      @McpResource({})
      neither(): string {
        return '';
      }

      @McpResource({ uriTemplate: 'a://{+path}' })
      reserved(vars: { path: string }): string {
        return vars.path;
      }

      @McpResource({ uri: 'a://one' })
      one(): string {
        return '';
      }

      @McpResource({ uri: 'a://one' })
      again(): string {
        return '';
      }

      @McpResource({ uri: 'a://fixed' })
      fixed(vars: { id: string }): string {
        return vars.id;
      }
    }
    expect(problemsOf([Resources])).toEqual([
      'Resources#both: an @McpResource has either a uri or a uriTemplate',
      'Resources#neither: an @McpResource has either a uri or a uriTemplate',
      'Resources#reserved: the URI template a://{+path} has an expression other than {name} (only level 1 is supported)',
      'Resources#again: the resource a://one is served by Resources#one already',
      'Resources#fixed: a resource of a fixed uri gets no input: give a uriTemplate to receive its variables',
    ]);
  });

  it('reports an McpCall on a method that is no tool, prompt arguments that are no object, and completions of nothing', () => {
    @McpServer('/mcp')
    class Others {
      @Prompt({ arguments: z.array(z.string()) })
      listed(args: string[]): string {
        return args.join();
      }

      @McpResource({ uri: 'a://b' })
      handled(call: McpCall): string {
        return String(call.requestId);
      }

      @Completion({ prompt: 'listed', argument: 'nope' })
      nothing(): string[] {
        return [];
      }

      @Completion({ argument: 'x' })
      nowhere(): string[] {
        return [];
      }
    }
    expect(problemsOf([Others])).toEqual([
      'Others#handled: only a @Tool method gets an McpCall',
      'Others#listed: the arguments of a prompt are an object of strings: give a z.object(...) schema',
      'Others#nothing: completes nope of the prompt listed, which has no such argument',
      'Others#nowhere: a @Completion completes either a prompt or a resourceTemplate',
    ]);
  });
});
