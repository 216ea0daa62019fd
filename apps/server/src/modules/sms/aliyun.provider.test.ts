import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config';
import type { Db } from '../../db/client';
import { systemClock } from '../../lib/clock';
import { aliyunSmsProvider, smsProviderFromConfig } from './aliyun.provider';
import { outboxProvider } from './sms.provider';

const ACCESS_KEY_ID = 'LTAI5tTestKeyId';
const ACCESS_KEY_SECRET = 'test-secret-of-the-gateway';

interface GatewayRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** the ACS3-HMAC-SHA256 signature, recomputed here from the request and the secret */
  signatureValid: boolean;
}

/**
 * Plays the 阿里云短信 gateway on a loopback port: checks each request's ACS3-HMAC-SHA256 signature as the
 * gateway does (canonical request → SHA-256 → HMAC with the AccessKey secret), answering 400
 * SignatureDoesNotMatch when it does not verify, and otherwise the next queued answer (by default `OK`).
 */
async function startGateway() {
  const requests: GatewayRequest[] = [];
  const answers: { status: number; body: object }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://gateway');
      const query = Object.fromEntries(url.searchParams);
      const signatureValid = verifyAcs3(req, url, Buffer.concat(chunks));
      requests.push({ method: req.method!, path: url.pathname, query, headers: req.headers, signatureValid });
      const answer = !signatureValid
        ? { status: 400, body: { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.', RequestId: 'REQ-SIG' } }
        : (answers.shift() ?? { status: 200, body: { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: `REQ-${requests.length}` } });
      res.writeHead(answer.status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, requests, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Aliyun's V3 request signature, computed from what arrived (not from the SDK's code). */
function verifyAcs3(req: http.IncomingMessage, url: URL, body: Buffer): boolean {
  const match = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
  if (!match || match[1] !== ACCESS_KEY_ID) return false;
  const payloadHash = createHash('sha256').update(body).digest('hex');
  if (req.headers['x-acs-content-sha256'] !== payloadHash) return false;
  const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonicalQuery = [...url.searchParams.keys()]
    .sort()
    .map((key) => `${encode(key)}=${encode(url.searchParams.get(key)!)}`)
    .join('&');
  const signedHeaders = match[2]!.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-acs-date') || !signedHeaders.includes('x-acs-signature-nonce')) return false;
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`).join('');
  const canonicalRequest = [req.method, url.pathname, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), payloadHash].join('\n');
  const stringToSign = `ACS3-HMAC-SHA256\n${createHash('sha256').update(canonicalRequest).digest('hex')}`;
  return createHmac('sha256', ACCESS_KEY_SECRET).update(stringToSign).digest('hex') === match[3];
}

describe('阿里云短信 provider (against a local gateway)', () => {
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let settings: Config['aliyunSms'];
  // the provider never touches the database: the gateway is its only peer
  const db = null as unknown as Db;
  beforeAll(async () => {
    gateway = await startGateway();
  });
  afterAll(async () => gateway?.close());
  beforeEach(() => {
    gateway.requests.length = 0;
    gateway.answers.length = 0;
    settings = { accessKeyId: ACCESS_KEY_ID, accessKeySecret: ACCESS_KEY_SECRET, signName: 'CoalX', templateCode: 'SMS_468790001', endpoint: gateway.endpoint };
  });

  it('sends SendSms with the number, sign, template and the text (without its sign) as `content`, signed', async () => {
    const provider = aliyunSmsProvider(settings);
    expect(provider.name).toBe('aliyun');
    await provider.send(db, systemClock, { mobile: '13800138000', scene: 'notice', content: '【CoalX】合同HT2026112800012待签署，请于11月29日17:00前签署' });
    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request!.signatureValid).toBe(true);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/');
    expect(request!.headers['x-acs-action']).toBe('SendSms');
    expect(request!.headers['x-acs-version']).toBe('2017-05-25');
    expect(request!.query).toMatchObject({ PhoneNumbers: '13800138000', SignName: 'CoalX', TemplateCode: 'SMS_468790001' });
    expect(JSON.parse(request!.query.TemplateParam!)).toEqual({ content: '合同HT2026112800012待签署，请于11月29日17:00前签署' });
  });

  it('an answer whose Code is not OK becomes a Chinese error with the gateway’s Code and Message', async () => {
    const provider = aliyunSmsProvider(settings);
    gateway.answers.push({ status: 200, body: { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发小时级流控Permits:5', RequestId: 'REQ-LIMIT' } });
    await expect(provider.send(db, systemClock, { mobile: '13800138000', scene: 'notice', content: '【CoalX】测试' })).rejects.toThrow(
      '阿里云短信发送失败: isv.BUSINESS_LIMIT_CONTROL 触发小时级流控Permits:5 (RequestId REQ-LIMIT)',
    );
  });

  it('a refused request (wrong secret: the signature does not verify) becomes a Chinese error too', async () => {
    const provider = aliyunSmsProvider({ ...settings, accessKeySecret: 'not-the-secret' });
    await expect(provider.send(db, systemClock, { mobile: '13800138000', scene: 'notice', content: '【CoalX】测试' })).rejects.toThrow(
      '阿里云短信网关拒绝请求 (HTTP 400): SignatureDoesNotMatch Specified signature is not matched with our calculation. (RequestId REQ-SIG)',
    );
    expect(gateway.requests.map((r) => r.signatureValid)).toEqual([false]);
  });

  it('a gateway that cannot be reached fails the send', async () => {
    const closed = await startGateway();
    await closed.close();
    const provider = aliyunSmsProvider({ ...settings, endpoint: closed.endpoint });
    await expect(provider.send(db, systemClock, { mobile: '13800138000', scene: 'notice', content: '测试' })).rejects.toThrow(/^阿里云短信网关请求失败: /);
  });

  it('refuses to start without its keys, sign and template', () => {
    expect(() => aliyunSmsProvider({ ...settings, accessKeySecret: '', templateCode: '' })).toThrow('SMS_PROVIDER=aliyun 需要设置 ALIYUN_SMS_ACCESS_KEY_SECRET、ALIYUN_SMS_TEMPLATE_CODE');
    expect(() => aliyunSmsProvider({ ...settings, endpoint: 'ftp://x/y' })).toThrow('ALIYUN_SMS_ENDPOINT 无效');
  });

  it('smsProviderFromConfig: the outbox by default, 阿里云 with SMS_PROVIDER=aliyun', () => {
    expect(smsProviderFromConfig(loadConfig({}))).toBe(outboxProvider);
    const aliyun = smsProviderFromConfig(
      loadConfig({
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: ACCESS_KEY_ID,
        ALIYUN_SMS_ACCESS_KEY_SECRET: ACCESS_KEY_SECRET,
        ALIYUN_SMS_TEMPLATE_CODE: 'SMS_468790001',
      }),
    );
    expect(aliyun.name).toBe('aliyun');
  });
});
