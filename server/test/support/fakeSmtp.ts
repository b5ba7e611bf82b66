import { createServer, type Server, type Socket } from 'node:net';

/** Just enough SMTP (no TLS, no auth) to receive what nodemailer sends. */
export class FakeSmtp {
  readonly messages: { from: string; to: string[]; data: string }[] = [];
  port = 0;
  private server: Server | null = null;

  async start(): Promise<void> {
    this.server = createServer((socket) => this.converse(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  private converse(socket: Socket): void {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake.smtp ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            this.messages.push(current);
            current = { from: '', to: [], data: '' };
            reply('250 queued');
          } else current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          continue;
        }
        switch (line.slice(0, 4).toUpperCase()) {
          case 'MAIL':
            current.from = line.slice('MAIL FROM:'.length).trim();
            reply('250 ok');
            break;
          case 'RCPT':
            current.to.push(line.slice('RCPT TO:'.length).trim());
            reply('250 ok');
            break;
          case 'DATA':
            inData = true;
            reply('354 go ahead');
            break;
          case 'QUIT':
            reply('221 bye');
            socket.end();
            break;
          default: // EHLO, HELO, RSET, NOOP
            reply('250 ok');
        }
      }
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
