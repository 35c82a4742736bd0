import { Body, Consumes, Path, POST, RestApplication, type RestApp } from '../../lib';

/** A method that takes its body as a Web stream and reads it itself. */
@Path('/review')
export class StreamBodyResource {
  @POST
  @Path('stream')
  @Consumes('application/octet-stream')
  async length(@Body({ type: ReadableStream }) body: ReadableStream<Uint8Array>): Promise<{ length: number }> {
    return { length: (await new Response(body).arrayBuffer()).byteLength };
  }
}

export function buildStreamBodyApp(overrides: Record<string, string | number | boolean> = {}): RestApp {
  return RestApplication.build({
    classes: [StreamBodyResource],
    overrides: { 'framework.http.port': 0, ...overrides },
  });
}
