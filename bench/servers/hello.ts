/** The reference: a bare Fastify app answering a JSON POST, nothing else (no logger, no hooks). */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/', async (request) => ({ hello: 'world', received: typeof request.body }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
