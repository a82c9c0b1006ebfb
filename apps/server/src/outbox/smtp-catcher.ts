import { createServer, type Server, type Socket } from 'node:net';

/**
 * A development SMTP server that keeps what it receives in memory instead of delivering it, so
 * that the console's mail can be read on a fresh machine and in tests (docs/events.md). It speaks
 * the small subset of SMTP a client such as nodemailer needs: HELO/EHLO, MAIL FROM, RCPT TO,
 * DATA, RSET, NOOP, VRFY, QUIT. No TLS, no authentication: it listens on 127.0.0.1 only.
 */

export interface CaughtMail {
  /** 1, 2, 3, ... in order of arrival. */
  id: number;
  /** The envelope: MAIL FROM and RCPT TO addresses. */
  from: string;
  to: string[];
  subject: string;
  /** The text/plain part (decoded), or '' when there is none. */
  text: string;
  /** The text/html part (decoded), or null. */
  html: string | null;
  /** Top-level headers, names lower-cased (the last one wins when repeated). */
  headers: Record<string, string>;
  receivedAt: string;
  /** The message as received (after dot-unstuffing). */
  raw: string;
}

export interface SmtpCatcherOptions {
  /** Name in the greeting. */
  hostname?: string;
  /** Oldest messages are dropped past this many (default 1000). */
  maxMessages?: number;
  /** Larger messages are refused with 552 (default 10 MB). */
  maxMessageBytes?: number;
}

const LINE_MAX = 64 * 1024;
const IDLE_TIMEOUT_MS = 60_000;

export class SmtpCatcher {
  private readonly hostname: string;
  private readonly maxMessages: number;
  private readonly maxMessageBytes: number;
  private readonly caught: CaughtMail[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();
  private server: Server | undefined;
  private nextId = 1;
  private boundPort: number | undefined;

  constructor(options: SmtpCatcherOptions = {}) {
    this.hostname = options.hostname ?? 'console-smtp-catcher';
    this.maxMessages = options.maxMessages ?? 1000;
    this.maxMessageBytes = options.maxMessageBytes ?? 10 * 1024 * 1024;
  }

  /** Listens on host:port (port 0: any free port); answers the port. */
  async start(port: number, host = '127.0.0.1'): Promise<number> {
    if (this.server) throw new Error('The SMTP catcher is running already');
    const server = createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    this.boundPort = typeof address === 'object' && address ? address.port : port;
    this.server = server;
    return this.boundPort;
  }

  /** The port it listens on, while it runs. */
  get port(): number | undefined {
    return this.server ? this.boundPort : undefined;
  }

  get isRunning(): boolean {
    return this.server !== undefined;
  }

  /** Stops listening and drops open connections; caught messages are kept. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Every message kept, oldest first. */
  messages(): CaughtMail[] {
    return [...this.caught];
  }

  clear(): void {
    this.caught.length = 0;
  }

  /**
   * Resolves with the messages once `predicate` holds for them (default: at least one message);
   * rejects after `timeoutMs`.
   */
  waitFor(
    predicate: (messages: CaughtMail[]) => boolean = (messages) => messages.length > 0,
    timeoutMs = 10_000,
  ): Promise<CaughtMail[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const messages = this.messages();
        if (!predicate(messages)) return false;
        cleanup();
        resolve(messages);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No matching mail within ${timeoutMs} ms (${this.caught.length} caught)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter = () => void check();
      this.waiters.add(waiter);
      check();
    });
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.setEncoding('utf8');
    socket.setTimeout(IDLE_TIMEOUT_MS, () => {
      reply('421 4.4.2 Idle for too long, closing connection');
      socket.end();
    });
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());

    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    let greeted = false;
    let from: string | undefined;
    let to: string[] = [];
    let data: string[] | undefined;
    let dataBytes = 0;
    let buffer = '';

    const resetTransaction = () => {
      from = undefined;
      to = [];
      data = undefined;
      dataBytes = 0;
    };

    const onLine = (line: string) => {
      if (data) {
        if (line === '.') {
          const tooBig = dataBytes > this.maxMessageBytes;
          if (tooBig) reply('552 5.3.4 Message too big');
          else reply(`250 2.0.0 OK queued as ${this.keep(from ?? '', to, data.join('\r\n'))}`);
          resetTransaction();
          return;
        }
        // Dot-stuffing (RFC 5321, 4.5.2): a line that starts with '.' arrives with one more.
        const text = line.startsWith('.') ? line.slice(1) : line;
        dataBytes += Buffer.byteLength(text) + 2;
        if (dataBytes <= this.maxMessageBytes) data.push(text);
        return;
      }
      const [verb = '', ...rest] = line.split(' ');
      const argument = rest.join(' ').trim();
      switch (verb.toUpperCase()) {
        case 'HELO':
          greeted = true;
          resetTransaction();
          return reply(`250 ${this.hostname}`);
        case 'EHLO':
          greeted = true;
          resetTransaction();
          return reply(
            [
              `250-${this.hostname}`,
              '250-8BITMIME',
              '250-SMTPUTF8',
              `250 SIZE ${this.maxMessageBytes}`,
            ].join('\r\n'),
          );
        case 'MAIL': {
          if (!greeted) return reply('503 5.5.1 Error: send HELO/EHLO first');
          const address = /^FROM:\s*<([^>]*)>/i.exec(argument);
          if (!address) return reply('501 5.5.4 Syntax: MAIL FROM:<address>');
          resetTransaction();
          from = address[1] ?? '';
          return reply('250 2.1.0 OK');
        }
        case 'RCPT': {
          if (from === undefined) return reply('503 5.5.1 Error: need MAIL command');
          const address = /^TO:\s*<([^>]+)>/i.exec(argument);
          if (!address?.[1]) return reply('501 5.5.4 Syntax: RCPT TO:<address>');
          to.push(address[1]);
          return reply('250 2.1.5 OK');
        }
        case 'DATA':
          if (to.length === 0) return reply('503 5.5.1 Error: need RCPT command');
          data = [];
          return reply('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          resetTransaction();
          return reply('250 2.0.0 OK');
        case 'NOOP':
          return reply('250 2.0.0 OK');
        case 'VRFY':
          return reply('252 2.0.0 Cannot verify, but will accept');
        case 'QUIT':
          reply('221 2.0.0 Bye');
          socket.end();
          return;
        default:
          return reply('502 5.5.2 Error: command not recognized');
      }
    };

    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, '');
        buffer = buffer.slice(end + 1);
        onLine(line);
      }
      if (buffer.length > LINE_MAX) {
        reply('500 5.5.0 Line too long');
        socket.destroy();
      }
    });
    reply(`220 ${this.hostname} ESMTP console mail catcher (messages are kept, not delivered)`);
  }

  private keep(from: string, to: string[], raw: string): number {
    const id = this.nextId++;
    const parsed = parseMessage(raw);
    this.caught.push({
      id,
      from,
      to: [...to],
      subject: decodeWords(parsed.headers.subject ?? ''),
      text: parsed.text ?? '',
      html: parsed.html ?? null,
      headers: parsed.headers,
      receivedAt: new Date().toISOString(),
      raw,
    });
    if (this.caught.length > this.maxMessages) this.caught.shift();
    for (const waiter of [...this.waiters]) waiter();
    return id;
  }
}

interface ParsedPart {
  headers: Record<string, string>;
  text?: string;
  html?: string;
}

/** Headers, and the first text/plain and text/html parts (through nested multiparts). */
export function parseMessage(raw: string): ParsedPart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split).replace(/^\r?\n\r?\n/, '') : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const contentType = headers['content-type'] ?? 'text/plain';
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    const result: ParsedPart = { headers };
    if (!boundary) return result;
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      const parsed = parseMessage(part.replace(/^\r?\n/, ''));
      result.text ??= parsed.text;
      result.html ??= parsed.html;
    }
    return result;
  }
  const decoded = decodeBody(body, headers['content-transfer-encoding']);
  if (type === 'text/html') return { headers, html: decoded };
  if (type === 'text/plain') return { headers, text: decoded };
  return { headers };
}

function decodeBody(body: string, encoding = '7bit'): string {
  const trimmed = body.replace(/\r?\n$/, '');
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(trimmed);
    default:
      return trimmed.replace(/\r\n/g, '\n');
  }
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
  for (let index = 0; index < source.length; index++) {
    const character = source[index] ?? '';
    const hex = source.slice(index + 1, index + 3);
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) of a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
