import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail the sink received, parsed (mailparser): bodies decoded, so links read as sent. */
export interface Received {
  from: string;
  /** The envelope's recipients (RCPT TO), as bare addresses. */
  to: string[];
  subject: string;
  text: string;
  /** The HTML body, or '' when the mail had none. */
  html: string;
}

export interface SmtpSink {
  /** Closes the listener (for `await new Promise((r) => smtp.server.close(r))`). */
  server: { close(callback: (...args: unknown[]) => void): void };
  port: number;
  inbox: Received[];
  /** The mails to an address so far (with this subject, when given). */
  mailsTo(email: string, subject?: string): Received[];
  /** Waits (up to 10 s) until `count` mails to the address (with this subject, when given) have arrived; returns them all. */
  waitFor(email: string, count?: number, subject?: string): Promise<Received[]>;
}

/**
 * A local SMTP sink for tests (the `smtp-server` package, no TLS: its built-in STARTTLS
 * certificate has expired, /work/shared/NOTES.md), each mail parsed with mailparser.
 */
export function smtpServer(): Promise<SmtpSink> {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
      simpleParser(stream).then(
        (mail) => {
          inbox.push({ from: mail.from?.text ?? '', to, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '' });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const mailsTo = (email: string, subject?: string) =>
    inbox.filter((mail) => mail.to.includes(email.toLowerCase()) && (subject === undefined || mail.subject === subject));
  async function waitFor(email: string, count = 1, subject?: string): Promise<Received[]> {
    const deadline = Date.now() + 10_000;
    while (mailsTo(email, subject).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return mailsTo(email, subject);
  }
  return new Promise((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => {
      const port = (smtp.server.address() as AddressInfo).port;
      resolve({ server: { close: (callback) => smtp.close(() => callback()) }, port, inbox, mailsTo, waitFor });
    });
  });
}
