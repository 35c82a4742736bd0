/**
 * The bench routes on Fastify, written as its documentation shows: handlers returning values, no schemas (with
 * response schemas Fastify would serialize with a compiled function; none of the other servers gets that help).
 */
import Fastify from 'fastify';
import { HELLO, READY_PREFIX } from '../bench-routes';
import { followParent } from './server-control';

const app = Fastify({ logger: false });
app.get('/hello', async () => HELLO);
app.get<{ Params: { id: string }; Querystring: { fields?: string } }>('/users/:id', async (request) => ({
  id: Number(request.params.id),
  fields: (request.query.fields ?? '').split(','),
}));
app.post('/echo', async (request) => request.body);

app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
  process.stdout.write(`${READY_PREFIX}${(app.server.address() as { port: number }).port}\n`);
});
followParent(() => void app.close());
