import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/crypto.ts';
import { assets, cardRegistrations, consoleUsers, integrators, links, outboxEvents, payments, schedules } from '../../../src/db/schema.ts';
import { queueInviteMail } from '../../../src/domain/accounts/mail.ts';
import { type EventType, enqueueEvent } from '../../../src/domain/notifications/outbox.ts';
import { createMailer, mailDir } from '../../../src/workers/mailer.ts';
import { CONSOLE_USERS, createTestApp, provision, type TestApp } from '../../support/app.ts';
import { emailViewFromData } from '../../support/email-view.ts';
import { startSmtpPeer } from '../../support/smtp-peer.ts';

let t: TestApp | undefined;
let peer: Awaited<ReturnType<typeof startSmtpPeer>> | undefined;
let clock: Date;

afterEach(async () => {
  await peer?.close();
  await t?.close();
  t = undefined;
  peer = undefined;
});

async function setup(env: Record<string, string> = {}) {
  clock = new Date('2025-06-01T10:00:00.000Z');
  t = await createTestApp({ now: () => clock, env });
  await provision(t);
  const [acme] = await t.app.db.select().from(integrators).where(eq(integrators.email, 'billing@acme.example'));
  return acme!.id;
}

async function enqueue(integratorId: string, type: EventType, emailTo: string, data: Record<string, unknown>) {
  return enqueueEvent(t!.app.db, { integratorId, type, data, emailTo, emailView: emailViewFromData(type, data), now: clock });
}

const paymentData = {
  transaction_id: 'txn_0123456789abcdef0123456789abcdef',
  status: 'succeeded',
  amount: '250.00',
  currency: 'PHP',
  merchant_reference_id: 'order-<42>',
  description: 'Two books & a <script>alert(1)</script> bookmark',
  card: { brand: 'visa', last4: '4242' },
};

async function sendDue() {
  const mailer = createMailer(t!.app, { random: () => 0.5 });
  try {
    return await mailer.sendDue();
  } finally {
    await mailer.close();
  }
}

const row = async (id: string) => (await t!.app.db.select().from(outboxEvents).where(eq(outboxEvents.id, id)))[0]!;

describe('mail › over SMTP', () => {
  it('sends the customer a receipt with the right recipient, subject, amount, masked card and transaction id', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url, MAIL_FROM: 'Acme via paylink <receipts@paylink.test>' });
    const id = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    expect(await sendDue()).toBe(1);
    expect(peer.messages).toHaveLength(1);
    const { envelopeTo, parsed } = peer.messages[0]!;
    expect(envelopeTo).toEqual(['juan@example.com']);
    expect(parsed.subject).toBe('Payment received: ₱250.00 — Acme Books');
    expect(parsed.from?.text).toBe('"Acme via paylink" <receipts@paylink.test>');
    expect(parsed.messageId).toBe(`<${id}@paylink>`);
    expect(parsed.text).toContain('₱250.00');
    expect(parsed.text).toContain('Visa •••• 4242');
    expect(parsed.text).toContain('txn_0123456789abcdef0123456789abcdef');
    expect(parsed.text).not.toMatch(/4242424242424242/);
    expect(parsed.html).toContain('₱250.00');
    expect(parsed.html).toContain('Two books &amp; a &lt;script&gt;alert(1)&lt;/script&gt; bookmark');
    expect(parsed.html).toContain('order-&lt;42&gt;');
    expect(parsed.html).not.toContain('<script>');
    expect(await row(id)).toMatchObject({ emailState: 'sent', emailAttempts: 1, emailSentAt: clock, emailLastError: null });
  });

  it('e-mails a refund and each scheduled charge with their own subjects', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url });
    await t!.app.db
      .insert(payments)
      .values({ id: 'txn_refunded', integratorId, status: 'succeeded', amountMinor: 25000n, currency: 'PHP', cardBrand: 'mastercard', cardLast4: '4444' });
    await enqueue(integratorId, 'refund.succeeded', 'juan@example.com', {
      transaction_id: 'txn_refunded',
      refund_id: 'rfd_1',
      amount: '50.00',
      currency: 'PHP',
      status: 'succeeded',
    });
    await enqueue(integratorId, 'schedule.charge_succeeded', 'maria@example.com', { ...paymentData, schedule_reference: 'sch_42', amount: '1000.00' });
    expect(await sendDue()).toBe(2);
    const subjects = peer.messages.map((m) => m.parsed.subject).sort();
    expect(subjects).toEqual(['Payment received: ₱1,000.00 — Acme Books', 'Refund of ₱50.00 — Acme Books']);
    const refund = peer.messages.find((m) => m.parsed.subject?.startsWith('Refund'))!;
    expect(refund.parsed.text).toContain('rfd_1');
    expect(refund.parsed.text).toContain('Mastercard •••• 4444'); // looked up from the payment at send time
    const scheduled = peer.messages.find((m) => m.parsed.subject?.startsWith('Payment'))!;
    expect(scheduled.envelopeTo).toEqual(['maria@example.com']);
    expect(scheduled.parsed.text).toContain('sch_42');
  });

  it('shows the link’s logo inline (cid attachment)', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const assetId = newId('img');
    await t!.app.db.insert(assets).values({ id: assetId, integratorId, contentType: 'image/png', sha256: 'x', bytes: png });
    const [link] = await t!.app.db.update(links).set({ logoAssetId: assetId }).where(eq(links.slug, 'acme-books')).returning();
    await t!.app.db
      .insert(payments)
      .values({ id: paymentData.transaction_id, integratorId, linkId: link!.id, status: 'succeeded', amountMinor: 25000n, currency: 'PHP' });
    await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    const { parsed } = peer.messages[0]!;
    expect(parsed.html).toContain('src="cid:merchant-logo@paylink"');
    const logo = parsed.attachments.find((a) => a.contentId === '<merchant-logo@paylink>');
    expect(logo?.contentType).toBe('image/png');
    expect(logo?.content.equals(png)).toBe(true);
  });

  it('Reply-To is the merchant: its contact address, or its support address once set', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url, MAIL_FROM: 'paylink <receipts@paylink.test>' });
    await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    expect(peer.messages[0]!.parsed.replyTo?.text).toBe('billing@acme.example');
    await t!.app.db.update(integrators).set({ supportEmail: 'help@acme.example' }).where(eq(integrators.id, integratorId));
    await enqueue(integratorId, 'payment.succeeded', 'ana@example.com', paymentData);
    await sendDue();
    expect(peer.messages[1]!.parsed.replyTo?.text).toBe('help@acme.example');
    expect(peer.messages[1]!.parsed.from?.text).toBe('"paylink" <receipts@paylink.test>');
  });

  it('speaks the link’s language and wears its colour (Filipino, Spanish)', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url });
    const [link] = await t!.app.db.update(links).set({ locale: 'fil', brandColor: '#7c2d12' }).where(eq(links.slug, 'acme-books')).returning();
    await t!.app.db
      .insert(payments)
      .values({ id: paymentData.transaction_id, integratorId, linkId: link!.id, status: 'succeeded', amountMinor: 25000n, currency: 'PHP' });
    await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    const fil = peer.messages[0]!.parsed;
    expect(fil.subject).toBe('Natanggap ang bayad: ₱250.00 — Acme Books');
    expect(fil.text).toContain('Salamat. Natanggap na ng Acme Books ang iyong bayad.');
    expect(fil.text).toContain('Transaction ID:');
    expect(fil.html).toContain('<html lang="fil">');
    expect(fil.html).toContain('border-top:6px solid #7c2d12');
    await t!.app.db.update(links).set({ locale: 'es' }).where(eq(links.id, link!.id));
    await enqueue(integratorId, 'payment.failed', 'juan@example.com', { ...paymentData, status: 'failed' });
    await sendDue();
    const es = peer.messages[1]!.parsed;
    expect(es.subject?.replace(/\u00a0/g, ' ')).toBe('Pago no completado: 250,00 PHP — Acme Books');
    expect(es.text).toContain('No se cobró nada. La tarjeta fue rechazada.');
    expect(es.text?.replace(/\u00a0/g, ' ')).toMatch(/Fecha:\s+1 jun 2025, 10:00 UTC/);
  });

  it('the receipt says how the customer paid, in their language: a GCash payment in Filipino, a card in English', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url });
    const [link] = await t!.app.db.update(links).set({ locale: 'fil' }).where(eq(links.slug, 'acme-books')).returning();
    await t!.app.db.insert(payments).values({
      id: paymentData.transaction_id,
      integratorId,
      linkId: link!.id,
      status: 'succeeded',
      amountMinor: 25000n,
      currency: 'PHP',
      paymentMethod: 'gcash',
    });
    await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', { ...paymentData, payment_method: 'gcash', card: null });
    await enqueue(integratorId, 'payment.succeeded', 'ana@example.com', { ...paymentData, transaction_id: newId('txn'), payment_method: 'card' });
    expect(await sendDue()).toBe(2);
    const byTo = (to: string) => peer!.messages.find((m) => m.envelopeTo.includes(to))!.parsed;
    expect(byTo('juan@example.com').text).toMatch(/Binayaran gamit ang: +GCash\n/);
    expect(byTo('juan@example.com').text).not.toContain('••••');
    expect(byTo('ana@example.com').text).toMatch(/Paid with: +Visa •••• 4242\n/);
  });

  it('a schedule’s e-mails speak the language the customer registered the card in (Spanish), else English', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url });
    const registration = (locale: string | null) => ({
      reference: randomUUID(),
      integratorId,
      status: 'active' as const,
      locale,
      last4: '4242',
      brand: 'visa',
    });
    const [es, none] = await t!.app.db
      .insert(cardRegistrations)
      .values([registration('es'), registration(null)])
      .returning();
    const schedule = (id: string, card: string) => ({
      id,
      integratorId,
      cardRegistrationReference: card,
      recurrence: {},
      cronPattern: '0 0 1 * *',
      timeOffset: '+08:00',
      amountMinor: 100000n,
      currency: 'PHP',
      payloadHash: id,
    });
    await t!.app.db.insert(schedules).values([schedule('sch_es', es!.reference), schedule('sch_en', none!.reference)]);
    await t!.app.db.insert(payments).values([
      { id: 'txn_es', integratorId, status: 'failed', amountMinor: 100000n, currency: 'PHP', cardRegistrationReference: es!.reference },
      { id: 'txn_en', integratorId, status: 'failed', amountMinor: 100000n, currency: 'PHP', cardRegistrationReference: none!.reference },
    ]);
    const failed = { ...paymentData, status: 'failed', amount: '1000.00' };
    await enqueue(integratorId, 'schedule.charge_failed', 'maria@example.com', { ...failed, transaction_id: 'txn_es', schedule_reference: 'sch_es' });
    await enqueue(integratorId, 'schedule.charge_failed', 'maria@example.com', { ...failed, transaction_id: 'txn_en', schedule_reference: 'sch_en' });
    await enqueue(integratorId, 'schedule.suspended', 'maria@example.com', { schedule_reference: 'sch_es', reason: 'failed_runs' });
    await sendDue();
    const subjects = peer.messages.map((m) => m.parsed.subject?.replace(/\u00a0/g, ' '));
    expect(subjects).toContain('Falló el pago programado: 1000,00 PHP — Acme Books');
    expect(subjects).toContain('Pagos programados en pausa — Acme Books');
    expect(subjects.filter((x) => x?.startsWith('Falló'))).toHaveLength(1);
    expect(peer.messages.find((m) => m.parsed.subject?.startsWith('Pagos'))!.parsed.html).toContain('<html lang="es">');
  });

  it('a rejected recipient fails its own e-mail only; the others still go out', async () => {
    peer = await startSmtpPeer({ rejectRecipient: (a) => (a === 'nobody@example.com' ? { code: 550, message: 'No such user' } : undefined) });
    const integratorId = await setup({ SMTP_URL: peer.url });
    const bad = await enqueue(integratorId, 'payment.succeeded', 'nobody@example.com', paymentData);
    const invalid = await enqueue(integratorId, 'payment.succeeded', 'not an address', paymentData);
    const good = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    expect(await row(bad)).toMatchObject({ emailState: 'failed', emailAttempts: 1 });
    expect((await row(bad)).emailLastError).toMatch(/^SMTP 550/);
    expect(await row(invalid)).toMatchObject({ emailState: 'failed', emailLastError: 'the recipient address is not a valid e-mail address' });
    expect(await row(good)).toMatchObject({ emailState: 'sent' });
    expect(peer.messages.map((m) => m.envelopeTo)).toEqual([['juan@example.com']]);
  });

  it('retries a temporary SMTP failure with backoff, then sends', async () => {
    peer = await startSmtpPeer();
    const integratorId = await setup({ SMTP_URL: peer.url, PAYLINK_MAIL_RETRY_SECONDS: '60,300' });
    peer.failNextWith451(1);
    const id = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    const first = await row(id);
    expect(first).toMatchObject({ emailState: 'pending', emailAttempts: 1 });
    expect(first.emailLastError).toMatch(/^SMTP 451/);
    expect(first.emailNextAt).toEqual(new Date(clock.getTime() + 60_000));
    expect(await sendDue()).toBe(0);
    clock = new Date(clock.getTime() + 60_000);
    await sendDue();
    expect(await row(id)).toMatchObject({ emailState: 'sent', emailAttempts: 2 });
    expect(peer.messages).toHaveLength(1);
  });

  it('retries when the SMTP server is unreachable', async () => {
    peer = await startSmtpPeer();
    const url = peer.url;
    await peer.close();
    peer = undefined;
    const integratorId = await setup({ SMTP_URL: url });
    const id = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await sendDue();
    expect(await row(id)).toMatchObject({ emailState: 'pending', emailAttempts: 1 });
    expect((await row(id)).emailLastError).toMatch(/ECONNECTION|ECONNREFUSED/);
  });
});

describe('mail › without SMTP_URL', () => {
  it('writes each e-mail as an .eml file under PAYLINK_DATA_DIR/mail and logs one line', async () => {
    const integratorId = await setup();
    const id = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    expect(await sendDue()).toBe(1);
    const dir = mailDir(t!.app);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^20250601T100000Z-payment\\.succeeded-${id}\\.eml$`));
    const parsed = await simpleParser(readFileSync(join(dir, files[0]!)));
    expect(parsed.subject).toBe('Payment received: ₱250.00 — Acme Books');
    expect((parsed.to as { text: string }).text).toBe('juan@example.com');
    expect(parsed.text).toContain('Visa •••• 4242');
    // Written, not e-mailed: the event says `saved`, never `sent`.
    expect(await row(id)).toMatchObject({ emailState: 'saved', emailSentAt: expect.any(Date) });
    const lines = t!.logs.map((l) => JSON.parse(l)).filter((l) => l.component === 'mailer');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'mail written (no SMTP_URL)', event_id: id, file: join(dir, files[0]!) });
    expect(lines[0]).not.toHaveProperty('to');
  });
});

describe('mail › logs', () => {
  it('no log line of a mail journey carries a recipient address: sent, refused, retried, failed for good, written, an invitation', async () => {
    peer = await startSmtpPeer({
      rejectRecipient: (a) => (a === 'nobody@example.com' ? { code: 550, message: `5.1.1 <${a}>: Recipient address rejected` } : undefined),
    });
    const integratorId = await setup({ SMTP_URL: peer.url, PAYLINK_MAIL_RETRY_SECONDS: '60' });
    peer.failNextWith451(1);
    const retried = await enqueue(integratorId, 'payment.succeeded', 'retry.me@example.com', paymentData);
    const refused = await enqueue(integratorId, 'payment.succeeded', 'nobody@example.com', paymentData);
    const sent = await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    const [staff] = await t!.app.db.select().from(consoleUsers).where(eq(consoleUsers.email, CONSOLE_USERS.acmeStaff.email));
    await queueInviteMail(t!.app, t!.app.db, {
      integratorId,
      userId: staff!.id,
      to: 'invitee@example.com',
      now: clock,
      mail: {
        integratorName: 'Acme Books',
        inviterEmail: CONSOLE_USERS.acmeOwner.email,
        role: 'staff',
        url: 'http://x/console/invite/t',
        expiresAt: clock.toISOString(),
      },
    });
    await sendDue();
    clock = new Date(clock.getTime() + 60_000);
    await sendDue();
    // One of the sends met the 451 (the batch goes four at a time) and went out a minute later.
    expect(await row(retried)).toMatchObject({ emailState: 'sent' });
    expect(await row(refused)).toMatchObject({ emailState: 'failed' });
    expect(await row(sent)).toMatchObject({ emailState: 'sent' });
    const lines = t!.logs.filter((l) => JSON.parse(l).component === 'mailer');
    expect(lines.map((l) => JSON.parse(l).msg).sort()).toEqual(
      ['mail attempt failed; will retry', 'mail failed for good', 'mail sent', 'mail sent', 'mail sent'].sort(),
    );
    for (const line of t!.logs) expect(line).not.toMatch(/retry\.me@|nobody@|juan@|invitee@/);
    // Each line names its message instead; the failure still says what the server said.
    expect(lines.map((l) => JSON.parse(l).event_id ?? JSON.parse(l).console_mail_id).every(Boolean)).toBe(true);
    expect(lines.find((l) => JSON.parse(l).msg === 'mail failed for good')).toContain('Recipient address rejected');
  });

  it('without SMTP_URL, the lines of written e-mails carry no address either', async () => {
    const integratorId = await setup();
    await enqueue(integratorId, 'payment.succeeded', 'juan@example.com', paymentData);
    await enqueue(integratorId, 'payment.succeeded', 'not an address', paymentData);
    await sendDue();
    const lines = t!.logs.filter((l) => JSON.parse(l).component === 'mailer');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(/juan@|not an address/);
  });
});
