import { RestApplication, resolveConfig } from '../../lib';
import { cheeseSampleClasses } from '../../samples/cheeses/cheese-resource';

const app = RestApplication.build({ classes: cheeseSampleClasses, config: resolveConfig({ overrides: {} }) });

function post(path: string): Promise<Response> {
  return Promise.resolve(
    app.fetch(
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: 'level=hardcore',
          'X-Cheese-Secret-Handshake': 'fist-bump',
        },
        body: 'smell=strong',
      }),
    ),
  );
}

describe('CheeseResource', () => {
  it('reads the matrix, query, cookie, header, form and path values of POST /cheeses/{type}', async () => {
    const response = await post('/cheeses;variant=goat/tomme?age=matured');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(await response.text()).toBe('tomme/goat/matured/hardcore/fist-bump/strong');
  });

  it('reads the same six values through @BeanParam on POST /cheeses/bean/{type}', async () => {
    const response = await post('/cheeses;variant=goat/bean/tomme?age=matured');
    expect(await response.text()).toBe('tomme/goat/matured/hardcore/fist-bump/strong');
  });

  it('answers a known cheese on GET /cheeses/{name}', async () => {
    for (const name of ['morbier', 'brie', 'comte', 'tomme']) {
      const response = await app.fetch(new Request(`http://localhost/cheeses/${name}`));
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(`Cheese: ${name}`);
    }
  });

  it('maps UnknownCheeseException with the class-local mapper to 404 text', async () => {
    const response = await app.fetch(new Request('http://localhost/cheeses/cheddar'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toBe('Unknown cheese: cheddar');
  });
});
