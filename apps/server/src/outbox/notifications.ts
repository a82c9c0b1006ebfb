import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import { TENANT_USER_INVITATION_TEMPLATE_KEY } from '@console/contracts';
import type { Database } from '../db/schema.ts';
import type { ConsoleMetrics, MailKind, MailOutcome } from '../observability/metrics.ts';
import { findActiveVersion } from '../features/email-templates/queries.ts';
import { cachedCompileVersion } from '../features/email-templates/rendering.ts';
import { recordMailCount } from './mail-counts.ts';
import type { EventSubscription, EventWorker, RecordedEvent } from './worker.ts';

/** Invitations to new tenant users, by mail. */
export const NOTIFICATIONS: EventSubscription = {
  name: 'notifications',
  subscribesTo: ['TenantUserCreated'],
};

export interface NotificationsOptions {
  /** smtp:// or smtps:// URL; undefined: every mail fails with 'SMTP is not configured'. */
  smtpUrl: string | undefined;
  from: string;
  /** The console's address, for the sign-in link. */
  publicUrl: string;
  /** Connection, greeting and socket timeout: keep it well under the event lease. */
  timeoutMs: number;
  /** Counts the invitations sent and failed (METRICS_TOKEN or METRICS_PORT set). */
  metrics?: ConsoleMetrics | undefined;
}

export interface Invitation {
  /** The template version's sender; absent for the built-in invitation (SMTP_FROM). */
  from?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

/**
 * A pooled nodemailer transport to `smtpUrl`: one connection kept open and reused (a new one per
 * mail cost a handshake and a QUIT each); a sender that sends one mail at a time leaves more idle.
 * Every wait (connect, greeting, socket, DNS) ends after `timeoutMs`. Close it with close().
 */
export function createSmtpTransport(smtpUrl: string, timeoutMs: number): Transporter {
  return nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
}

/**
 * 'TenantUserCreated' (metadata {email, tenantId, companyName}) mails the new tenant user an
 * invitation to sign in. Delivery is 'external': the mail goes first, then the record is marked
 * done, so a crash between the two sends it again after the lease (at least once; docs/events.md).
 */
export function createNotificationsWorker(options: NotificationsOptions): EventWorker {
  const transport = options.smtpUrl
    ? createSmtpTransport(options.smtpUrl, options.timeoutMs)
    : undefined;
  return {
    ...NOTIFICATIONS,
    delivery: 'external',
    async handle(event, db) {
      if (event.eventName !== 'TenantUserCreated') return;
      if (!transport || !options.smtpUrl) {
        throw new Error('SMTP is not configured: set SMTP_URL (docs/configuration.md)');
      }
      const invitation = await invitationFor(event, db, options.publicUrl);
      try {
        await sendMail(transport, { from: options.from, ...invitation }, 'invitation', {
          db,
          metrics: options.metrics,
        });
      } catch (error) {
        throw new Error(describeSmtpError(error, options.smtpUrl, options.timeoutMs), {
          cause: error,
        });
      }
    },
    async close() {
      transport?.close();
    },
  };
}

/**
 * Sends one mail through `transport`, counted by kind and outcome (`console_mails_total`, and per
 * hour in `mail_counts` for the dashboard overview) and, while tracing is on, in a span of its own
 * (no instrumentation of nodemailer exists): a child of the request that sends it, or a trace of
 * its own from a worker.
 */
export async function sendMail(
  transport: Transporter,
  mail: SendMailOptions,
  kind: MailKind,
  counts: { db: Kysely<Database>; metrics: ConsoleMetrics | undefined },
): Promise<void> {
  const tracer = trace.getTracer('kyc-admin-console');
  await tracer.startActiveSpan(
    'smtp send',
    { kind: SpanKind.CLIENT, attributes: { 'console.mail.kind': kind } },
    async (span) => {
      let outcome: MailOutcome = 'failed';
      try {
        await transport.sendMail(mail);
        outcome = 'sent';
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
        counts.metrics?.countMail(kind, outcome);
        // A count that cannot be written (the database is down) must not turn a sent mail into
        // a failure that would send it again: the figure is informational.
        await recordMailCount(counts.db, kind, outcome).catch(() => undefined);
      }
    },
  );
}

/** The invitation of a 'TenantUserCreated' event; the company name is looked up when missing. */
export async function invitationFor(
  event: RecordedEvent,
  db: Kysely<Database>,
  publicUrl: string,
): Promise<Invitation> {
  const { email, companyName, tenantId } = event.metadata;
  if (typeof email !== 'string' || !EMAIL.test(email)) {
    throw new Error(`Event ${event.id} (TenantUserCreated) has no valid email in its metadata`);
  }
  let company = typeof companyName === 'string' && companyName.trim() ? companyName.trim() : null;
  const tenant = typeof tenantId === 'number' ? tenantId : event.tenantId;
  if (!company && tenant !== null) {
    const row = await db
      .selectFrom('tenants')
      .select('company_name')
      .where('id', '=', tenant)
      .executeTakeFirst();
    company = row?.company_name ?? null;
  }
  const name = company ?? 'your company';
  const signIn = `${publicUrl}/login`;
  const fromTemplate = await renderInvitationTemplate(db, tenant, {
    email,
    companyName: name,
    signInUrl: signIn,
  });
  if (fromTemplate) return { to: email, ...fromTemplate };
  return {
    to: email,
    subject: `You are invited to the ${name} portal`,
    text: [
      'Hello,',
      '',
      `You now have access to the ${name} portal of the administration console.`,
      `Sign in with this address (${email}) at:`,
      '',
      signIn,
      '',
      'If you did not expect this invitation, you can ignore this message.',
    ].join('\n'),
    html: [
      '<p>Hello,</p>',
      `<p>You now have access to the <strong>${escapeHtml(name)}</strong> portal of the administration console.`,
      `Sign in with this address (${escapeHtml(email)}):</p>`,
      `<p><a href="${escapeHtml(signIn)}">${escapeHtml(signIn)}</a></p>`,
      '<p>If you did not expect this invitation, you can ignore this message.</p>',
    ].join('\n'),
  };
}

/**
 * The invitation rendered from the active version of the 'tenant-user-invitation' template (the
 * tenant's own, else the instance-level one), or null when there is none: the built-in text
 * below is then sent, so an invitation never waits for a template.
 */
async function renderInvitationTemplate(
  db: Kysely<Database>,
  tenantId: number | null,
  data: { email: string; companyName: string; signInUrl: string },
): Promise<Omit<Invitation, 'to'> | null> {
  const version = await findActiveVersion(db, TENANT_USER_INVITATION_TEMPLATE_KEY, tenantId);
  if (!version) return null;
  const compiled = cachedCompileVersion(version.id, {
    subject: version.subject,
    body: version.body,
    textContent: version.text_content,
  });
  return { from: version.from_address, ...compiled.render(data) };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );
}

/**
 * An operator's reading of a failed send, naming the server (never its credentials):
 * 'SMTP connection refused (127.0.0.1:19025)', 'SMTP 550 5.1.1 <x@y.z>: Recipient address
 * rejected', 'SMTP greeting not received within 10000 ms (mail.example.com:587)'.
 */
export function describeSmtpError(error: unknown, smtpUrl: string, timeoutMs: number): string {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  const server = `${url.hostname}:${url.port || (secure ? '465' : '587')}`;
  const details = (error ?? {}) as {
    code?: string;
    errno?: number | string;
    message?: string;
    response?: string;
    responseCode?: number;
    command?: string;
  };
  const message = details.message ?? String(error);
  if (message.includes('ECONNREFUSED')) return `SMTP connection refused (${server})`;
  if (details.code === 'EDNS' || message.includes('ENOTFOUND')) {
    return `SMTP server not found (${server})`;
  }
  if (details.code === 'ETIMEDOUT') {
    return details.command === 'CONN' || /greeting/i.test(message)
      ? `SMTP greeting not received within ${timeoutMs} ms (${server})`
      : `SMTP connection timed out after ${timeoutMs} ms (${server})`;
  }
  if (details.responseCode && details.response) {
    return `SMTP ${details.response.replace(/\s+/g, ' ').trim()}`;
  }
  if (message.includes('ECONNRESET') || details.code === 'ECONNECTION') {
    return `SMTP connection closed unexpectedly (${server}): ${message}`;
  }
  return `SMTP error (${server}): ${message}`;
}
