import type { EmailTemplatePreview, ParsedEmailTemplatePreviewRequest } from '@console/contracts';
import type { Kysely } from 'kysely';
import type { Transporter } from 'nodemailer';
import type { AuthenticatedUser } from '../../auth/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError, notFound, conflict } from '../../http/errors.ts';
import type { ConsoleMetrics } from '../../observability/metrics.ts';
import { recordEvent } from '../../outbox/index.ts';
import { createSmtpTransport, describeSmtpError, sendMail } from '../../outbox/notifications.ts';
import { findTestSendTemplate, findTestSendVersion, type ActiveVersion } from './queries.ts';
import {
  cachedCompileVersion,
  compiledSchema,
  compileVersion,
  describeSchemaErrors,
  sanitizeForPreview,
  textFromHtml,
  type RenderedMail,
} from './rendering.ts';

/** Preview and test send: a version rendered with sample data generated from its jsonSchema. */

interface VersionContent {
  subject: string;
  body: string;
  textContent: string | null;
  jsonSchema: string | null;
}

/**
 * Renders `version` with data made from its jsonSchema. The sample must satisfy the schema (a
 * schema whose own examples break its rules is the author's to fix: 400 naming jsonSchema).
 */
export function renderWithSampleData(
  version: VersionContent,
  versionId: number | null = null,
): {
  mail: RenderedMail;
  sampleData: unknown;
} {
  const schema = compiledSchema(version.jsonSchema);
  const sampleData = schema ? schema.sample : {};
  if (schema && !schema.validate(sampleData)) {
    const message = `The sample data generated from jsonSchema does not satisfy it: ${describeSchemaErrors(schema.validate.errors)}. Give examples in the schema.`;
    throw new HttpError(400, message, { errors: [{ path: 'jsonSchema', message }] });
  }
  const textContent = version.textContent ?? textFromHtml(version.body);
  const source = { ...version, textContent };
  // Unsaved content (a preview) is compiled each time; a saved version once.
  const compiled =
    versionId === null ? compileVersion(source) : cachedCompileVersion(versionId, source);
  const mail = compiled.render(sampleData);
  return { mail, sampleData };
}

/** POST api/emailtemplates/preview: rendered, the HTML sanitised (the frame shows it). */
export function previewVersion(input: ParsedEmailTemplatePreviewRequest): EmailTemplatePreview {
  const { mail, sampleData } = renderWithSampleData({
    subject: input.subject ?? '',
    body: input.body,
    textContent: input.textContent,
    jsonSchema: input.jsonSchema,
  });
  return {
    subject: mail.subject,
    html: sanitizeForPreview(mail.html),
    text: mail.text,
    sampleData,
  };
}

export interface TestMailer {
  send(input: {
    toAddress: string;
    templateKey: string;
    /** The saved version to send; null: the template's active version. */
    versionId: number | null;
    actor: AuthenticatedUser;
  }): Promise<{
    message: string;
    versionNumber: number;
  }>;
  close(): void;
}

/**
 * The version a test send renders: `versionId` when it is a version of a template with this key,
 * else (no `versionId`) the active version of the template with this key (the most general scope
 * first: instance level, then by tenant and entity).
 */
async function versionToSend(
  db: Kysely<Database>,
  templateKey: string,
  versionId: number | null,
): Promise<ActiveVersion> {
  if (versionId !== null) {
    const version = await findTestSendVersion(db, templateKey, versionId);
    if (!version)
      throw notFound(`Version ${versionId} of email template ${templateKey} not found.`);
    return version;
  }
  const template = await findTestSendTemplate(db, templateKey);
  if (!template) throw notFound(`Email template ${templateKey} not found.`);
  if (!template.activeVersion) {
    throw conflict(
      `Email template ${templateKey} has no active version. Save one as active first.`,
    );
  }
  return template.activeVersion;
}

/**
 * The test-send of POST api/emailtemplates/testsend: the selected version (or the active one) of
 * the template with this key, rendered with sample data and sent to the address over SMTP. A
 * refused or unreachable server is a 502 naming the server (never its credentials); no SMTP
 * configured is a 503.
 */
export function createTestMailer(
  db: Kysely<Database>,
  smtpUrl: string | undefined,
  metrics?: ConsoleMetrics,
  timeoutMs = 10_000,
): TestMailer {
  let transport: Transporter | undefined;
  return {
    async send({ toAddress, templateKey, versionId, actor }) {
      const version = await versionToSend(db, templateKey, versionId);
      const { mail } = renderWithSampleData(
        {
          subject: version.subject,
          body: version.body,
          textContent: version.text_content,
          jsonSchema: version.json_schema,
        },
        version.id,
      );
      if (!smtpUrl) {
        throw new HttpError(
          503,
          'The test email could not be sent: SMTP is not configured (SMTP_URL).',
        );
      }
      transport ??= createSmtpTransport(smtpUrl, timeoutMs);
      try {
        await sendMail(
          transport,
          {
            from: version.from_address,
            to: toAddress,
            subject: mail.subject,
            html: mail.html,
            text: mail.text,
          },
          'template_test',
          { db, metrics },
        );
      } catch (error) {
        // A failed pooled connection is not reused: the next send opens a new one.
        transport.close();
        transport = undefined;
        throw new HttpError(
          502,
          `The test email could not be sent: ${describeSmtpError(error, smtpUrl, timeoutMs)}`,
        );
      }
      await db.transaction().execute((trx) =>
        recordEvent(trx, {
          eventName: 'EmailTemplateTestSent',
          metadata: {
            actor: actor.email,
            action: 'send',
            emailTemplateId: version.email_template_id,
            target: { type: 'EmailTemplate', id: version.email_template_id, name: templateKey },
            // The recipient's domain only: an address is personal data the log need not keep.
            after: {
              versionNumber: version.version_number,
              recipientDomain: toAddress.slice(toAddress.lastIndexOf('@') + 1),
            },
          },
        }),
      );
      return {
        message: `Test email of ${templateKey} version ${version.version_number} sent to ${toAddress}`,
        versionNumber: version.version_number,
      };
    },
    close() {
      transport?.close();
    },
  };
}
