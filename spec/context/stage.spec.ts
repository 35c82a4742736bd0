import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { EmptyStageError, stage } from '../../lib/context/stage';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('stage', () => {
  it('emits a plain result in the same tick, and a Promise result once it settles', async () => {
    const seen: number[] = [];
    of(1)
      .pipe(stage((value: number) => value * 2))
      .subscribe((value) => seen.push(value));
    expect(seen).toEqual([2]);
    const later = await new Promise<number>((resolve) =>
      of(1)
        .pipe(stage((value: number) => Promise.resolve(value + 1)))
        .subscribe(resolve),
    );
    expect(later).toBe(2);
  });

  it('takes the first value of each Observable result, even when the next value comes before it answers', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const answers = { 1: cold('---a-b|', { a: 10, b: 11 }), 2: cold('-c|', { c: 20 }) };
      const source = cold('12|', { 1: 1, 2: 2 });
      expectObservable(source.pipe(stage((value: number) => answers[value as 1 | 2]))).toBe('--c(a|)', {
        a: 10,
        c: 20,
      });
      expectSubscriptions(answers[1].subscriptions).toBe('^--!');
      expectSubscriptions(answers[2].subscriptions).toBe('-^!');
    });
  });

  it('fails with EmptyStageError when an Observable result completes without a value', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(of(1).pipe(stage(() => cold('--|')))).toBe('--#', undefined, new EmptyStageError());
    });
  });
});
