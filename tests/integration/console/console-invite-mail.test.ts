import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleMail, outboxEvents } from '../../../src/db/schema.ts';
import { createMailer, mailDir } from '../../../src/workers/mailer.ts';
import { CONSOLE_USERS, call, createTestApp, provision, startTestServer, type TestApp } from '../../support/app.ts';
import { ConsoleClient, textOf } from '../../support/console.ts';

/** Invitations by e-mail: a real SMTP peer receives them; the link never reaches the integrator's events. */
async function startSmtpPeer() {
  const messages: Array<{ envelopeTo: string[]; parsed: ParsedMail }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        messages.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), parsed: await simpleParser(Buffer.concat(chunks)) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let t: TestApp | undefined;
let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
let peer: Awaited<ReturnType<typeof startSmtpPeer>> | undefined;
afterEach(async () => {
  await server?.close();
  await peer?.close();
  await t?.close();
  t = server = peer = undefined;
});

async function inviteAs(env: Record<string, string>) {
  t = await createTestApp({ env });
  await provision(t);
  server = await startTestServer(t.app);
  const owner = new ConsoleClient(server.url);
  expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
  const res = await owner.post('/console/users', { email: 'Maria@Acme.example', role: 'staff' });
  expect(res.status, textOf(res.html)).toBe(200);
  const link = /(http:\/\/[^<\s]+\/console\/invite\/[A-Za-z0-9_-]+)/.exec(res.html)![1]!;
  return { owner, res, link, token: link.split('/').pop()! };
}

describe('console › invitation e-mail', () => {
  it('is sent by the mailer over SMTP with the same one-time link the page shows; the integrator’s events never carry it', async () => {
    peer = await startSmtpPeer();
    const { owner, res, link, token } = await inviteAs({ SMTP_URL: peer.url, MAIL_FROM: 'paylink <no-reply@paylink.example>' });
    expect(textOf(res.html)).toContain('maria@acme.example is invited. An e-mail with their link is on its way');
    expect(textOf((await owner.get('/console/users')).html)).toContain('maria@acme.example staff — Invited · e-mail pending');

    const mailer = createMailer(t!.app);
    try {
      expect(await mailer.sendDue()).toBe(1);
      expect(await mailer.sendDue()).toBe(0); // sent once
    } finally {
      await mailer.close();
    }
    expect(peer.messages).toHaveLength(1);
    const mail = peer.messages[0]!;
    expect(mail.envelopeTo).toEqual(['maria@acme.example']);
    expect(mail.parsed.subject).toBe('You are invited to the Acme Books console on paylink');
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(textOf((await owner.get('/console/users')).html)).toContain('Invited · e-mail sent');

    // Not in the outbox, not in GET /api/v1/events, not in the console_mail row in clear, not in the logs.
    const events = await call(server!.url, 'GET', '/api/v1/events');
    expect(events.status).toBe(200);
    expect(events.text).not.toContain(token);
    expect(JSON.stringify(await t!.app.db.select().from(outboxEvents))).not.toContain(token);
    const [row] = await t!.app.db.select().from(consoleMail);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, emailTo: 'maria@acme.example' });
    expect(row!.payloadEnc).not.toContain(token);
    expect(t!.logs.join('\n')).not.toContain(token);

    // The e-mailed link works.
    const invitee = new ConsoleClient(server!.url);
    expect((await invitee.get(new URL(link).pathname)).status).toBe(200);
  });

  it('says no e-mail goes out without SMTP_URL, and the mailer writes it under the data directory instead', async () => {
    const { owner, res, link } = await inviteAs({});
    expect(textOf(res.html)).toContain('No mail server is set up, so no e-mail goes out: send them this link yourself.');
    const mailer = createMailer(t!.app);
    try {
      expect(await mailer.sendDue()).toBe(1);
    } finally {
      await mailer.close();
    }
    const files = readdirSync(mailDir(t!.app)).filter((f) => f.includes('console-invite'));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(mailDir(t!.app), files[0]!), 'utf8')).toContain(new URL(link).pathname.slice(0, 30));
    expect(textOf((await owner.get('/console/users')).html)).toContain('Invited · e-mail written to the data directory');
  });
});

describe('console › invitation › the address', () => {
  it('refuses an address the mailer could never send to (U+FFFD, non-ASCII), in the checkout’s words, inviting nobody', async () => {
    t = await createTestApp();
    await provision(t);
    server = await startTestServer(t.app);
    const owner = new ConsoleClient(server.url);
    expect((await owner.signIn(CONSOLE_USERS.acmeOwner.email, CONSOLE_USERS.acmeOwner.password)).status).toBe(303);
    for (const email of ['maria@acme.example\uFFFD', 'maría@acme.example']) {
      const res = await owner.post('/console/users', { email, role: 'staff' });
      expect(textOf(res.html)).toContain('Enter an email address such as name@example.com');
      expect(res.html).not.toMatch(/\/console\/invite\//);
    }
    expect(await t.app.db.select().from(consoleMail)).toHaveLength(0);
  });
});
