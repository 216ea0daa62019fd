/**
 * Seals of the audit chain: the chain head (last position and its hash) timestamped by an RFC 3161 time-stamping
 * authority (TSA_URL). What is timestamped is SHA-256 of the head hash's 64 hex characters, so that
 * `printf %s <head_hash> > head.txt; openssl ts -verify -data head.txt -in token.der -token_in -CAfile tsa-ca.pem`
 * checks a seal (README "审计链"). A token proves the chain up to that position existed at the TSA's time: rewriting
 * it afterwards, even with every hash recomputed, no longer matches the sealed head.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { shanghaiDate } from '../../lib/shanghai-time';
import { auditChainHead, chainAuditRows } from './audit-chain';

const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const PKI_STATUS_GRANTED = 0;
const PKI_STATUS_GRANTED_WITH_MODS = 1;
/** A TSA answers within seconds; a hung one must not hold the scheduler's round for long. */
const TSA_TIMEOUT_MS = 30_000;

export interface AuditSeal {
  id: number;
  sealedAt: Date;
  /** The Asia/Shanghai day of a daily seal; null for a seal made on demand. */
  dailyFor: string | null;
  chainSeq: number;
  headHash: string;
  tsaUrl: string;
  /** The DER TimeStampToken (a CMS SignedData) exactly as the TSA sent it. */
  token: Uint8Array;
}

function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The message imprint of a seal: SHA-256 over the head hash as text (64 lowercase hex characters). */
export function sealImprint(headHash: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(headHash, 'utf8').digest());
}

/** An RFC 3161 TimeStampReq: SHA-256 imprint, a nonce, and certReq so the token carries the TSA's certificate. */
export function timestampQuery(imprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: arrayBufferOf(imprint) }),
    }),
    nonce: new asn1js.Integer({ valueHex: arrayBufferOf(nonce) }),
    certReq: true,
  });
  return new Uint8Array(request.toSchema().toBER());
}

export interface TimestampInfo {
  genTime: Date;
  imprintAlgorithm: string;
  imprint: Uint8Array;
  nonce: Uint8Array | null;
  serialNumber: string;
}

/** The TSTInfo inside a token (parsing only; the signature is openssl's to check, see checkSealToken). */
export function readTimestampToken(token: Uint8Array): TimestampInfo {
  const content = pkijs.ContentInfo.fromBER(arrayBufferOf(token));
  if (content.contentType !== pkijs.ContentInfo.SIGNED_DATA) throw new Error('时间戳令牌不是 CMS SignedData');
  const signed = new pkijs.SignedData({ schema: content.content });
  const encapsulated = signed.encapContentInfo;
  if (encapsulated.eContentType !== OID_TST_INFO || !encapsulated.eContent) throw new Error('时间戳令牌不含 TSTInfo');
  const info = pkijs.TSTInfo.fromBER(encapsulated.eContent.getValue());
  return {
    genTime: info.genTime,
    imprintAlgorithm: info.messageImprint.hashAlgorithm.algorithmId,
    imprint: new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView),
    nonce: info.nonce ? new Uint8Array(info.nonce.valueBlock.valueHexView) : null,
    serialNumber: Buffer.from(info.serialNumber.valueBlock.valueHexView).toString('hex'),
  };
}

/** Asks the TSA for a token over `imprint`; refuses an answer that is not granted or not about this request. */
export async function requestTimestamp(tsaUrl: string, imprint: Uint8Array): Promise<Uint8Array> {
  const nonce = randomBytes(8);
  nonce[0] = nonce[0]! & 0x7f || 1; // a positive INTEGER in its shortest form
  const response = await fetch(tsaUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: timestampQuery(imprint, nonce),
    signal: AbortSignal.timeout(TSA_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`时间戳服务 ${tsaUrl} 答复 HTTP ${response.status}`);
  const asn = asn1js.fromBER(await response.arrayBuffer());
  if (asn.offset === -1) throw new Error(`时间戳服务 ${tsaUrl} 的答复无法解析`);
  const reply = new pkijs.TimeStampResp({ schema: asn.result });
  const status = reply.status.status as number;
  if (status !== PKI_STATUS_GRANTED && status !== PKI_STATUS_GRANTED_WITH_MODS) {
    const text = reply.status.statusStrings?.map((s) => s.valueBlock.value).join('; ') ?? '';
    throw new Error(`时间戳服务 ${tsaUrl} 拒绝: 状态 ${status} ${text}`.trim());
  }
  // the token's own bytes, not a re-encoding: its signature is over what the TSA wrote
  const tokenElement = (asn.result as asn1js.Sequence).valueBlock.value[1];
  if (!tokenElement) throw new Error(`时间戳服务 ${tsaUrl} 的答复不含时间戳令牌`);
  const token = new Uint8Array(tokenElement.valueBeforeDecodeView);
  const info = readTimestampToken(token);
  if (info.imprintAlgorithm !== OID_SHA256 || !sameBytes(info.imprint, imprint)) throw new Error(`时间戳服务 ${tsaUrl} 的令牌摘要与请求不符`);
  if (!info.nonce || !sameBytes(info.nonce, nonce)) throw new Error(`时间戳服务 ${tsaUrl} 的令牌随机数 (nonce) 与请求不符`);
  return token;
}

type SealRow = { id: number; sealed_at: Date | string; daily_for: string | null; chain_seq: number; head_hash: string; tsa_url: string; token_hex: string };

const SEAL_COLUMNS = sql`id, sealed_at, daily_for::text AS daily_for, chain_seq, head_hash, tsa_url, encode(token, 'hex') AS token_hex`;

function sealOf(row: SealRow): AuditSeal {
  return {
    id: Number(row.id),
    sealedAt: new Date(row.sealed_at),
    dailyFor: row.daily_for,
    chainSeq: Number(row.chain_seq),
    headHash: row.head_hash,
    tsaUrl: row.tsa_url,
    token: new Uint8Array(Buffer.from(row.token_hex, 'hex')),
  };
}

/**
 * Seals now: chains what is waiting, timestamps the head and stores the seal. The TSA is asked outside any
 * transaction (on PGlite a transaction holds the whole database). `dailyFor` makes it the day's seal: a second one
 * for the same day (another process was quicker) is not stored, and null is answered. Null too on an empty chain.
 */
export async function sealAuditChain(db: Db, tsaUrl: string, now: Date, dailyFor: string | null = null): Promise<AuditSeal | null> {
  await chainAuditRows(db);
  const head = await auditChainHead(db);
  if (!head) return null;
  const token = await requestTimestamp(tsaUrl, sealImprint(head.hash));
  const result = await db.execute(sql`
    INSERT INTO sys_audit_seal (sealed_at, daily_for, chain_seq, head_hash, tsa_url, token)
    VALUES (${now.toISOString()}::timestamptz, ${dailyFor}::date, ${head.chainSeq}::bigint, ${head.hash}, ${tsaUrl}, decode(${Buffer.from(token).toString('hex')}, 'hex'))
    ON CONFLICT (daily_for) DO NOTHING
    RETURNING ${SEAL_COLUMNS}`);
  const [row] = (result as unknown as { rows: SealRow[] }).rows;
  return row ? sealOf(row) : null;
}

/** Whether the Shanghai day of `now` has its seal yet. */
export async function isDaySealed(db: Db, now: Date): Promise<boolean> {
  const result = await db.execute(sql`SELECT 1 FROM sys_audit_seal WHERE daily_for = ${shanghaiDate(now)}::date`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/** The day's seal, made once per Asia/Shanghai day (the scheduler's job asks every round). */
export async function sealDay(db: Db, tsaUrl: string, now: Date): Promise<AuditSeal | null> {
  return sealAuditChain(db, tsaUrl, now, shanghaiDate(now));
}

export async function listAuditSeals(db: Db | Tx): Promise<AuditSeal[]> {
  const result = await db.execute(sql`SELECT ${SEAL_COLUMNS} FROM sys_audit_seal ORDER BY id`);
  return (result as unknown as { rows: SealRow[] }).rows.map(sealOf);
}

export interface TokenCheck {
  genTime: Date | null;
  /** What is wrong with the token, in Chinese; empty when it holds. */
  problems: string[];
  /** Whether the TSA's signature was checked (against a CA certificate), or only the imprint. */
  signatureChecked: boolean;
}

const run = promisify(execFile);

/**
 * Checks a seal's token: its imprint is SHA-256 of the head hash, and, given the TSA's CA certificate, its
 * signature and certificate chain (openssl ts -verify, at the token's own time so a TSA certificate that expired
 * since does not fail an old seal).
 */
export async function checkSealToken(token: Uint8Array, headHash: string, tsaCaFile: string | null): Promise<TokenCheck> {
  let info: TimestampInfo;
  try {
    info = readTimestampToken(token);
  } catch (err) {
    return { genTime: null, problems: [`时间戳令牌无法解析: ${(err as Error).message}`], signatureChecked: false };
  }
  const problems: string[] = [];
  if (info.imprintAlgorithm !== OID_SHA256 || !sameBytes(info.imprint, sealImprint(headHash))) problems.push('时间戳令牌的摘要与封存的链头哈希不符');
  if (!tsaCaFile) return { genTime: info.genTime, problems, signatureChecked: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coalx-seal-'));
  try {
    fs.writeFileSync(path.join(dir, 'token.der'), token);
    fs.writeFileSync(path.join(dir, 'head.txt'), headHash);
    const args = ['ts', '-verify', '-in', path.join(dir, 'token.der'), '-token_in', '-data', path.join(dir, 'head.txt'), '-CAfile', tsaCaFile];
    await run('openssl', [...args, '-attime', String(Math.floor(info.genTime.getTime() / 1000))]);
  } catch (err) {
    const failure = err as NodeJS.ErrnoException & { stderr?: string; stdout?: string };
    if (failure.code === 'ENOENT') problems.push('未找到 openssl，无法核验时间戳签名');
    else problems.push(`时间戳签名核验失败 (openssl ts -verify): ${`${failure.stdout ?? ''} ${failure.stderr ?? ''}`.replace(/\s+/g, ' ').trim().slice(0, 300)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { genTime: info.genTime, problems, signatureChecked: true };
}
