import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import pMap from 'p-map';
import type { PaylinkApp } from '../app.ts';
import type { ConsoleMail } from '../db/schema.ts';
import { claimDueConsoleMail, recordConsoleMailOutcome, renderConsoleMail } from '../domain/accounts/mail.ts';
import type { OutboxEvent } from '../domain/notifications/callbacks.ts';
import { renderEmail } from '../domain/notifications/email/templates.ts';
import { claimDueEmails, emailContext, isDeliverableAddress, type MailOutcome, recordEmailOutcome, storedEmailView } from '../domain/notifications/mail.ts';
import { OUTBOX_CHANNEL } from '../domain/notifications/outbox.ts';
import { manageUrlFor } from '../domain/subscriptions/mail.ts';
import type { Logger } from '../log.ts';
import { type Loop, startLoop } from './loop.ts';

/**
 * The mailer: claims due customer e-mails from the outbox and sends them with nodemailer over
 * SMTP_URL, retrying temporary failures (connection problems, SMTP 4xx) on
 * PAYLINK_MAIL_RETRY_SECONDS; a permanent rejection (SMTP 5xx, an unusable address) fails that
 * e-mail only. Without SMTP_URL each message is written as an .eml file under
 * <PAYLINK_DATA_DIR>/mail/ and logged in one line, so a developer can open it.
 * Log lines name the message by its event (or console mail) id, never by its recipient: the
 * address is customer data (docs/security.md), and an SMTP server's error often quotes it.
 */
export interface Mailer {
  sendDue(): Promise<number>;
  close(): Promise<void>;
}

/** Covers a batch of BATCH / CONCURRENCY rounds of SMTP sends at their socket timeout. */
const LEASE_MS = 10 * 60 * 1000;
const BATCH = 16;
const CONCURRENCY = 4;

export const mailDir = (app: PaylinkApp) => join(app.config.dataDir, 'mail');

export function createMailer(app: PaylinkApp, opts: { random?: () => number } = {}): Mailer {
  const log = app.log.child({ component: 'mailer' });
  // nodemailer is loaded with the first e-mail to send, not at start (docs/deploy.md).
  let transports: Promise<{ smtp: Transporter | undefined; builder: Transporter }> | undefined;
  const loadTransports = () =>
    (transports ??= import('nodemailer').then(({ default: nodemailer }) => ({
      smtp: app.config.smtpUrl
        ? nodemailer.createTransport({ url: app.config.smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as never)
        : undefined,
      builder: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    })));

  async function sendOne(event: OutboxEvent): Promise<void> {
    const to = event.emailTo;
    let outcome: MailOutcome;
    let subject = '';
    if (!isDeliverableAddress(to)) {
      outcome = { ok: false, error: 'the recipient address is not a valid e-mail address', permanent: true };
    } else {
      const written = storedEmailView(event);
      const { merchant, card, item } = await emailContext(app.db, { integratorId: event.integratorId, view: written });
      const view = written.card || !card ? written : { ...written, card };
      const manageUrl = await manageUrlFor(app, event, view);
      const mail = renderEmail({ type: event.type, view, createdAt: event.createdAt, merchant, item, manageUrl });
      subject = mail.subject;
      const message = {
        from: app.config.mailFrom,
        to,
        // A customer's reply reaches the merchant, not paylink's sending address.
        ...(merchant.replyTo && isDeliverableAddress(merchant.replyTo) ? { replyTo: merchant.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        // The same Message-ID on a resend (at-least-once), so mail clients can fold duplicates.
        messageId: `<${event.id}@paylink>`,
        headers: { 'X-Paylink-Event': event.id },
      };
      try {
        const { smtp, builder } = await loadTransports();
        if (smtp) {
          await smtp.sendMail(message);
          log.info('mail sent', { event_id: event.id, type: event.type, subject });
        } else {
          const built = await builder.sendMail(message);
          const file = await writeEml(event, built.message as Buffer);
          log.info('mail written (no SMTP_URL)', { event_id: event.id, type: event.type, subject, file });
        }
        // Without a mail server the message is only a file: the event says so, never "sent".
        outcome = { ok: true, savedAsFile: !smtp };
      } catch (error) {
        outcome = classify(error);
      }
    }
    const result = await recordEmailOutcome(app.db, { eventId: event.id, outcome, now: app.now(), schedule: app.config.mailRetrySeconds, random: opts.random });
    if (!outcome.ok) {
      const fields = { event_id: event.id, type: event.type, attempt: result.attempt, state: result.state, error: withoutAddresses(outcome.error) };
      if (result.state === 'failed') log.warn('mail failed for good', fields);
      else log.info('mail attempt failed; will retry', { ...fields, next_attempt_at: result.nextAt?.toISOString(), subject });
    }
  }

  /** A console e-mail (an invitation): its own queue, its own outcome; the link inside is never logged. */
  async function sendConsoleMail(row: ConsoleMail): Promise<void> {
    let outcome: MailOutcome;
    if (!isDeliverableAddress(row.emailTo)) {
      outcome = { ok: false, error: 'the recipient address is not a valid e-mail address', permanent: true };
    } else {
      const mail = renderConsoleMail(app, row);
      const message = {
        from: app.config.mailFrom,
        to: row.emailTo,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${row.id}@paylink>`,
      };
      try {
        const { smtp, builder } = await loadTransports();
        if (smtp) {
          await smtp.sendMail(message);
          log.info('mail sent', { console_mail_id: row.id, kind: row.kind });
        } else {
          const built = await builder.sendMail(message);
          const file = await writeEml({ createdAt: row.createdAt, type: `console-${row.kind}`, id: row.id }, built.message as Buffer);
          log.info('mail written (no SMTP_URL)', { console_mail_id: row.id, kind: row.kind, file });
        }
        outcome = { ok: true };
      } catch (error) {
        outcome = classify(error);
      }
    }
    const result = await recordConsoleMailOutcome(app.db, {
      id: row.id,
      attempts: row.attempts,
      outcome,
      now: app.now(),
      schedule: app.config.mailRetrySeconds,
      random: opts.random,
    });
    if (!outcome.ok) {
      const fields = { console_mail_id: row.id, kind: row.kind, attempt: result.attempt, state: result.state, error: withoutAddresses(outcome.error) };
      if (result.state === 'failed') log.warn('mail failed for good', fields);
      else log.info('mail attempt failed; will retry', fields);
    }
  }

  async function writeEml(event: Pick<OutboxEvent, 'createdAt' | 'type' | 'id'>, raw: Buffer): Promise<string> {
    const dir = mailDir(app);
    await mkdir(dir, { recursive: true });
    const stamp = event.createdAt
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const file = join(dir, `${stamp}-${event.type}-${event.id}.eml`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, raw, { mode: 0o600 });
    await rename(tmp, file);
    return file;
  }

  return {
    async sendDue() {
      const consoleMails = await claimDueConsoleMail(app.db, { now: app.now(), leaseMs: LEASE_MS, limit: BATCH });
      await pMap(
        consoleMails,
        async (row) => {
          try {
            await sendConsoleMail(row);
          } catch (error) {
            log.error('mail sending crashed', { console_mail_id: row.id, error });
          }
        },
        { concurrency: CONCURRENCY },
      );
      const events = await claimDueEmails(app.db, { now: app.now(), leaseMs: LEASE_MS, limit: BATCH });
      await pMap(
        events,
        async (event) => {
          try {
            await sendOne(event);
          } catch (error) {
            log.error('mail sending crashed', { event_id: event.id, error });
          }
        },
        { concurrency: CONCURRENCY },
      );
      return events.length + consoleMails.length;
    },
    async close() {
      if (!transports) return;
      const { smtp, builder } = await transports;
      smtp?.close();
      builder.close();
    },
  };
}

/** Anything shaped like an e-mail address in a server's error text (`550 <ana@example.com>: no such user`). */
const ADDRESS_LIKE = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+/g;

/** An error for a log line: the addresses it quotes replaced (the attempt's record keeps the whole text). */
const withoutAddresses = (error: string): string => error.replace(ADDRESS_LIKE, '[address]');

/** SMTP 5xx (and an envelope the server rejects outright) is permanent; anything else is worth a retry. */
export function classify(error: unknown): MailOutcome {
  const e = error as { responseCode?: number; code?: string; response?: string; message?: string };
  const detail = (e.response ?? e.message ?? String(error)).replace(/\s+/g, ' ').slice(0, 300);
  if (typeof e.responseCode === 'number') {
    return { ok: false, error: `SMTP ${e.responseCode}: ${detail}`, permanent: e.responseCode >= 500 };
  }
  return { ok: false, error: `${e.code ? `${e.code}: ` : ''}${detail}`, permanent: false };
}

export function startMailerLoop(app: PaylinkApp, log: Logger): Loop {
  const mailer = createMailer(app);
  return startLoop({
    name: 'mailer',
    intervalMs: app.config.workerPollMs,
    log,
    tick: async () => (await mailer.sendDue()) > 0,
    onStop: () => mailer.close(),
    wakeOn: { database: app.database, channel: OUTBOX_CHANNEL, payload: 'email' },
  });
}
