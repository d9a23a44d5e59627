import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP peer (smtp-server) that keeps every accepted message and rejects chosen recipients. */
export async function startSmtpPeer(opts: { rejectRecipient?: (address: string) => { code: number; message: string } | undefined } = {}) {
  const messages: Array<{ envelopeTo: string[]; raw: Buffer; parsed: ParsedMail }> = [];
  let failNext = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const reject = opts.rejectRecipient?.(address.address);
      if (reject) return callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (failNext > 0) {
          failNext--;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks);
        messages.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, parsed: await simpleParser(raw, { keepCidLinks: true }) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNextWith451(n: number) {
      failNext = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
