import Handlebars from 'handlebars';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/connection.ts';
import { migrateTo } from '../apps/server/src/db/migrator.ts';
import { findActiveVersion } from '../apps/server/src/features/email-templates/queries.ts';
import {
  cachedCompileVersion,
  compiledSchema,
} from '../apps/server/src/features/email-templates/rendering.ts';
import { createTestMailer } from '../apps/server/src/features/email-templates/sending.ts';
import { createSmtpTransport } from '../apps/server/src/outbox/notifications.ts';
import { SmtpCatcher } from '../apps/server/src/outbox/smtp-catcher.ts';
import {
  adminQuery,
  alternating,
  alternatingRounds,
  benchPostgresUrl,
  formatMs,
  ratio,
  verdict,
} from './lib.ts';

/**
 * Email templates (issue 13), in a throwaway database `console_email_bench_<timestamp>`:
 * - render: the active version of a real-world shaped HTML mail (nested tables, a loop, 40
 *   placeholders) rendered BENCH_RENDER_COUNT (10,000) times the way the worker and the test send
 *   do (subject, HTML and text, compiled once per version), against Handlebars' bare render of
 *   the same three parts;
 * - send: BENCH_TEST_MAILS (1,000) test mails through the test-send path (active version read,
 *   rendered with sample data, sent on the pooled SMTP connection) to the SMTP catcher, against
 *   nodemailer's bare pooled send of the same message, in 10 rounds whose first side alternates
 *   (the fastest round of each is kept; before, ours ran first and paid for warming up both).
 * Time per operation for both, the ratio (bare / ours) and whether it meets its target (≥ 0.8).
 */
export async function benchEmailTemplates(): Promise<void> {
  const renders = Number(process.env.BENCH_RENDER_COUNT ?? 10_000);
  const mails = Number(process.env.BENCH_TEST_MAILS ?? 1000);
  const adminUrl = `${await benchPostgresUrl()}/postgres`;
  const name = `console_email_bench_${Date.now()}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const catcher = new SmtpCatcher({ maxMessages: mails * 2 + 10 });
  const smtpUrl = `smtp://127.0.0.1:${await catcher.start(0)}`;
  let handle: DatabaseHandle | undefined;
  await adminQuery(adminUrl, `create database ${name}`);
  try {
    handle = openDatabase(url.toString());
    await migrateTo(handle.db);
    await insertTemplate(handle);
    const version = await findActiveVersion(handle.db, 'kyc-statement');
    if (!version) throw new Error('The bench template has no active version');
    const sample = compiledSchema(version.json_schema)?.sample;

    // Render: ours (the cached compiled version) against Handlebars alone.
    const ours = cachedCompileVersion(version.id, {
      subject: version.subject,
      body: version.body,
      textContent: version.text_content,
    });
    const bare = Handlebars.create();
    const bareParts = [
      bare.compile(version.subject, { noEscape: true }),
      bare.compile(version.body),
      bare.compile(version.text_content, { noEscape: true }),
    ];
    const renderOurs = () => ours.render(sample);
    const renderBare = () => bareParts.map((part) => part(sample));
    renderOurs(); // Warm both (first call parses).
    renderBare();
    const [oursMs, bareMs] = alternating(renders, renderOurs, renderBare);
    report(`Render of a ${version.body.length}-character template, ${renders} times`, {
      ours: ['our render (subject, HTML, text)', oursMs],
      bare: ['Handlebars bare render (baseline)', bareMs],
    });

    // Test sends through our path and the same message through nodemailer alone, in rounds.
    const mailer = createTestMailer(handle.db, smtpUrl);
    const actor = { email: 'bench@example.com' } as Parameters<typeof mailer.send>[0]['actor'];
    const rendered = ours.render(sample);
    // The same transport settings as ours (pooled, one connection, Nagle off): only our code differs.
    const transport = createSmtpTransport(smtpUrl, 10_000);
    const message = { from: version.from_address, ...rendered };
    await mailer.send({
      toAddress: 'warm@bench.example',
      templateKey: 'kyc-statement',
      versionId: null,
      actor,
    });
    await transport.sendMail({ ...message, to: 'warm@bench.example' });
    const perRound = Math.max(1, Math.floor(mails / SEND_ROUNDS));
    const timedSends = async (send: (index: number) => Promise<unknown>) => {
      const started = performance.now();
      for (let index = 0; index < perRound; index++) await send(index);
      return (performance.now() - started) / perRound;
    };
    const [sendMs, bareSendMs] = await alternatingRounds(
      SEND_ROUNDS,
      (round) =>
        timedSends((index) =>
          mailer.send({
            toAddress: `qa${round}-${index}@bench.example`,
            templateKey: 'kyc-statement',
            versionId: null,
            actor,
          }),
        ),
      (round) =>
        timedSends((index) =>
          transport.sendMail({ ...message, to: `bare${round}-${index}@bench.example` }),
        ),
    );
    mailer.close();
    transport.close();
    const expected = perRound * SEND_ROUNDS * 2 + 2;
    const caught = catcher.messages().length;
    if (caught !== expected) throw new Error(`The catcher got ${caught} of ${expected} mails`);
    report(`Test mails to the SMTP catcher, ${mails} each`, {
      ours: ['test send (read, render, send)', sendMs],
      bare: ['nodemailer bare send (baseline)', bareSendMs],
    });
  } finally {
    await handle?.close();
    await catcher.stop();
    await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
}

const TARGET = 0.8;
const SEND_ROUNDS = 10;

function report(
  title: string,
  { ours, bare }: { ours: [string, number]; bare: [string, number] },
): void {
  const speed = bare[1] / ours[1];
  console.log(`\n${title}`);
  console.log(`  ${ours[0].padEnd(36)}: ${formatMs(ours[1])} per operation`);
  console.log(`  ${bare[0].padEnd(36)}: ${formatMs(bare[1])} per operation`);
  console.log(
    `  ratio (bare / ours)                 : ${ratio(bare[1], ours[1])}× (target ≥ ${TARGET}): ${verdict(speed >= TARGET)}`,
  );
}

/**
 * A statement mail as a bank or a KYC provider sends it: layout tables, inline styles, a table
 * of line items, 40 placeholders (36 fields and the 4 of each item), with a schema that gives
 * examples so the sample data reads like a real mail.
 */
async function insertTemplate(handle: DatabaseHandle): Promise<void> {
  const fields = [
    'customerName',
    'customerEmail',
    'customerId',
    'companyName',
    'companyAddress',
    'companyCity',
    'companyPostcode',
    'companyCountry',
    'caseId',
    'caseType',
    'caseOpened',
    'caseClosed',
    'reviewer',
    'reviewerEmail',
    'riskLevel',
    'riskScore',
    'nextReview',
    'jurisdiction',
    'documentType',
    'documentNumber',
    'documentExpiry',
    'addressLine1',
    'addressLine2',
    'city',
    'postcode',
    'country',
    'phone',
    'portalUrl',
    'supportEmail',
    'supportPhone',
    'unsubscribeUrl',
    'privacyUrl',
    'year',
    'reference',
    'amountDue',
    'currency',
  ];
  const itemFields = ['label', 'status', 'checkedAt', 'note'];
  const rows = fields
    .map(
      (field) =>
        `<tr><td style="padding:4px 8px;color:#6b7280;font-size:13px">${field}</td><td style="padding:4px 8px;font-size:13px"><strong>{{${field}}}</strong></td></tr>`,
    )
    .join('\n');
  const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>a{color:#0b5cff}</style></head>
<body style="margin:0;background:#f4f5f7;font-family:Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="600" style="background:#fff;border-radius:6px">
<tr><td style="padding:24px"><h1 style="font-size:20px">Hello {{customerName}},</h1>
<p>Here is the statement of your verification case.</p>
<table width="100%" cellpadding="0" cellspacing="0">${rows}</table>
<h2 style="font-size:16px">Checks</h2>
<table width="100%">{{#each items}}<tr><td>{{this.label}}</td><td>{{this.status}}</td><td>{{this.checkedAt}}</td><td>{{this.note}}</td></tr>{{/each}}</table>
<p><a href="{{portalUrl}}">Open the portal</a></p></td></tr>
<tr><td style="padding:12px;font-size:12px;color:#6b7280">© {{year}} {{companyName}} · <a href="{{unsubscribeUrl}}">Unsubscribe</a></td></tr>
</table></td></tr></table></body></html>`;
  const properties: Record<string, unknown> = Object.fromEntries(
    fields.map((field) => [field, { type: 'string', examples: [`${field} & <value>`] }]),
  );
  properties.items = {
    type: 'array',
    minItems: 5,
    items: {
      type: 'object',
      properties: Object.fromEntries(itemFields.map((field) => [field, { type: 'string' }])),
    },
  };
  const stamp = { created_by: 'bench', updated_by: 'bench', updated_at: new Date() };
  const { id } = await handle.db
    .insertInto('email_templates')
    .values({ template_key: 'kyc-statement', product_type: 2, product_scope: 0, ...stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  const version = await handle.db
    .insertInto('email_template_versions')
    .values({
      email_template_id: id,
      version_number: 1,
      from_address: 'Compliance <no-reply@bench.example>',
      subject: 'Statement {{reference}} for {{customerName}}',
      body,
      text_content: `Hello {{customerName}},\n\n${fields.map((f) => `${f}: {{${f}}}`).join('\n')}\n\n{{#each items}}- {{this.label}}: {{this.status}}\n{{/each}}`,
      json_schema: JSON.stringify({ type: 'object', properties }),
      ...stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db
    .updateTable('email_templates')
    .set({ active_version_id: version.id })
    .where('id', '=', id)
    .execute();
}
