import { createServer, type Server } from 'node:http';

/** A local stand-in for Stripe's API: creates Checkout Sessions and remembers what it was sent. */
export class FakeStripe {
  readonly requests: { auth: string | undefined; idempotencyKey: string | undefined; form: URLSearchParams }[] = [];
  failNext = false;
  url = '';
  private server: Server | null = null;
  private count = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
          res.writeHead(404).end();
          return;
        }
        this.requests.push({ auth: req.headers.authorization, idempotencyKey: req.headers['idempotency-key'] as string | undefined, form: new URLSearchParams(body) });
        if (this.failNext) {
          this.failNext = false;
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid currency' } }));
          return;
        }
        const id = `cs_test_${++this.count}`;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, url: `https://checkout.stripe.test/c/pay/${id}` }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
