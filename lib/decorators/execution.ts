/** Execution-lane decorators: @Blocking, @NonBlocking and @Transactional; they only record metadata. */
import { classMeta, metaKey, methodMeta, ownerOf } from '../metadata/store';
import { memberName, type ClassOrMethodDecorator } from './decorator-types';

/** An explicit lane: `blocking` is the worker lane, `non-blocking` the event loop. */
export const LANE = metaKey<'blocking' | 'non-blocking'>('lane');
/** `@Transactional`: the method (or every method of the class) is blocking unless the class says otherwise. */
export const TRANSACTIONAL = metaKey<true>('transactional');

function tagsOf(target: object, propertyKey: string | symbol | undefined) {
  return propertyKey === undefined
    ? classMeta(target as Function).tags
    : methodMeta(ownerOf(target), memberName(propertyKey)).tags;
}

/**
 * Runs the method (every method of the class, or of the application when on an `Application`
 * subclass) in the worker lane, whatever it returns.
 *
 * @example
 * \@GET @Blocking
 * report(): Report { return computeSlowly(); }
 */
export const Blocking: ClassOrMethodDecorator = (target, propertyKey) =>
  tagsOf(target, propertyKey).set(LANE, 'blocking');

/** Runs the method (or class, or application) on the event loop, whatever it returns. */
export const NonBlocking: ClassOrMethodDecorator = (target, propertyKey) =>
  tagsOf(target, propertyKey).set(LANE, 'non-blocking');

/** Marks a method or class as transactional, which makes it blocking. */
export const Transactional: ClassOrMethodDecorator = (target, propertyKey) =>
  tagsOf(target, propertyKey).set(TRANSACTIONAL, true);
