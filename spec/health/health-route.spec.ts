import { Observable, of } from 'rxjs';
import { HealthCheckResponse, Liveness, Readiness, Startup, type HealthCheck, type RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { buildApp, call } from '../support/app';

const state = { databaseUp: true };

@Liveness
class Heap implements HealthCheck {
  call(): HealthCheckResponse {
    return HealthCheckResponse.up('heap');
  }
}

@Readiness
class Database implements HealthCheck {
  async call(): Promise<HealthCheckResponse> {
    return HealthCheckResponse.named('database').status(state.databaseUp).withData('connections', 4).build();
  }
}

@Startup
@Liveness
class Warmup implements HealthCheck {
  call() {
    return of(HealthCheckResponse.up('warm-up'));
  }
}

const app = buildApp([Heap, Database, Warmup]);
const health = async (path: string) => {
  const response = await call(app, path);
  return { status: response.status, body: (await response.json()) as { status: string; checks: unknown[] } };
};

describe('health checks', () => {
  afterEach(() => (state.databaseUp = true));

  it("answers each kind with MicroProfile Health's JSON, 200 when all are UP", async () => {
    expect(await health('/q/health/live')).toEqual({
      status: 200,
      body: {
        status: 'UP',
        checks: [
          { name: 'heap', status: 'UP' },
          { name: 'warm-up', status: 'UP' },
        ],
      },
    });
    expect(await health('/q/health/ready')).toEqual({
      status: 200,
      body: {
        status: 'UP',
        checks: [
          { name: 'rxrest', status: 'UP' },
          { name: 'database', status: 'UP', data: { connections: 4 } },
        ],
      },
    });
    expect(await health('/q/health/started')).toEqual({
      status: 200,
      body: { status: 'UP', checks: [{ name: 'warm-up', status: 'UP' }] },
    });
    expect((await health('/q/health')).body.checks).toHaveLength(4);
  });

  it('answers DOWN for HealthCheckResponse.down and a builder set down, UP for one set down then up again', async () => {
    @Liveness
    class Cache implements HealthCheck {
      call() {
        return HealthCheckResponse.down('cache');
      }
    }
    @Liveness
    class Queue implements HealthCheck {
      call() {
        return HealthCheckResponse.named('queue').down().build();
      }
    }
    @Liveness
    class Disk implements HealthCheck {
      call() {
        return HealthCheckResponse.named('disk').down().up().build();
      }
    }
    const response = await call(buildApp([Cache, Queue, Disk]), '/q/health/live');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { checks: unknown[] }).checks).toEqual([
      { name: 'cache', status: 'DOWN' },
      { name: 'queue', status: 'DOWN' },
      { name: 'disk', status: 'UP' },
    ]);
  });

  it('answers only GET and HEAD: another method is left to routing, which knows no such resource', async () => {
    const head = await call(app, '/q/health/live', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const post = await call(app, '/q/health/live', { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('answers 503 when a check is DOWN, and only for the kinds it belongs to', async () => {
    state.databaseUp = false;
    expect(await health('/q/health/ready')).toMatchObject({ status: 503, body: { status: 'DOWN' } });
    expect(await health('/q/health')).toMatchObject({ status: 503, body: { status: 'DOWN' } });
    expect((await health('/q/health/live')).status).toBe(200);
  });

  it('counts a check that throws or takes longer than framework.health.timeout as DOWN, without its detail', async () => {
    @Liveness
    class Broken implements HealthCheck {
      call(): HealthCheckResponse {
        throw new Error('secret connection string');
      }
    }
    @Liveness
    class Slow implements HealthCheck {
      call(): Promise<HealthCheckResponse> {
        return new Promise((resolve) => setTimeout(() => resolve(HealthCheckResponse.up('slow')), 500));
      }
    }
    const response = await call(buildApp([Broken, Slow], { 'framework.health.timeout': '50ms' }), '/q/health/live');
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({
      status: 'DOWN',
      checks: [
        { name: 'Broken', status: 'DOWN', data: { error: 'the check failed' } },
        { name: 'Slow', status: 'DOWN', data: { error: 'no answer within 50 ms' } },
      ],
    });
  });

  it('runs one call of a check for the probes that come while it runs, and unsubscribes one past the timeout', async () => {
    const held = { promiseCalls: 0, observableCalls: 0, subscribed: 0 };
    @Readiness
    class HungPromise implements HealthCheck {
      call(): Promise<HealthCheckResponse> {
        held.promiseCalls++;
        return new Promise(() => undefined);
      }
    }
    @Readiness
    class HungObservable implements HealthCheck {
      call(): Observable<HealthCheckResponse> {
        held.observableCalls++;
        return new Observable(() => {
          held.subscribed++;
          return () => held.subscribed--;
        });
      }
    }
    const app = buildApp([HungPromise, HungObservable], { 'framework.health.timeout': '4s' });
    const server: RunningServer = await app.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    try {
      const probes = Array.from({ length: 50 }, () => fetch(`${server.url}/q/health/ready`));
      const answers = await Promise.all(probes);
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 503));
      expect(await answers[49]!.json()).toMatchObject({
        checks: expect.arrayContaining([
          { name: 'HungPromise', status: 'DOWN', data: { error: 'no answer within 4000 ms' } },
          { name: 'HungObservable', status: 'DOWN', data: { error: 'no answer within 4000 ms' } },
        ]),
      });
      // 50 of each, every Observable still subscribed, before.
      expect(held).toEqual({ promiseCalls: 1, observableCalls: 1, subscribed: 0 });
      expect((await fetch(`${server.url}/q/health/ready`)).status).toBe(503);
      expect(held).toEqual({ promiseCalls: 2, observableCalls: 2, subscribed: 0 });
    } finally {
      await server.close();
    }
  });

  it('refuses a check class without call() at build time, and moves or goes with the configuration', async () => {
    @Readiness
    class NoCall {}
    expect(() => buildApp([NoCall])).toThrow('a health check class needs a call() method');
    expect((await call(buildApp([Heap], { 'framework.health.path': '/health' }), '/health/live')).status).toBe(200);
    expect((await call(buildApp([Heap], { 'framework.health.enabled': false }), '/q/health/live')).status).toBe(404);
  });
});

describe('readiness during shutdown, over a real socket', () => {
  let server: RunningServer;
  it('is DOWN from the moment the server starts closing', async () => {
    const samples = buildSamples({});
    server = await samples.listen({ port: 0, host: '127.0.0.1', handleSignals: false });
    const ready = await fetch(`${server.url}/q/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'UP',
      checks: [
        { name: 'rxrest', status: 'UP' },
        { name: 'uploads-directory', status: 'UP', data: { directory: '.uploads' } },
      ],
    });
    const closed = server.close();
    const during = await samples.fetch(new Request('http://localhost/q/health/ready'));
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({
      status: 'DOWN',
      checks: [
        { name: 'rxrest', status: 'DOWN', data: { 'shutting-down': true } },
        { name: 'uploads-directory', status: 'UP' },
      ],
    });
    await closed;
  });
});
