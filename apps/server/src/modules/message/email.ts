import { PRODUCT_TITLE } from '@coalx/shared';
import { createTransport } from 'nodemailer';

/** One e-mail of a message: the delivery row's subject and plain-text body (README "消息通知"). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail through the platform's SMTP server (SMTP_URL), from MAIL_FROM. */
export interface Mailer {
  readonly from: string;
  /** Resolves once the server accepted the message; rejects with the server's answer otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  /** Closes the pooled connections (app close). */
  close(): void;
}

/**
 * A nodemailer SMTP pool on `smtpUrl` (smtp://user:pass@host:587 upgrades with STARTTLS when the server offers it,
 * smtps://…:465 is TLS from the start). A few pooled connections carry a round's mail; the timeouts are short
 * enough that a server that hangs fails the try well within the worker's lease (delivery-worker.ts), and the row
 * is retried later.
 */
export function createMailer(options: { smtpUrl: string; from: string }): Mailer {
  const transport = createTransport(
    { url: options.smtpUrl, pool: true, maxConnections: 3, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from: options.from },
  );
  return {
    from: options.from,
    async send(mail) {
      await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mailHtml(mail.subject, mail.text) });
    },
    close() {
      transport.close();
    },
  };
}

const URL_PATTERN = /https?:\/\/[^\s<>"'，。；）]+/g;

/**
 * The HTML part: the same words as the text part, escaped, in a plain centred card, each address in the text a
 * link. Nothing is loaded from elsewhere (no images, no styles sheets): mail clients block them anyway.
 */
export function mailHtml(subject: string, text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p style="margin:0 0 12px">${block.split('\n').map(linkified).join('<br>')}</p>`)
    .join('\n');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif">
<div style="max-width:600px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;color:#1f1f1f;font-size:14px;line-height:1.7">
<div style="font-size:16px;font-weight:600;color:#1677ff;margin-bottom:16px">${escapeHtml(PRODUCT_TITLE)}</div>
<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(subject)}</h1>
${paragraphs}
<p style="margin:24px 0 0;color:#8c8c8c;font-size:12px">本邮件由系统自动发送，请勿直接回复。</p>
</div></body></html>`;
}

function linkified(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    html += escapeHtml(line.slice(last, match.index));
    const url = escapeHtml(match[0]);
    html += `<a href="${url}" style="color:#1677ff">${url}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(line.slice(last));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
