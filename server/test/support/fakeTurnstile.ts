import { createServer, type Server } from 'node:http';

/**
 * A local stand-in for Turnstile's siteverify endpoint: form posts of secret, response and
 * remoteip; each issued token is accepted once, as at Cloudflare.
 */
export class FakeTurnstile {
  readonly secret = 'test-bot-challenge-secret';
  readonly requests: URLSearchParams[] = [];
  /** Answer with this HTTP status instead of verifying (an outage). */
  failWith: number | null = null;
  url = '';
  private server: Server | null = null;
  private readonly valid = new Set<string>();
  private count = 0;

  /** What the widget would hand a real visitor. */
  issueToken(): string {
    const token = `token-${++this.count}-${Math.random().toString(36).slice(2)}`;
    this.valid.add(token);
    return token;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        this.requests.push(form);
        if (this.failWith) {
          res.writeHead(this.failWith).end();
          return;
        }
        const answer = (success: boolean, errors: string[] = []) =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success, 'error-codes': errors, hostname: 'localhost' }));
        if (req.method !== 'POST' || req.headers['content-type']?.split(';')[0] !== 'application/x-www-form-urlencoded') return answer(false, ['bad-request']);
        if (form.get('secret') !== this.secret) return answer(false, ['invalid-input-secret']);
        const token = form.get('response') ?? '';
        if (!this.valid.delete(token)) return answer(false, ['timeout-or-duplicate']);
        answer(true);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/turnstile/v0/siteverify`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
