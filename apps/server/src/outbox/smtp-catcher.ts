import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/**
 * A development SMTP server that keeps what it receives in memory instead of delivering it, so
 * that the console's mail can be read on a fresh machine and in tests (docs/events.md). The SMTP
 * dialogue is smtp-server's and the MIME parsing mailparser's; this class only keeps the
 * messages. No TLS, no authentication: it listens on 127.0.0.1 only.
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
  /** Top-level headers as sent (unfolded, not decoded), names lower-cased. */
  headers: Record<string, string>;
  receivedAt: string;
  /** The message as received. */
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

/** How long stop() lets an open conversation finish before it is cut. */
const CLOSE_TIMEOUT_MS = 100;

export class SmtpCatcher {
  private readonly hostname: string;
  private readonly maxMessages: number;
  private readonly maxMessageBytes: number;
  private readonly caught: CaughtMail[] = [];
  private readonly waiters = new Set<() => void>();
  private server: SMTPServer | undefined;
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
    const server = new SMTPServer({
      name: this.hostname,
      banner: 'console mail catcher (messages are kept, not delivered)',
      size: this.maxMessageBytes,
      authOptional: true,
      // Local mail only: asking DNS who 127.0.0.1 is would only add waits.
      disableReverseLookup: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      closeTimeout: CLOSE_TIMEOUT_MS,
      logger: false,
      onData: (stream, session, callback) => {
        this.receive(stream, session).then(
          (id) => callback(null, `OK queued as ${id}`),
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // A connection that breaks off is the client's business, not a reason to stop catching.
    server.on('error', () => {});
    this.boundPort = (server.server.address() as AddressInfo).port;
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

  /** Stops listening and ends open connections; caught messages are kept. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
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
        if (!predicate(messages)) return;
        cleanup();
        resolve(messages);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No matching mail within ${timeoutMs} ms (${this.caught.length} caught)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    if (stream.sizeExceeded) {
      throw Object.assign(new Error('Message exceeds the fixed maximum message size'), {
        responseCode: 552,
      });
    }
    const raw = Buffer.concat(chunks);
    // Loaded with the first mail, not with the server: mailparser takes a quarter of a second to
    // load, a tenth of a restart (docs/architecture.md, "Build and run").
    const { simpleParser } = await import('mailparser');
    const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true });
    const id = this.nextId++;
    this.caught.push({
      id,
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      to: session.envelope.rcptTo.map((recipient) => recipient.address),
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : null,
      headers: rawHeaders(parsed.headerLines),
      receivedAt: new Date().toISOString(),
      raw: raw.toString('utf8'),
    });
    if (this.caught.length > this.maxMessages) this.caught.shift();
    for (const waiter of [...this.waiters]) waiter();
    return id;
  }
}

/** Header values as sent, after unfolding ("To: New User <a@b>" → "New User <a@b>"). */
function rawHeaders(lines: readonly { key: string; line: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of lines) {
    headers[key] = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
  }
  return headers;
}
