import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, mailHtml } from './email';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp';

const FROM = 'CoalX 煤炭现货交易平台 <noreply@coalx.example>';

describe('e-mail through SMTP (a real server in-process)', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp?.close());

  it('delivers the subject, the text and an HTML part, Chinese intact, from MAIL_FROM', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM });
    const link = 'http://localhost:8080/contract/detail?id=HT2026112800012&tab=sign';
    const text = `您有一份合同待签署：HT2026112800012（动力煤 5500 大卡，3,000 吨）。\n请于 2026-11-29 17:00 前完成签署。\n\n办理地址：${link}`;
    try {
      await mailer.send({ to: 'buyer@example.com', subject: '【CoalX】待签署合同 HT2026112800012', text });
    } finally {
      mailer.close();
    }
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.envelopeFrom).toBe('noreply@coalx.example');
    expect(mail!.envelopeTo).toEqual(['buyer@example.com']);
    expect(mail!.parsed.from?.value).toEqual([{ address: 'noreply@coalx.example', name: 'CoalX 煤炭现货交易平台' }]);
    expect(mail!.parsed.subject).toBe('【CoalX】待签署合同 HT2026112800012');
    expect(mail!.parsed.text?.trim()).toBe(text);
    const html = mail!.parsed.html as string;
    expect(html).toContain('<h1 style="font-size:18px;margin:0 0 16px">【CoalX】待签署合同 HT2026112800012</h1>');
    expect(html).toContain(`<a href="${link.replace('&', '&amp;')}"`);
    expect(html).toContain('请于 2026-11-29 17:00 前完成签署。');
    // the headers went out encoded (RFC 2047), not as raw 8-bit
    expect(mail!.parsed.headerLines.find((h) => h.key === 'subject')!.line).toMatch(/^Subject: =\?UTF-8\?/i);
  });

  it('a wrong login is refused with the server’s answer', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url.replace('smtp-secret', 'wrong'), from: FROM });
    try {
      await expect(mailer.send({ to: 'buyer@example.com', subject: '测试', text: '测试' })).rejects.toThrow(/535/);
    } finally {
      mailer.close();
    }
  });
});

describe('mailHtml', () => {
  it('escapes the text and links only http(s) addresses', () => {
    const html = mailHtml('<b>标题</b>', '备注 <script>alert(1)</script> & "引号"\n详见 https://coalx.example/a?b=1&c=<2>，谢谢\njavascript:alert(1)');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;b&gt;标题&lt;/b&gt;');
    expect(html).toContain('备注 &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;引号&quot;<br>');
    expect(html).toContain('<a href="https://coalx.example/a?b=1&amp;c=" style="color:#1677ff">https://coalx.example/a?b=1&amp;c=</a>&lt;2&gt;，谢谢');
    expect(html).not.toContain('href="javascript');
  });
});
