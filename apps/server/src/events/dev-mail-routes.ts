import { z } from 'zod';
import type { ConsoleApp } from '../app.ts';
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
  app.get(
    '/api/dev/mail',
    {
      config: { allow: ['staff'] },
      schema: {
        tags,
        summary: 'Mail caught by the development SMTP catcher, oldest first',
        querystring: z.object({
          to: z.string().optional().describe('Only mail to this address (ignoring letter case)'),
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
}
