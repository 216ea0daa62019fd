/**
 * `npm run audit:verify`: the whole chain recomputed and every seal checked, with a Chinese summary (README "审计链").
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatDateTime } from '@coalx/shared';
import type { Db } from '../../db/client';
import { CANONICAL_SETTINGS, chainedRowsAfter, checkAuditChain, rowsOf, type ChainCheck } from './audit-chain';
import { checkSealToken, listAuditSeals, type AuditSeal } from './audit-seal';

export interface SealCheck {
  seal: AuditSeal;
  genTime: Date | null;
  problems: string[];
}

export interface AuditVerification {
  chain: ChainCheck;
  seals: SealCheck[];
  /** Whether the tokens' signatures were checked (a TSA CA certificate was given). */
  signaturesChecked: boolean;
  ok: boolean;
  /** The first thing that differs, naming the row (or the seal); null when everything holds. */
  firstProblem: string | null;
}

export async function verifyAuditTrail(db: Db, options: { tsaCaFile?: string | null } = {}): Promise<AuditVerification> {
  // rows and seals from one snapshot, so a chaining or sealing process meanwhile cannot make them disagree
  const { chain, seals } = await db.transaction(
    async (tx) => {
      const seals = await listAuditSeals(tx);
      const chain = await checkAuditChain(tx, new Set(seals.map((s) => s.chainSeq)));
      return { chain, seals };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const sealChecks: SealCheck[] = [];
  for (const seal of seals) {
    const token = await checkSealToken(seal.token, seal.headHash, options.tsaCaFile ?? null);
    const problems = [...token.problems];
    const hashNow = chain.hashAt.get(seal.chainSeq);
    if (hashNow === undefined) problems.unshift(`链中已没有第 ${seal.chainSeq} 号记录`);
    else if (hashNow !== seal.headHash) problems.unshift(`封存的链头哈希与现在第 ${seal.chainSeq} 号记录的哈希不符 (其后或此前的记录被改写)`);
    sealChecks.push({ seal, genTime: token.genTime, problems });
  }
  const firstRow = chain.broken[0];
  const firstSeal = sealChecks.find((s) => s.problems.length);
  const firstProblem = firstRow
    ? `记录 id=${firstRow.id} (第 ${firstRow.chainSeq} 号): ${firstRow.reason}`
    : firstSeal
      ? `封存 #${firstSeal.seal.id} (第 ${firstSeal.seal.chainSeq} 号): ${firstSeal.problems[0]}`
      : null;
  return { chain, seals: sealChecks, signaturesChecked: !!options.tsaCaFile, ok: firstProblem === null, firstProblem };
}

const figure = (n: number) => n.toLocaleString('en-US');
const shortHash = (hash: string) => `${hash.slice(0, 12)}…${hash.slice(-4)}`;

/** The summary the command prints. */
export function describeAuditVerification(v: AuditVerification): string {
  const { chain } = v;
  const lines = ['审计链校验 (操作日志 sys_audit_log)'];
  const chainedRange = chain.head ? ` (第 1 至 ${figure(chain.head.chainSeq)} 号)` : '';
  lines.push(
    `  记录: ${figure(chain.rows)} 条，已入链 ${figure(chain.chained)} 条${chainedRange}，待入链 ${figure(chain.unchained)} 条` +
      (chain.unchained ? ' (等待下一次链接，本次不校验)' : ''),
  );
  lines.push(`  链头: ${chain.head ? `第 ${figure(chain.head.chainSeq)} 号 ${chain.head.hash}` : '无 (尚无入链记录)'}`);
  lines.push(`  逐条重算哈希: ${figure(chain.chained)} 条，不符 ${figure(chain.brokenCount)} 处`);
  for (const row of chain.broken) lines.push(`    ✘ 记录 id=${row.id} (第 ${figure(row.chainSeq)} 号): ${row.reason}`);
  if (chain.brokenCount > chain.broken.length) lines.push(`    … 另有 ${figure(chain.brokenCount - chain.broken.length)} 处`);

  const failed = v.seals.filter((s) => s.problems.length);
  lines.push(
    `  封存 (RFC 3161 时间戳): ${figure(v.seals.length)} 次，通过 ${figure(v.seals.length - failed.length)} 次，不通过 ${figure(failed.length)} 次` +
      (v.seals.length ? (v.signaturesChecked ? '；时间戳签名已用 TSA 的 CA 证书核验' : '；未提供 TSA_CA_FILE，只核对了摘要，未核验签名') : ''),
  );
  const last = v.seals.at(-1);
  for (const check of [...failed, ...(last && !last.problems.length ? [last] : [])]) {
    const { seal } = check;
    const when = check.genTime ? `时间戳 ${formatDateTime(check.genTime)}` : '时间戳无法读取';
    const verdict = check.problems.length ? `✘ ${check.problems.join('；')}` : '✔ 通过 (最近一次)';
    lines.push(`    #${seal.id} ${seal.dailyFor ? `${seal.dailyFor} 日封存` : '即时封存'}: 第 ${figure(seal.chainSeq)} 号 ${shortHash(seal.headHash)}，${when}，${verdict}`);
  }
  if (chain.head) {
    const sealedUpTo = Math.max(0, ...v.seals.filter((s) => !s.problems.length).map((s) => s.seal.chainSeq));
    if (chain.head.chainSeq > sealedUpTo) lines.push(`  最近一次有效封存之后入链 ${figure(chain.head.chainSeq - sealedUpTo)} 条，尚无时间戳`);
  }
  lines.push(v.ok ? '结论: 通过' : `结论: 不通过。第一处不符: ${v.firstProblem}`);
  return lines.join('\n');
}

/** A CSV field as PostgreSQL's `\copy … WITH (FORMAT csv)` writes it. */
function csvField(value: string | number): string {
  const text = String(value);
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const EXPORT_PAGE = 2000;

/**
 * Writes audit-chain.csv and audit-seals.csv into `folder`, the files the README's psql commands make, for an
 * auditor of the embedded database (which psql cannot open). Returns the rows written.
 */
export async function exportAuditChain(db: Db, folder: string): Promise<{ rows: number; seals: number }> {
  fs.mkdirSync(folder, { recursive: true });
  return db.transaction(
    async (tx) => {
      await tx.execute(CANONICAL_SETTINGS);
      const chainFile = fs.openSync(path.join(folder, 'audit-chain.csv'), 'w');
      let rows = 0;
      try {
        for (let after = 0; ; ) {
          const page = await rowsOf<{ id: number; chain_seq: number; hash: string | null; canonical: string }>(tx, chainedRowsAfter(after, EXPORT_PAGE));
          for (const row of page) fs.writeSync(chainFile, `${[row.chain_seq, row.id, row.hash ?? '', row.canonical].map(csvField).join(',')}\n`);
          rows += page.length;
          if (page.length < EXPORT_PAGE) break;
          after = Number(page.at(-1)!.chain_seq);
        }
      } finally {
        fs.closeSync(chainFile);
      }
      const seals = await listAuditSeals(tx);
      const sealLines = seals.map((s) => `${[s.id, s.chainSeq, s.headHash, Buffer.from(s.token).toString('hex')].map(csvField).join(',')}\n`);
      fs.writeFileSync(path.join(folder, 'audit-seals.csv'), sealLines.join(''));
      return { rows, seals: seals.length };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
