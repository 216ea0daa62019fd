import {
  CONTRACT_KIND_KEYS,
  CONTRACT_KINDS,
  CONTRACT_PLACEHOLDERS,
  contractTitleOf,
  formatDateTime,
  renderContractText,
  sampleContractContext,
  unknownPlaceholders,
  unknownPlaceholdersMessage,
  type ContractKind,
  type ContractPlaceholderInfo,
  type ContractTemplate,
  type ContractTemplatePreviewResult,
} from '@coalx/shared';
import { asc, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { contractTemplates, type ContractTemplateRow } from '../../db/schema/index';
import { appError, badRequest, businessRule, conflict } from '../../errors';
import type { Actor } from '../../lib/actor';
import { uniqueViolation } from '../../lib/db-errors';
import { renderContractPdf } from '../../lib/pdf/contract-pdf';
import { accountNames } from '../auth/accounts.service';
import { DEFAULT_TEMPLATES } from './default-templates';

/**
 * Contract templates (模板配置): one versioned text per contract kind. A save adds a version, never rewrites one,
 * so a contract keeps the exact text it was generated from (it stores the template id).
 */

/** The kind's newest version: what a new contract is generated from. */
export async function currentTemplate(db: Db | Tx, kind: ContractKind): Promise<ContractTemplateRow> {
  const [row] = await db.select().from(contractTemplates).where(eq(contractTemplates.kind, kind)).orderBy(desc(contractTemplates.version)).limit(1);
  if (!row) throw appError('business_rule', `尚未配置${CONTRACT_KINDS[kind]}模板，请联系系统管理员在“模板配置”中添加`);
  return row;
}

/** Version 1 of every kind that has no template yet; run at every start, so a new kind gets its default too. */
export async function ensureDefaultTemplates(db: Db | Tx): Promise<void> {
  const present = new Set((await db.selectDistinct({ kind: contractTemplates.kind }).from(contractTemplates)).map((r) => r.kind));
  const missing = CONTRACT_KIND_KEYS.filter((kind) => !present.has(kind));
  if (missing.length === 0) return;
  await db
    .insert(contractTemplates)
    .values(missing.map((kind) => ({ kind, version: 1, ...DEFAULT_TEMPLATES[kind], createdBy: null, createdByName: '系统默认' })))
    // another process starting at the same moment inserted it: fine
    .onConflictDoNothing();
}

function present(row: ContractTemplateRow): ContractTemplate {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    version: row.version,
    body: row.body,
    createdBy: row.createdByName,
    createdAt: formatDateTime(row.createdAt),
  };
}

/** The current template of every kind, in the order of CONTRACT_KINDS. */
export async function listCurrentTemplates(db: Db): Promise<ContractTemplate[]> {
  const rows = await db.selectDistinctOn([contractTemplates.kind]).from(contractTemplates).orderBy(asc(contractTemplates.kind), desc(contractTemplates.version));
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return CONTRACT_KIND_KEYS.flatMap((kind) => (byKind.has(kind) ? [present(byKind.get(kind)!)] : []));
}

/** Every version of a kind, newest first. */
export async function templateHistory(db: Db, kind: ContractKind): Promise<ContractTemplate[]> {
  const rows = await db.select().from(contractTemplates).where(eq(contractTemplates.kind, kind)).orderBy(desc(contractTemplates.version));
  return rows.map(present);
}

export function placeholderList(): ContractPlaceholderInfo[] {
  return CONTRACT_PLACEHOLDERS.map((p) => ({ key: p.key, label: p.label, group: p.group, block: p.block ?? false }));
}

/** Line endings as the generator splits them; trailing blanks would make "unchanged" bodies look changed. */
const normalizeBody = (body: string) => body.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trimEnd();

/** Saves the body as the kind's next version, refusing unknown placeholders and an unchanged text. */
export async function saveTemplate(db: Db, actor: Actor, input: { kind: ContractKind; name: string; body: string }): Promise<ContractTemplate> {
  const body = normalizeBody(input.body);
  if (!body) throw badRequest('请输入模板正文');
  const unknown = unknownPlaceholders(body);
  if (unknown.length) throw badRequest(unknownPlaceholdersMessage(unknown));
  const names = await accountNames(db, actor.userId);
  const createdByName = names ? `${names.realname || names.username}` : actor.username;
  try {
    const row = await db.transaction(async (tx) => {
      const [latest] = await tx.select().from(contractTemplates).where(eq(contractTemplates.kind, input.kind)).orderBy(desc(contractTemplates.version)).limit(1);
      if (latest && normalizeBody(latest.body) === body) throw businessRule('模板正文没有修改，无需保存新版本');
      const [saved] = await tx
        .insert(contractTemplates)
        .values({ kind: input.kind, name: input.name, version: (latest?.version ?? 0) + 1, body, createdBy: actor.userId, createdByName })
        .returning();
      return saved!;
    });
    return present(row);
  } catch (err) {
    if (uniqueViolation(err) === 'contract_template_kind_version_uq') throw conflict('模板刚被其他管理员保存了新版本，请刷新后再修改');
    throw err;
  }
}

/** The body filled with the sample deal, unknown placeholders left as written and listed. */
export function previewTemplate(input: { kind: ContractKind; body: string }): ContractTemplatePreviewResult {
  return {
    paragraphs: renderContractText(input.body, sampleContractContext(input.kind), { lenient: true }),
    unknown: unknownPlaceholders(input.body),
  };
}

/** The kind's current template on the sample deal, as the PDF a contract would be. */
export async function previewTemplatePdf(db: Db, kind: ContractKind): Promise<{ pdf: Uint8Array; fileName: string }> {
  const template = await currentTemplate(db, kind);
  const ctx = sampleContractContext(kind);
  const paragraphs = renderContractText(template.body, ctx);
  const title = contractTitleOf(paragraphs, kind);
  const pdf = await renderContractPdf({ contractNo: ctx.contractNo, title, paragraphs, createdAt: template.createdAt, seller: ctx.seller, buyer: ctx.buyer });
  return { pdf, fileName: `${CONTRACT_KINDS[kind]}-第${template.version}版-预览.pdf` };
}
