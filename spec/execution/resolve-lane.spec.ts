import { Observable } from 'rxjs';
import { Blocking, NonBlocking, Transactional } from '../../lib/decorators/execution';
import { laneOfReturnType, resolveLane } from '../../lib/execution/resolve-lane';
import { Multi } from '../../lib/streaming/multi';
import { WorkerLane } from '../../lib/execution/worker-lane';
import { checkFilterOrder } from '../../lib/assembly/compile-filters';
import { classMeta, methodMeta } from '../../lib/metadata/store';

@Transactional
class TransactionalClass {
  @NonBlocking plain(): void {}
  other(): void {}
}
@NonBlocking
class NonBlockingClass {
  @Blocking blocking(): void {}
  @Transactional tx(): void {}
}
@Blocking
class App {}

const lane = (type: Function, name: string, returnType: unknown, app?: Function) =>
  resolveLane(methodMeta(type, name).tags, classMeta(type).tags, app && classMeta(app).tags, returnType);

describe('resolveLane', () => {
  it('follows method > class > @Transactional > application > return type', () => {
    expect(lane(TransactionalClass, 'plain', String)).toBe('event-loop');
    expect(lane(TransactionalClass, 'other', Promise)).toBe('worker');
    expect(lane(NonBlockingClass, 'blocking', Promise)).toBe('worker');
    expect(lane(NonBlockingClass, 'tx', String)).toBe('event-loop');
    class Plain {
      m(): void {}
    }
    expect(lane(Plain, 'm', Observable)).toBe('event-loop');
    expect(lane(Plain, 'm', Object)).toBe('worker');
    expect(lane(Plain, 'm', Promise, App)).toBe('worker');
  });
});

describe('laneOfReturnType', () => {
  it('puts Multi, streams and async generator methods on the event loop, other values on the worker', () => {
    expect(laneOfReturnType(Multi)).toBe('event-loop');
    expect(laneOfReturnType(ReadableStream)).toBe('event-loop');
    expect(laneOfReturnType(Object, async function* () {})).toBe('event-loop');
    expect(laneOfReturnType(Object, function* () {})).toBe('worker');
    expect(laneOfReturnType(undefined, () => 1)).toBe('worker');
  });
});

describe('WorkerLane', () => {
  it('runs at most maxConcurrency calls at once, the rest in order', async () => {
    const worker = new WorkerLane(1);
    const order: string[] = [];
    let release!: () => void;
    const first = worker.run(() => new Promise<string>((resolve) => (release = () => resolve('a'))), false);
    const second = worker.run(() => (order.push('b'), 'b'), false);
    expect(worker.waiting).toBe(1);
    expect(order).toEqual([]);
    release();
    expect(await first).toBe('a');
    expect(await second).toBe('b');
    // The slot is free again: the next call runs inline.
    expect(worker.run(() => 'c', false)).toBe('c');
  });

  it('runs a synchronous call inline when a slot is free', () => {
    expect(new WorkerLane(2).run(() => 7, false)).toBe(7);
  });
});

describe('checkFilterOrder', () => {
  it('reports a nonBlocking filter after a blocking one', () => {
    expect(
      checkFilterOrder([
        { name: 'A', nonBlocking: true },
        { name: 'B', nonBlocking: false },
      ]),
    ).toEqual([]);
    expect(
      checkFilterOrder([
        { name: 'B', nonBlocking: false },
        { name: 'C', nonBlocking: true },
      ])[0].where,
    ).toBe('C');
  });
});
