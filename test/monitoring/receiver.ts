/** A webhook receiver on loopback for tests: records each request, and answers from a script of statuses. */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';

export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer with, in order; 200 once they run out. */
  statuses: number[];
  close(): Promise<void>;
}

export async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Partial<Receiver> = { received, statuses };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = receiver.statuses!.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver as Receiver;
}

/** Standard Webhooks verification written out by hand, independent of the service's signer. */
export function verifySignature(secret: string, received: Received): boolean {
  const id = String(received.headers['webhook-id']);
  const timestamp = String(received.headers['webhook-timestamp']);
  const signatures = String(received.headers['webhook-signature']).split(' ');
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64');
  return /^\d+$/.test(timestamp) && signatures.includes(`v1,${expected}`);
}

/** Holds an event body against its schema in the served OpenAPI document's `webhooks` section. */
export async function eventChecker(baseUrl: string): Promise<(body: string) => void> {
  const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return (body) => {
    const event = JSON.parse(body) as { type: string };
    const documented = doc.webhooks[event.type];
    if (!documented) throw new Error(`${event.type} is not in the document's webhooks`);
    const validate = ajv.compile({ ...documented.post.requestBody.content['application/json']!.schema, $id: undefined });
    const type = event.type;
    if (!validate(event)) throw new Error(`${type}: ${ajv.errorsText(validate.errors)}`);
  };
}
