import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL server; when empty the embedded PGlite in DATA_DIR/pglite is used. */
  databaseUrl: string | null;
  demoData: boolean;
  webDist: string;
  logLevel: string;
  /** Sign-in attempts allowed per address per minute. */
  loginRateLimit: number;
  /** Bids one signed-in user may send per second (a person cannot click faster; a script may not flood). */
  bidRateLimit: number;
  /** How long public home-page reads are cached in memory (0: not at all). */
  publicCacheMs: number;
  /** How often the scheduler moves trade states (0: never, tests drive it themselves). */
  schedulerIntervalMs: number;
  /** The platform CA's certificate and PKCS#8 key (PEM); empty: made once in DATA_DIR/ca (PGlite) or the database (PostgreSQL). */
  caCertFile: string | null;
  caKeyFile: string | null;
  /** Encrypts the CA key the database holds on PostgreSQL (when no CA files are named); never logged. */
  caKeyPassphrase: string | null;
  /** The RFC 3161 time-stamping authority that seals the audit chain's head once a day; empty: no sealing. */
  tsaUrl: string | null;
  /** The TSA's CA certificate (PEM): `npm run audit:verify` checks the timestamp signatures with it. */
  tsaCaFile: string | null;
  /** The Asia/Shanghai hour (0–23) from which the day's seal is made. */
  auditSealHour: number;
  /** The key signing short-lived private-file links (lib/file-links.ts); empty: made once in DATA_DIR/secrets (PGlite) or the database (PostgreSQL). */
  fileLinkKeyFile: string | null;
  /** The address people open the platform at: links in e-mail and webhook bodies start with it. */
  publicUrl: string;
  /** How often SMS, e-mail and webhook deliveries due are sent (0: never, tests drive them). */
  deliveryIntervalMs: number;
  /** Which SMS gateway carries the text messages: the back office's outbox, or 阿里云短信 (README "消息通知"). */
  smsProvider: 'outbox' | 'aliyun';
  aliyunSms: { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string; endpoint: string };
  /** The SMTP server e-mail goes through (smtp://user:pass@host:port, smtps:// for TLS); empty: no e-mail is sent. */
  smtpUrl: string | null;
  mailFrom: string;
  /** On SIGTERM, how long /trade-api/ready answers 503 before the listener closes (a load balancer's check interval). */
  drainDelayMs: number;
  /** The bearer token Prometheus sends to /metrics; empty: /metrics answers the machine and private networks only. */
  metricsToken: string | null;
  /** Webhook endpoints on private addresses (loopback, 10/8, 172.16/12, 192.168/16, link-local) are refused unless set. */
  webhookAllowPrivate: boolean;
}

/** Reads the configuration from the environment (README "Configuration"). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT 无效: ${env.PORT}`);
  const auditSealHour = Number(env.AUDIT_SEAL_HOUR || 0);
  if (!Number.isInteger(auditSealHour) || auditSealHour < 0 || auditSealHour > 23) throw new Error(`AUDIT_SEAL_HOUR 无效 (0–23): ${env.AUDIT_SEAL_HOUR}`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    databaseUrl,
    // demo data by default on the embedded database only; a server needs DEMO_DATA=1 (DESIGN.md §7)
    demoData: env.DEMO_DATA === undefined || env.DEMO_DATA === '' ? !databaseUrl : env.DEMO_DATA === '1',
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    logLevel: env.LOG_LEVEL ?? 'info',
    loginRateLimit: Number(env.LOGIN_RATE_LIMIT ?? 30),
    bidRateLimit: Number(env.BID_RATE_LIMIT ?? 10),
    publicCacheMs: Number(env.PUBLIC_CACHE_MS ?? 2000),
    schedulerIntervalMs: Number(env.SCHEDULER_INTERVAL_MS ?? 1000),
    caCertFile: env.CA_CERT_FILE?.trim() ? path.resolve(env.CA_CERT_FILE) : null,
    caKeyFile: env.CA_KEY_FILE?.trim() ? path.resolve(env.CA_KEY_FILE) : null,
    caKeyPassphrase: env.CA_KEY_PASSPHRASE || null,
    tsaUrl: env.TSA_URL?.trim() || null,
    tsaCaFile: env.TSA_CA_FILE?.trim() ? path.resolve(env.TSA_CA_FILE) : null,
    auditSealHour,
    fileLinkKeyFile: env.FILE_LINK_KEY_FILE?.trim() ? path.resolve(env.FILE_LINK_KEY_FILE) : null,
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ''),
    deliveryIntervalMs: Number(env.DELIVERY_INTERVAL_MS ?? 1000),
    smsProvider: smsProviderOf(env.SMS_PROVIDER),
    aliyunSms: {
      accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID?.trim() ?? '',
      accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET?.trim() ?? '',
      signName: env.ALIYUN_SMS_SIGN_NAME?.trim() || 'CoalX',
      templateCode: env.ALIYUN_SMS_TEMPLATE_CODE?.trim() ?? '',
      endpoint: env.ALIYUN_SMS_ENDPOINT?.trim() || 'dysmsapi.aliyuncs.com',
    },
    smtpUrl: env.SMTP_URL?.trim() || null,
    mailFrom: env.MAIL_FROM?.trim() || 'CoalX 煤炭现货交易平台 <noreply@coalx.example>',
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    drainDelayMs: Math.min(5_000, Math.max(0, Number(env.DRAIN_DELAY_MS ?? 1_000) || 0)),
  };
}

function smsProviderOf(value: string | undefined): Config['smsProvider'] {
  const provider = value?.trim() || 'outbox';
  if (provider !== 'outbox' && provider !== 'aliyun') throw new Error(`SMS_PROVIDER 无效 (outbox 或 aliyun): ${value}`);
  return provider;
}

export const MIGRATIONS_DIR = path.join(repoRoot, 'apps/server/migrations');
