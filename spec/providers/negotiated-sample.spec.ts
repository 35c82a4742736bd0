import { RestApplication, resolveConfig } from '../../lib';
import { negotiatedSampleClasses } from '../../samples/negotiated/negotiated-resource';

const app = RestApplication.build({ classes: negotiatedSampleClasses, config: resolveConfig({ overrides: {} }) });

async function call(method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  return app.fetch(new Request('http://localhost/negotiated', { method, headers, body }));
}

describe('NegotiatedResource', () => {
  it('answers JSON for Accept: application/json', async () => {
    const response = await call('GET', { accept: 'application/json' });
    expect(response.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(await response.text()).toBe('{"name":"Morbier"}');
  });

  it('answers text through the custom writer for Accept: text/plain', async () => {
    const response = await call('GET', { accept: 'text/plain' });
    expect(response.headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(await response.text()).toBe('Cheese: Morbier');
  });

  it('honours q-values', async () => {
    expect(await (await call('GET', { accept: 'application/json;q=0.4, text/plain;q=0.8' })).text()).toBe(
      'Cheese: Morbier',
    );
    expect(await (await call('GET', { accept: 'application/json;q=0.9, text/plain;q=0.8' })).text()).toBe(
      '{"name":"Morbier"}',
    );
  });

  it('reads JSON and writes text on PUT with Content-Type: application/json', async () => {
    const response = await call('PUT', { 'content-type': 'application/json', accept: 'text/plain' }, '{"name":"Brie"}');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Cheese: Brie');
  });

  it('reads text and writes JSON on PUT with Content-Type: text/plain', async () => {
    const response = await call('PUT', { 'content-type': 'text/plain;charset=UTF-8' }, 'Comté');
    expect(response.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(await response.text()).toBe('{"name":"Comté"}');
  });

  it('refuses other content types with 415 and other accepted types with 406', async () => {
    expect((await call('PUT', { 'content-type': 'application/xml' }, '<cheese/>')).status).toBe(415);
    expect((await call('GET', { accept: 'application/xml' })).status).toBe(406);
  });
});
