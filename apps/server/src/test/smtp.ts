import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string;
  received: ReceivedMail[];
  /** recipients refused by onRcptTo so far (every try of a refusing server) */
  refused: string[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free loopback port (the `smtp-server` package), receiving what nodemailer sends: it asks
 * for the login in the URL (plain AUTH without TLS is allowed on loopback) and parses each message with mailparser.
 * `refuse` answers every RCPT TO with a permanent 550, as a server that will not take the address.
 */
export async function startSmtpServer(options: { refuse?: boolean } = {}): Promise<TestSmtpServer> {
  const user = 'coalx';
  const pass = 'smtp-secret';
  const received: ReceivedMail[] = [];
  const refused: string[] = [];
  const serverOptions: SMTPServerOptions = {
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error('535 认证失败'));
    },
    onRcptTo(address, _session, callback) {
      if (!options.refuse) return callback();
      refused.push(address.address);
      const err = new Error('mailbox unavailable') as Error & { responseCode: number };
      err.responseCode = 550;
      callback(err);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            parsed,
          });
          callback();
        })
        .catch(callback);
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    received,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
