/** The bench routes on a bare Hono app served by `@hono/node-server`, written as Hono's documentation shows. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { HELLO, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const app = new Hono();
app.get('/hello', (c) => c.text(HELLO));
app.get('/users/:id', (c) =>
  c.json({ id: Number(c.req.param('id')), fields: (c.req.query('fields') ?? '').split(',') }),
);
app.post('/echo', async (c) => c.json(await c.req.json<unknown>()));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${READY_PREFIX}${info.port}\n`);
});
followParent(() => server.close());
