/**
 * `/mcp`: an MCP server with the fixtures of the official conformance suite (`@modelcontextprotocol/conformance`,
 * whose server scenarios run against it in the suite) — `test_*` tools, `test://` resources and `test_*` prompts — and
 * `count_slow`, which reports progress 1..n, one every `delayMs`, then answers `done n`.
 */
import { concat, delay, endWith, interval, map, of, take, tap, timer, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  Completion,
  logNotice,
  McpCall,
  McpResource,
  McpServer,
  progressNotice,
  Prompt,
  Tool,
  ToolError,
  type CompletionRequest,
  type McpNotice,
} from '../../lib';
import {
  DEFAULTS_SCHEMA,
  ENUMS_SCHEMA,
  image,
  PERSON_WITH_ADDRESS,
  RED_PIXEL_PNG,
  SILENT_WAV,
  USER_SCHEMA,
} from './fixtures';

const text = (value: string) => ({ type: 'text', text: value });

@McpServer('/mcp', { name: 'rxrest-samples', version: '1.0.0' })
export class ConformanceServer {
  @Tool({ name: 'test_simple_text', description: 'Answers a simple text' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Answers an image' })
  imageContent(): unknown {
    return image;
  }

  @Tool({ name: 'test_audio_content', description: 'Answers a sound' })
  audioContent(): unknown {
    return { type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' };
  }

  @Tool({ name: 'test_embedded_resource', description: 'Answers an embedded resource' })
  embeddedResource(): unknown {
    return {
      type: 'resource',
      resource: {
        uri: 'test://embedded-resource',
        mimeType: 'text/plain',
        text: 'This is an embedded resource content.',
      },
    };
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Answers text, an image and a resource' })
  multipleContentTypes(): unknown {
    const json = {
      uri: 'test://mixed-content-resource',
      mimeType: 'application/json',
      text: '{"test":"data","value":123}',
    };
    return [text('Multiple content types test:'), image, { type: 'resource', resource: json }];
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Logs three messages 50 ms apart' })
  withLogging(): Observable<McpNotice | string> {
    return concat(
      of(logNotice('info', 'Tool execution started')),
      timer(50).pipe(map(() => logNotice('info', 'Tool processing data'))),
      timer(50).pipe(map(() => logNotice('info', 'Tool execution completed'))),
      of('Logging test completed'),
    );
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails' })
  errorHandling(): string {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100' })
  withProgress(): Observable<McpNotice | string> {
    return concat(
      of(progressNotice(0, 100)),
      timer(50).pipe(map(() => progressNotice(50, 100))),
      timer(50).pipe(map(() => progressNotice(100, 100))),
      of('Progress test completed'),
    );
  }

  @Tool({ name: 'test_sampling', description: "Asks the client's model", input: z.object({ prompt: z.string() }) })
  sampling(args: { prompt: string }, call: McpCall): Observable<string> {
    return call
      .sample({ messages: [{ role: 'user', content: text(args.prompt) }], maxTokens: 100 })
      .pipe(map((answer) => `LLM response: ${String(answer.content.text ?? '')}`));
  }

  @Tool({ name: 'test_elicitation', description: "Asks the client's user", input: z.object({ message: z.string() }) })
  elicitation(args: { message: string }, call: McpCall): Observable<string> {
    return call
      .elicit({ message: args.message, requestedSchema: USER_SCHEMA })
      .pipe(
        map((answer) => `User response: <action: ${answer.action}, content: ${JSON.stringify(answer.content ?? {})}>`),
      );
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks with a default for every primitive type' })
  elicitationDefaults(call: McpCall): Observable<string> {
    return this.#elicited(call, DEFAULTS_SCHEMA);
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks with the five kinds of enum' })
  elicitationEnums(call: McpCall): Observable<string> {
    return this.#elicited(call, ENUMS_SCHEMA);
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    input: PERSON_WITH_ADDRESS,
  })
  jsonSchema(args: { name?: string }): string {
    return `Hello, ${args.name ?? 'nobody'}`;
  }

  @Tool({ name: 'test_reconnection', description: 'Ends its HTTP answer mid-call; the client resumes for the result' })
  reconnection(call: McpCall): Observable<string> {
    return timer(50).pipe(
      tap(() => call.closeStream()),
      delay(200),
      map(() => 'Reconnection test completed'),
    );
  }

  @Tool({
    name: 'count_slow',
    description: 'Reports progress 1..n, one every delayMs, then answers "done n"',
    input: z.object({ n: z.number().int().min(1).max(100_000), delayMs: z.number().int().min(0).max(60_000) }),
  })
  countSlow(args: { n: number; delayMs: number }): Observable<McpNotice | string> {
    return interval(args.delayMs).pipe(
      take(args.n),
      map((k) => progressNotice(k + 1, args.n)),
      endWith(`done ${args.n}`),
    );
  }

  @McpResource({ uri: 'test://static-text', name: 'static-text', description: 'A text', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @McpResource({ uri: 'test://static-binary', name: 'static-binary', description: 'An image', mimeType: 'image/png' })
  staticBinary(): Uint8Array {
    return Buffer.from(RED_PIXEL_PNG, 'base64');
  }

  @McpResource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource to subscribe to' })
  watched(): string {
    return 'Watched resource content';
  }

  @McpResource({ uriTemplate: 'test://template/{id}/data', name: 'template-data', mimeType: 'application/json' })
  templateData(vars: { id: string }): string {
    return JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` });
  }

  @Prompt({ name: 'test_simple_prompt', description: 'A simple prompt' })
  simplePrompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: z.object({
      arg1: z.string().describe('First test argument'),
      arg2: z.string().describe('Second test argument'),
    }),
  })
  promptWithArguments(args: { arg1: string; arg2: string }): string {
    return `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`;
  }

  @Completion({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1(request: CompletionRequest): string[] {
    return ['paris', 'park', 'party'].filter((value) => value.startsWith(request.value));
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt with an embedded resource',
    arguments: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
  })
  promptWithResource(args: { resourceUri: string }): unknown[] {
    const resource = { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' };
    return [{ type: 'resource', resource }, 'Please process the embedded resource above.'];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  promptWithImage(): unknown[] {
    return [image, 'Please analyze the image above.'];
  }

  #elicited(call: McpCall, requestedSchema: Readonly<Record<string, unknown>>): Observable<string> {
    return call
      .elicit({ message: 'Please review and answer', requestedSchema })
      .pipe(
        map(
          (answer) => `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
        ),
      );
  }
}

export const mcpSampleClasses: Function[] = [ConformanceServer];
