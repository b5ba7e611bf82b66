import { createServer, type Server } from 'node:http';
import { signRequest } from '../../src/storage/s3Storage.ts';

/**
 * A local stand-in for an S3-compatible store (path-style PUT, GET with Range, DELETE), which
 * refuses requests whose SigV4 signature does not match the secret it knows.
 */
export class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; type: string }>();
  readonly requests: { method: string; path: string; signedHeaders: string }[] = [];
  url = '';
  private server: Server | null = null;
  readonly credentials: { accessKeyId: string; secretAccessKey: string; region: string };
  constructor(credentials: { accessKeyId: string; secretAccessKey: string; region: string }) {
    this.credentials = credentials;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const url = new URL(req.url!, this.url);
        const auth = req.headers.authorization ?? '';
        const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1] ?? '';
        this.requests.push({ method: req.method!, path: url.pathname, signedHeaders });
        const signed: Record<string, string> = {};
        for (const name of signedHeaders.split(';')) if (name !== 'host' && !name.startsWith('x-amz-')) signed[name] = String(req.headers[name]);
        const date = String(req.headers['x-amz-date']);
        const expected = signRequest({
          method: req.method!,
          url,
          headers: signed,
          payloadHash: String(req.headers['x-amz-content-sha256']),
          ...this.credentials,
          now: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`),
        }).authorization;
        if (auth !== expected) {
          res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
          return;
        }
        const key = decodeURIComponent(url.pathname);
        if (req.method === 'PUT') {
          this.objects.set(key, { body, type: String(req.headers['content-type']) });
          res.writeHead(200).end();
        } else if (req.method === 'GET') {
          const obj = this.objects.get(key);
          if (!obj) return void res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
          const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
          if (range) {
            const [start, end] = [Number(range[1]), Math.min(Number(range[2]), obj.body.length - 1)];
            res.writeHead(206, { 'content-type': obj.type, 'content-range': `bytes ${start}-${end}/${obj.body.length}` }).end(obj.body.subarray(start, end + 1));
          } else res.writeHead(200, { 'content-type': obj.type }).end(obj.body);
        } else if (req.method === 'DELETE') {
          this.objects.delete(key);
          res.writeHead(204).end();
        } else res.writeHead(405).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
