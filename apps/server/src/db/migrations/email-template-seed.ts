/**
 * The first version of the 'tenant-user-invitation' template, as migration 13 seeds it: the
 * invitation the notifications worker sent before templates existed. Kept here, frozen, because a
 * migration must insert the same rows whenever it runs.
 */
export const INVITATION_SEED = {
  templateKey: 'tenant-user-invitation',
  fromAddress: 'no-reply@example.com',
  subject: 'You are invited to the {{companyName}} portal',
  body: [
    '<p>Hello,</p>',
    '<p>You now have access to the <strong>{{companyName}}</strong> portal of the administration console.',
    'Sign in with this address ({{email}}):</p>',
    '<p><a href="{{signInUrl}}">{{signInUrl}}</a></p>',
    '<p>If you did not expect this invitation, you can ignore this message.</p>',
  ].join('\n'),
  textContent: [
    'Hello,',
    '',
    'You now have access to the {{companyName}} portal of the administration console.',
    'Sign in with this address ({{email}}) at:',
    '',
    '{{signInUrl}}',
    '',
    'If you did not expect this invitation, you can ignore this message.',
  ].join('\n'),
  jsonSchema: JSON.stringify(
    {
      type: 'object',
      required: ['email', 'companyName', 'signInUrl'],
      properties: {
        email: { type: 'string', format: 'email', examples: ['new.user@acme.example'] },
        companyName: { type: 'string', examples: ['Acme Corporation'] },
        signInUrl: { type: 'string', format: 'uri', examples: ['https://console.example/login'] },
      },
    },
    null,
    2,
  ),
} as const;
