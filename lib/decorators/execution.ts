/** Execution-lane decorators: @Blocking, @NonBlocking and @Transactional; they only record metadata. */
import { metaKey } from '../metadata/store';
import { memberTag, type ClassOrMethodDecorator } from './decorator-types';

/** `blocking` is the worker lane, `non-blocking` the event loop. */
export const LANE = metaKey<'blocking' | 'non-blocking'>('lane');
/** Blocking unless the class says otherwise. */
export const TRANSACTIONAL = metaKey<true>('transactional');

/**
 * Runs the method (every method of the class, or of the application when on an `Application`
 * subclass) in the worker lane, whatever it returns.
 *
 * @example
 * \@GET @Blocking
 * report(): Report { return computeSlowly(); }
 */
export const Blocking: ClassOrMethodDecorator = memberTag(LANE, 'blocking');

/** Runs the method (or class, or application) on the event loop, whatever it returns. */
export const NonBlocking: ClassOrMethodDecorator = memberTag(LANE, 'non-blocking');

/** Marks a method or class as transactional, which makes it blocking. */
export const Transactional: ClassOrMethodDecorator = memberTag(TRANSACTIONAL, true);
