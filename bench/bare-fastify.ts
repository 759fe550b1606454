/**
 * The first reference ceiling of `npm run bench`: a bare Fastify route that reads the same JSON
 * body as the gateway and answers 200, with nothing else. Prints `LISTENING <url>` once ready.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 262_144 });
app.post('/v1/inbound-lead-gateway', async (request) => {
  const body = request.body as Record<string, unknown> | undefined;
  return { success: true, fields: body ? Object.keys(body).length : 0 };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
