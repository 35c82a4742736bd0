import { GET, Path, Provider, type ServerMessageBodyWriter } from '../../lib';
import { buildApp, call } from '../support/app';

/** Where an answer goes: a server writer answers for it with a whole Web Response. */
class Destination {
  constructor(readonly how: 'redirect' | 'own') {}
}

@Provider()
class DestinationWriter implements ServerMessageBodyWriter<Destination> {
  isWriteable(type: Function | undefined) {
    return type === Destination;
  }
  writeResponse(destination: Destination) {
    // Response.redirect makes headers that cannot change, as a fetched Response has.
    if (destination.how === 'redirect') return Response.redirect('http://example.com/elsewhere', 302);
    return new Response('<p>sniff me</p>', { headers: { 'x-content-type-options': 'none-of-your-business' } });
  }
}

@Path('destinations')
class Destinations {
  @GET @Path('redirect') redirect(): Destination {
    return new Destination('redirect');
  }
  @GET @Path('own') own(): Destination {
    return new Destination('own');
  }
}

const app = buildApp([Destinations, DestinationWriter]);

describe("nosniff on a server writer's Web Response", () => {
  it('sets the header on a copy of a Response whose headers are immutable, its status and Location kept', async () => {
    const response = await call(app, '/destinations/redirect');
    expect([response.status, response.headers.get('location'), response.headers.get('x-content-type-options')]).toEqual(
      [302, 'http://example.com/elsewhere', 'nosniff'],
    );
  });

  it('leaves a header the Response set itself', async () => {
    const response = await call(app, '/destinations/own');
    expect(response.headers.get('x-content-type-options')).toBe('none-of-your-business');
  });
});
