/** `/jobs`: long jobs whose progress streams as SSE, and goes on when the client leaves, for any instance to resume. */
import { interval, map, take } from 'rxjs';
import { z } from 'zod';
import {
  APIResponse,
  GET,
  HeaderParam,
  Path,
  POST,
  Produces,
  QueryParam,
  ResponseBuilder,
  RestPath,
  resumable,
  resume,
  type Multi,
  type RestResponse,
  type SseEvent,
} from '../../lib';

/** What one step of a job reports. */
export interface JobStep {
  readonly step: number;
}

/** How long a job goes on with nobody reading its events, on any instance, unless the request says. */
const GRACE_MS = 10_000;

@Path('jobs')
export class JobResource {
  /**
   * Starts a job of `steps` steps, one every `interval` ms, going on for `grace` ms (default 10 s) once nobody
   * reads it: 202 with `Location: /jobs/{id}`.
   */
  @POST
  @APIResponse({ status: 202, description: 'Started: Location names the job' })
  async start(
    @QueryParam('steps', { schema: z.coerce.number().int().min(1).max(1_000_000) }) steps: number,
    @QueryParam('interval', { schema: z.coerce.number().int().min(0).max(60_000) }) every: number,
    @QueryParam('grace', { schema: z.coerce.number().int().min(0).max(3_600_000).optional() }) grace?: number,
  ): Promise<RestResponse<never>> {
    const id = crypto.randomUUID();
    await resumable<JobStep>(
      `jobs/${id}`,
      interval(every).pipe(
        take(steps),
        map((k) => ({ step: k + 1 })),
      ),
      { grace: grace ?? GRACE_MS },
    );
    return ResponseBuilder.status<never>(202).location(`/jobs/${id}`).build();
  }

  /**
   * The job's steps as SSE (`id`, `data: {"step":k}`), then `event: done`. With `Last-Event-ID`, from the step
   * after it, on whichever instance; 204 once the client has `done`; 404 for an unknown job.
   */
  @GET
  @Path('{id}/events')
  @Produces('text/event-stream')
  events(
    @RestPath() id: string,
    @HeaderParam('Last-Event-ID') lastEventId?: string,
  ): Promise<Multi<SseEvent> | undefined> {
    return resume(`jobs/${id}`, { lastEventId });
  }
}

export const jobSampleClasses: Function[] = [JobResource];
