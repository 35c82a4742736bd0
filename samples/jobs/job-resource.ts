/** `/jobs`: long jobs whose progress streams as SSE, and goes on when the client leaves, for any instance to resume. */
import { finalize, interval, map, take } from 'rxjs';
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
  ServiceUnavailableException,
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

/**
 * Jobs this instance runs at once: anyone may start one, and each ticks on a timer until its steps are done or its
 * grace has passed with nobody reading, so their number bounds the work and the history strangers can make.
 */
const MAX_RUNNING = 20;

@Path('jobs')
export class JobResource {
  #running = 0;

  /**
   * Starts a job of `steps` steps (at most 100,000), one every `interval` ms (at most a minute), going on for `grace`
   * ms (default 10 s, at most a minute) once nobody reads it: 202 with `Location: /jobs/{id}`; 503 with `Retry-After`
   * while this instance runs `MAX_RUNNING` jobs.
   */
  @POST
  @APIResponse({ status: 202, description: 'Started: Location names the job' })
  @APIResponse({ status: 503, description: 'As many jobs as this instance runs at once: try again later' })
  async start(
    @QueryParam('steps', { schema: z.coerce.number().int().min(1).max(100_000) }) steps: number,
    @QueryParam('interval', { schema: z.coerce.number().int().min(0).max(60_000) }) every: number,
    @QueryParam('grace', { schema: z.coerce.number().int().min(0).max(60_000).optional() }) grace?: number,
  ): Promise<RestResponse<never>> {
    if (this.#running >= MAX_RUNNING)
      throw new ServiceUnavailableException(`This instance runs ${MAX_RUNNING} jobs already: try again later`, {
        headers: { 'retry-after': '5' },
      });
    const id = crypto.randomUUID();
    this.#running++;
    const job = interval(every).pipe(
      take(steps),
      map((k) => ({ step: k + 1 })),
      // Done, cancelled, or stopped once its grace passed: the slot is free again.
      finalize(() => this.#running--),
    );
    try {
      await resumable<JobStep>(`jobs/${id}`, job, { grace: grace ?? GRACE_MS });
    } catch (error) {
      this.#running--;
      throw error;
    }
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
