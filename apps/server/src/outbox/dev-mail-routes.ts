import { z } from 'zod';
import { EMAIL_MAX_LENGTH, text } from '@console/contracts';
import type { ConsoleApp } from '../http/console-app.ts';
import type { SmtpCatcher } from './smtp-catcher.ts';

const caughtMailSchema = z.object({
  id: z.number().int(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  receivedAt: z.string(),
});

/**
 * The mail the development SMTP catcher received, for staff (and end-to-end tests). Registered
 * only while the catcher runs, which is never in production (config.ts).
 */
export function registerDevMailRoutes(app: ConsoleApp, catcher: SmtpCatcher): void {
  const tags = ['development'];
  // The port it was started on: a stopped catcher starts there again.
  const port = catcher.port;
  app.get(
    '/api/dev/mail',
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Mail caught by the development SMTP catcher, oldest first',
        querystring: z.object({
          to: text({ name: 'to', max: EMAIL_MAX_LENGTH })
            .optional()
            .describe('Only mail to this address (ignoring letter case)'),
        }),
        response: { 200: z.object({ messages: z.array(caughtMailSchema) }) },
      },
    },
    async (request) => {
      const to = request.query.to?.trim().toLowerCase();
      const messages = catcher
        .messages()
        .filter((mail) => !to || mail.to.some((address) => address.toLowerCase() === to))
        .map(({ id, from, to: recipients, subject, text, html, receivedAt }) => ({
          id,
          from,
          to: recipients,
          subject,
          text,
          html,
          receivedAt,
        }));
      return { messages };
    },
  );
  app.delete(
    '/api/dev/mail',
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Forget the mail caught so far',
        response: { 204: z.null().describe('Cleared') },
      },
    },
    async (_request, reply) => {
      catcher.clear();
      return reply.code(204).send(null);
    },
  );

  // Stopping and starting the catcher lets tests (and developers) see how the console behaves
  // when the mail server is down: the notifications worker fails, and a reset sends the mail.
  const catcherStateSchema = z.object({
    running: z.boolean(),
    port: z.number().int().nullable().describe('Where it listens while it runs'),
  });
  /** A POST that changes the catcher's state, then answers it. */
  const catcherRoute = (url: string, summary: string, change: () => Promise<unknown>) =>
    app.post(
      url,
      {
        config: { allow: ['staff'] },
        schema: { tags, summary, response: { 200: catcherStateSchema } },
      },
      async () => {
        await change();
        return { running: catcher.isRunning, port: catcher.port ?? null };
      },
    );
  catcherRoute(
    '/api/dev/mail/catcher/stop',
    'Stop the SMTP catcher: mail then fails to send (caught mail is kept)',
    () => catcher.stop(),
  );
  catcherRoute(
    '/api/dev/mail/catcher/start',
    'Start the SMTP catcher again on its port',
    async () => {
      if (!catcher.isRunning && port !== undefined) await catcher.start(port);
    },
  );
}
