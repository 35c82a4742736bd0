/** `@ConstrainedTo`: restricts a provider to the server or the client side. */
import { PROVIDER } from '../decorators/providers';
import { classMeta, metaKey, type Tags } from '../metadata/store';

export type RuntimeType = 'server' | 'client';

export const CONSTRAINED_TO = metaKey<RuntimeType>('constrained-to');

/**
 * Restricts a provider to one side; the server ignores client-only providers. Works above or below `@Provider`.
 *
 * @example
 * \@Provider() \@ConstrainedTo('client') class ClientOnlyWriter implements MessageBodyWriter {}
 */
export function ConstrainedTo(side: RuntimeType): (target: Function) => void {
  return (target) => {
    const tags = classMeta(target).tags;
    tags.set(CONSTRAINED_TO, side);
    const provider = tags.get(PROVIDER);
    if (provider) tags.set(PROVIDER, { ...provider, constrainedTo: side });
  };
}

/** Whether a provider class may serve on the server side (no `client` constraint from either decorator). */
export function isServerSide(tags: Tags): boolean {
  return tags.get(CONSTRAINED_TO) !== 'client' && tags.get(PROVIDER)?.constrainedTo !== 'client';
}
