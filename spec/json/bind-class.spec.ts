import { Body, Consumes, JsonProperty, Path, POST } from '../../lib';
import { buildApp, call, json } from '../support/app';

class Line {
  @JsonProperty({ type: String }) sku = '';
  describe(): string {
    return `line ${this.sku}`;
  }
}

class Order {
  @JsonProperty({ type: [Line] }) lines: Line[] = [];
  @JsonProperty() total: bigint = 0n;
  @JsonProperty() placed?: Date;
}

@Path('orders')
@Consumes('application/json')
class OrderResource {
  @POST place(@Body() order: Order) {
    return {
      lines: order.lines.map((line) => line.describe()),
      total: `${typeof order.total}:${order.total}`,
      placed: order.placed?.toISOString() ?? null,
    };
  }

  @POST @Path('lines') lines(@Body({ type: [Line] }) lines: Line[]) {
    return lines.map((line) => line.describe());
  }
}

const app = buildApp([OrderResource]);

async function refusal(path: string, body: unknown): Promise<[number, string]> {
  const response = await call(app, path, json(body));
  return [response.status, ((await response.json()) as { detail: string }).detail];
}

describe('bindClass', () => {
  it('binds an array field to instances, a bigint from a number or a string, a date from epoch milliseconds', async () => {
    const response = await call(
      app,
      '/orders',
      json({ lines: [{ sku: 'a' }, { sku: 'b' }], total: '12345678901234567890', placed: 1500 }),
    );
    expect(await response.json()).toEqual({
      lines: ['line a', 'line b'],
      total: 'bigint:12345678901234567890',
      placed: '1970-01-01T00:00:01.500Z',
    });
    expect(await (await call(app, '/orders', json({ total: 7 }))).json()).toMatchObject({ total: 'bigint:7' });
  });

  it('answers 400 naming the field for an array field that is none, a bigint that is no integer, a date of another kind', async () => {
    expect(await refusal('/orders', { lines: { sku: 'a' } })).toEqual([
      400,
      'The request body does not fit its type: lines is not an array',
    ]);
    expect(await refusal('/orders', { lines: [{ sku: 1 }] })).toEqual([
      400,
      'The request body does not fit its type: lines.0.sku is not a string',
    ]);
    for (const total of [1.5, true, 'ten'])
      expect([total, ...(await refusal('/orders', { total }))]).toEqual([
        total,
        400,
        'The request body does not fit its type: total is not an integer',
      ]);
    expect(await refusal('/orders', { placed: true })).toEqual([
      400,
      'The request body does not fit its type: placed is not a date',
    ]);
  });

  it('answers 400 for a list body that is no array', async () => {
    expect(await (await call(app, '/orders/lines', json([{ sku: 'c' }]))).json()).toEqual(['line c']);
    expect(await refusal('/orders/lines', { sku: 'c' })).toEqual([400, 'The request body is not an array']);
  });
});
