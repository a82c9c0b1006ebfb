import { connect, type Socket } from 'node:net';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmtpCatcher } from './smtp-catcher.ts';

/** A message with a multipart/alternative inside a multipart/mixed, quoted-printable and base64. */
const NESTED_MULTIPART = [
  'Subject: =?UTF-8?B?SMOpbGxv?=',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/alternative;',
  ' boundary=inner',
  '',
  '--inner',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'caf=C3=A9 and a soft=',
  ' break',
  '--inner',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('<b>café</b>').toString('base64'),
  '--inner--',
  '--outer--',
].join('\r\n');

/** A raw SMTP conversation: send a line, read the reply. */
async function converse(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  const nextReply = async () => {
    for (let waited = 0; waited < 5000; waited += 5) {
      // A complete reply ends with a line "NNN text" (not "NNN-text").
      const match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(received);
      if (match) {
        const reply = received;
        received = '';
        return reply.trim();
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`No reply; received so far: ${received}`);
  };
  const greeting = await nextReply();
  return {
    greeting,
    async send(line: string) {
      socket.write(`${line}\r\n`);
      return nextReply();
    },
    close: () => socket.destroy(),
  };
}

describe('SmtpCatcher', () => {
  const catcher = new SmtpCatcher({ maxMessages: 3 });
  let port = 0;
  beforeAll(async () => {
    port = await catcher.start(0);
  });
  afterEach(() => catcher.clear());
  afterAll(async () => {
    await catcher.stop();
  });

  it('receives what nodemailer sends, with its text and HTML parts decoded', async () => {
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}` });
    const longLine = `${'x'.repeat(100)} déjà vu`;
    await transport.sendMail({
      from: 'Console <no-reply@console.example>',
      to: 'New User <new.user@acme.example>',
      cc: 'copy@acme.example',
      subject: 'Willkommen bei Müller & Söhne',
      text: `Hello,\n.a line starting with a dot\n${longLine}\n`,
      html: '<p>Hello <strong>Müller</strong></p>',
    });
    transport.close();
    const [mail] = catcher.messages();
    expect(mail).toMatchObject({
      id: expect.any(Number),
      from: 'no-reply@console.example',
      to: ['new.user@acme.example', 'copy@acme.example'],
      subject: 'Willkommen bei Müller & Söhne',
      html: '<p>Hello <strong>Müller</strong></p>',
    });
    expect(mail?.text).toBe(`Hello,\n.a line starting with a dot\n${longLine}\n`);
    expect(mail?.headers.to).toBe('New User <new.user@acme.example>');
    expect(mail?.raw).toContain('Subject:');
  });

  it('takes a raw SMTP conversation, reads nested multiparts and refuses oversized messages', async () => {
    const small = new SmtpCatcher({ maxMessageBytes: 2048 });
    const smallPort = await small.start(0);
    const session = await converse(smallPort);
    expect(session.greeting).toMatch(/^220 console-smtp-catcher /);
    expect(await session.send('EHLO tester')).toMatch(/250 SIZE 2048/);
    expect(await session.send('STARTTLS')).toMatch(/^5\d\d /);
    expect(await session.send('MAIL FROM:<a@b.example>')).toMatch(/^250 /);
    expect(await session.send('RCPT TO:<x@y.example>')).toMatch(/^250 /);
    expect(await session.send('DATA')).toMatch(/^354 /);
    expect(await session.send(`${NESTED_MULTIPART}\r\n.`)).toMatch(/^250 .*queued as \d+$/);
    expect(await session.send('MAIL FROM:<a@b.example>')).toMatch(/^250 /);
    expect(await session.send('RCPT TO:<x@y.example>')).toMatch(/^250 /);
    expect(await session.send('DATA')).toMatch(/^354 /);
    expect(await session.send(`Subject: big\r\n\r\n${'y'.repeat(4096)}\r\n.`)).toMatch(/^552 /);
    expect(await session.send('QUIT')).toMatch(/^221 /);
    session.close();
    await small.stop();
    const [mail, ...others] = small.messages();
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      from: 'a@b.example',
      to: ['x@y.example'],
      subject: 'Héllo',
      text: 'café and a soft break',
      html: '<b>café</b>',
    });
    expect(mail?.headers.subject).toBe('=?UTF-8?B?SMOpbGxv?=');
  });

  it('keeps the newest messages only, and waits for mail', async () => {
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${port}` });
    const waiting = catcher.waitFor((messages) => messages.some((m) => m.subject === 'Mail 4'));
    for (const n of [1, 2, 3, 4]) {
      await transport.sendMail({
        from: 'a@b.example',
        to: 'c@d.example',
        subject: `Mail ${n}`,
        text: 'x',
      });
    }
    transport.close();
    expect((await waiting).map((mail) => mail.subject)).toEqual(['Mail 2', 'Mail 3', 'Mail 4']);
    await expect(catcher.waitFor(() => false, 50)).rejects.toThrow('No matching mail within 50 ms');
  });

  it('refuses connections once stopped, and receives again when restarted', async () => {
    const other = new SmtpCatcher();
    const otherPort = await other.start(0);
    expect(other.port).toBe(otherPort);
    await other.stop();
    expect(other.isRunning).toBe(false);
    const transport = nodemailer.createTransport({ url: `smtp://127.0.0.1:${otherPort}` });
    await expect(
      transport.sendMail({ from: 'a@b.example', to: 'c@d.example', subject: 's', text: 't' }),
    ).rejects.toThrow(/ECONNREFUSED/);
    await other.start(otherPort);
    await transport.sendMail({ from: 'a@b.example', to: 'c@d.example', subject: 's', text: 't' });
    transport.close();
    expect(other.messages()).toHaveLength(1);
    await other.stop();
  });
});
