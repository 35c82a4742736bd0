import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GET,
  GoneException,
  InternalServerErrorException,
  NotAcceptableException,
  NotAllowedException,
  NotAuthorizedException,
  NotFoundException,
  NotSupportedException,
  Path,
  PayloadTooLargeException,
  PreconditionFailedException,
  RedirectionException,
  RestQuery,
  RestResponse,
  ServiceUnavailableException,
  WebApplicationException,
} from '../../lib';
import { buildApp, call } from '../support/app';

type Subtype = new (message?: string) => WebApplicationException;

const subtypes: [Subtype, number][] = [
  [BadRequestException, 400],
  [NotAuthorizedException, 401],
  [ForbiddenException, 403],
  [NotFoundException, 404],
  [NotAcceptableException, 406],
  [ConflictException, 409],
  [GoneException, 410],
  [PreconditionFailedException, 412],
  [PayloadTooLargeException, 413],
  [NotSupportedException, 415],
  [InternalServerErrorException, 500],
  [ServiceUnavailableException, 503],
];

@Path('throw')
class Thrower {
  @GET @Path('{kind}') throwIt(kind: string, @RestQuery('silent') silent: string | undefined): string {
    const found = subtypes.find(([type]) => type.name === kind);
    if (!found) throw new WebApplicationException('Teapot only', 418);
    throw new found[0](silent === undefined ? `${kind} said so` : undefined);
  }

  @GET @Path('special/not-allowed') notAllowed(): string {
    throw new NotAllowedException('Use POST', ['POST', 'PUT']);
  }
  @GET @Path('special/redirect') redirect(): string {
    throw new RedirectionException('/elsewhere', 307);
  }
  @GET @Path('special/see-other') seeOther(): string {
    throw new RedirectionException(new URL('http://example.com/other'));
  }
  @GET @Path('special/with-response') withResponse(): string {
    throw new ConflictException('ignored', {
      response: RestResponse.ResponseBuilder.status(409).entity({ reason: 'taken' }).type('application/json').build(),
    });
  }
  @GET @Path('special/with-headers') withHeaders(): string {
    throw new ServiceUnavailableException('Later', { headers: { 'retry-after': '120' } });
  }
}

const app = buildApp([Thrower]);

describe('WebApplicationException', () => {
  it.each(subtypes.map(([type, status]) => [type.name, type, status] as const))(
    'answers %s with its status and its message as a text body',
    async (_name, type, status) => {
      const response = await call(app, `/throw/${type.name}`);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe(`${type.name} said so`);
      const error = new type();
      expect(error).toBeInstanceOf(WebApplicationException);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(type.name);
      expect(error.status).toBe(status);
    },
  );

  it('answers an empty body when no message was given', async () => {
    const response = await call(app, '/throw/NotFoundException?silent');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('answers any status given to the base class', async () => {
    const response = await call(app, '/throw/other');
    expect([response.status, await response.text()]).toEqual([418, 'Teapot only']);
  });

  it('sends the Allow header of a NotAllowedException', async () => {
    const response = await call(app, '/throw/special/not-allowed');
    expect([response.status, response.headers.get('allow'), await response.text()]).toEqual([
      405,
      'POST, PUT',
      'Use POST',
    ]);
  });

  it('redirects with the status and Location of a RedirectionException (303 by default)', async () => {
    const temporary = await call(app, '/throw/special/redirect');
    expect([temporary.status, temporary.headers.get('location')]).toEqual([307, '/elsewhere']);
    const seeOther = await call(app, '/throw/special/see-other');
    expect([seeOther.status, seeOther.headers.get('location')]).toEqual([303, 'http://example.com/other']);
  });

  it('answers the response it carries instead of the default one, and adds extra headers to the default', async () => {
    const carried = await call(app, '/throw/special/with-response');
    expect([carried.status, await carried.json()]).toEqual([409, { reason: 'taken' }]);
    const withHeaders = await call(app, '/throw/special/with-headers');
    expect([withHeaders.status, withHeaders.headers.get('retry-after'), await withHeaders.text()]).toEqual([
      503,
      '120',
      'Later',
    ]);
  });
});
