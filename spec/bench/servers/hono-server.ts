/** The bench routes on a bare Hono app served by `@hono/node-server`: the baseline rxrest is held to. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { FRUITS, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const app = new Hono();
app.get('/bench/fruits', (c) => c.json(FRUITS));
app.get('/bench/items/:id', (c) => c.json({ id: Number(c.req.param('id')), limit: Number(c.req.query('limit')) }));
app.post('/bench/echo', async (c) => c.json(await c.req.json<unknown>()));

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`${READY_PREFIX}${info.port}\n`);
});
followParent(() => server.close());
