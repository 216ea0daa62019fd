import { CONTRACT_SIDES, CONTRACT_SIGNABLE_STATES, ContractStates, ContractUploadStates, formatDateTime, formatFen, type ContractContext, type ContractDetail, type ContractQuery, type ContractSide, type ContractSummary, type ContractTerms, type MoveOf } from '@coalx/shared';
import { and, count, desc, eq, getTableColumns, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { contractEvents, contracts, contractSignatures, contractTemplates, contractUploads, type ContractRow } from '../../db/schema/index';
import { appError, businessRule, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { GrantCheck } from '../../lib/policy';
import type { Clock } from '../../lib/clock';
import { publish } from '../../lib/events';
import { shanghaiDayStart } from '../../lib/shanghai-time';
import { transition } from '../../lib/transition';
import { inIdOrder, listPageIds } from '../../lib/list-page';
import { filesByIds, ownedFileId, saveUpload } from '../files/files.service';
import type { FileStorage } from '../files/storage';
import { contractPdfKey, readAll, renderContractDocument } from './contract-document';
import { grantsHeld } from '../auth/grants.service';
import { VOIDABLE_STATES, contractPolicy, sideOf } from './contract.policy';

// ---------- making ----------

export interface NewContract {
  /** the deal's contract, or (dealId null) a long-term deal's framework contract */
  dealId: number | null;
  longTermId?: number | null;
  kind: string;
  templateId: number;
  templateBody: string;
  sellerEnterpriseId: number;
  buyerEnterpriseId: number;
  context: ContractContext;
  signDeadline: Date;
  sellerDepositId: number | null;
  buyerDepositId: number | null;
  createdAt: Date;
}

export async function contractOfDeal(db: Db | Tx, dealId: number) {
  const [row] = await db.select({ id: contracts.id, contractNo: contracts.contractNo }).from(contracts).where(eq(contracts.dealId, dealId)).limit(1);
  return row ?? null;
}

/**
 * Saves a deal's contract: the text and PDF are rendered first (outside any transaction), then one insert that
 * a second maker of the same deal loses quietly (the unique deal id). Returns null when the contract existed.
 */
export async function insertContract(db: Db, storage: FileStorage, input: NewContract): Promise<ContractRow | null> {
  const document = await renderContractDocument(input.templateBody, input.context, input.createdAt);
  const pdfKey = contractPdfKey(input.context.contractNo, document.sha256);
  await storage.put(pdfKey, document.pdf);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contracts)
      .values({
        contractNo: input.context.contractNo,
        dealId: input.dealId,
        longTermId: input.longTermId ?? null,
        kind: input.kind,
        templateId: input.templateId,
        sellerEnterpriseId: input.sellerEnterpriseId,
        buyerEnterpriseId: input.buyerEnterpriseId,
        status: 'pending',
        context: input.context,
        terms: input.context.terms,
        text: document.text,
        pdfKey,
        pdfSha256: document.sha256,
        signDeadline: input.signDeadline,
        sellerDepositId: input.sellerDepositId,
        buyerDepositId: input.buyerDepositId,
        createdAt: input.createdAt,
        updatedAt: input.createdAt,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    const source = input.dealId === null ? `长协 ${input.context.tradeNo}` : `成交 ${input.context.dealNo}`;
    await logContractEvent(tx, row.id, input.createdAt, null, '生成合同', `由${source}按模板生成，签署截止 ${formatDateTime(input.signDeadline)}`);
    await publish(tx, 'contract.created', { id: row.id, dealId: input.dealId, longTermId: input.longTermId ?? null, contractNo: row.contractNo });
    return row;
  });
}

export async function logContractEvent(tx: Tx | Db, contractId: number, at: Date, actor: Pick<Actor, 'userId' | 'username'> | null, action: string, note = '') {
  await tx.insert(contractEvents).values({ contractId, at, action, actorUserId: actor?.userId ?? null, actorName: actor?.username ?? '系统', note });
}

// ---------- reading ----------

type SummaryRow = ContractRow & { uploadPending?: boolean };

function presentSummary(row: SummaryRow, viewer: Actor): ContractSummary {
  const context = row.context;
  return {
    id: row.id,
    contractNo: row.contractNo,
    dealNo: context.dealNo,
    tradeNo: context.tradeNo,
    tradeType: context.tradeType,
    kind: row.kind,
    mySide: sideOf(viewer, row),
    sellerName: context.seller.name,
    buyerName: context.buyer.name,
    productName: context.productName,
    quantity: context.quantityKg,
    price: context.priceFen,
    amount: context.amountFen,
    status: row.status,
    signDeadline: formatDateTime(row.signDeadline),
    createdAt: formatDateTime(row.createdAt),
    sellerSignedAt: row.sellerSignedAt ? formatDateTime(row.sellerSignedAt) : null,
    buyerSignedAt: row.buyerSignedAt ? formatDateTime(row.buyerSignedAt) : null,
    uploadPending: !!row.uploadPending,
    extended: row.extendedAt !== null,
  };
}

const pendingUpload = sql<boolean>`EXISTS (SELECT 1 FROM ${contractUploads} WHERE ${contractUploads.contractId} = ${contracts.id} AND ${contractUploads.status} = 'submitted')`;

function listWhere(enterpriseId: number | null, query: Omit<ContractQuery, 'pageNo' | 'pageSize'>): SQL | undefined {
  const mine =
    enterpriseId === null
      ? undefined
      : or(eq(contracts.sellerEnterpriseId, enterpriseId), eq(contracts.buyerEnterpriseId, enterpriseId));
  return and(mine, filterWhere(enterpriseId, query));
}

/** The list's filters without the enterprise's sides (the paged list reads each side on its own). */
function filterWhere(enterpriseId: number | null, query: Omit<ContractQuery, 'pageNo' | 'pageSize'>): SQL | undefined {
  const waiting =
    query.scope === 'mine' && enterpriseId !== null
      ? and(
          inArray(contracts.status, [...CONTRACT_SIGNABLE_STATES]),
          or(
            and(eq(contracts.sellerEnterpriseId, enterpriseId), isNull(contracts.sellerSignedAt)),
            and(eq(contracts.buyerEnterpriseId, enterpriseId), isNull(contracts.buyerSignedAt)),
          ),
          sql`NOT ${pendingUpload}`,
        )
      : undefined;
  const counterparty = query.counterparty
    ? or(
        ilike(sql`${contracts.context}->'seller'->>'name'`, `%${escapeLike(query.counterparty)}%`),
        ilike(sql`${contracts.context}->'buyer'->>'name'`, `%${escapeLike(query.counterparty)}%`),
      )
    : undefined;
  return and(
    waiting,
    query.contractNo ? ilike(contracts.contractNo, `%${escapeLike(query.contractNo)}%`) : undefined,
    query.status ? eq(contracts.status, query.status) : undefined,
    query.paper === 'submitted' ? pendingUpload : undefined,
    counterparty,
  );
}

/** Newest deal first: a contract made late by the sweep still sits where its deal does. */
const newestDealFirst = [desc(contracts.dealAt), desc(contracts.id)];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listContracts(db: Db, actor: Actor, query: ContractQuery) {
  const enterpriseId = contractPolicy.can(actor, 'list');
  const party = enterpriseId === null ? null : { enterpriseId, seller: contracts.sellerEnterpriseId, buyer: contracts.buyerEnterpriseId };
  const { ids, total, totalCapped } = await listPageIds(
    db,
    { table: contracts, id: contracts.id, where: filterWhere(enterpriseId, query), order: [{ key: contracts.dealAt, desc: true }, { key: contracts.id, desc: true }], ...query },
    party,
  );
  // the summary needs no contract text (~4 KB a row)
  const { text: _text, ...summaryColumns } = getTableColumns(contracts);
  const rows = ids.length ? await db.select({ ...summaryColumns, uploadPending: pendingUpload }).from(contracts).where(inArray(contracts.id, ids)) : [];
  return {
    records: inIdOrder(ids, rows).map((r) => presentSummary({ ...r, text: [] }, actor)),
    total,
    totalCapped,
    current: query.pageNo,
    size: query.pageSize,
  };
}

/** Every contract the list's filters find (for the Excel export), newest first, at most 5,000. */
export async function contractsForExport(db: Db, actor: Actor, query: Omit<ContractQuery, 'pageNo' | 'pageSize'>) {
  const enterpriseId = contractPolicy.can(actor, 'list');
  const rows = await db.select().from(contracts).where(listWhere(enterpriseId, query)).orderBy(...newestDealFirst).limit(5000);
  return rows.map((r) => presentSummary(r, actor));
}

export async function findContract(db: Db | Tx, where: SQL, lock = false) {
  const query = db.select().from(contracts).where(where).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('合同不存在');
  return row;
}

/** The contract by id (locked for update inside a transaction when `lock`). */
export function contractById(db: Db | Tx, id: number, lock = false) {
  return findContract(db, eq(contracts.id, id), lock);
}

/** A contract as its parties and the operator see it: terms, text, signatures, paper copies, history. */
export async function contractDetail(db: Db, actor: Actor, key: { id: number } | { dealNo: string }): Promise<ContractDetail> {
  const row = await findContract(db, 'id' in key ? eq(contracts.id, key.id) : sql`${contracts.context}->>'dealNo' = ${key.dealNo}`);
  contractPolicy.can(actor, 'view', row);
  return presentDetail(db, actor, row, await grantsHeld(db, actor));
}

/** `held`: the viewer's grants, read before any transaction opens (grantsHeld on the database itself). */
async function presentDetail(db: Db | Tx, actor: Actor, row: ContractRow, held: GrantCheck): Promise<ContractDetail> {
  const [signatures, uploads, events, [template]] = await Promise.all([
    db.select().from(contractSignatures).where(and(eq(contractSignatures.contractId, row.id), isNull(contractSignatures.clearedAt))).orderBy(contractSignatures.id),
    db.select().from(contractUploads).where(eq(contractUploads.contractId, row.id)).orderBy(desc(contractUploads.id)),
    db.select().from(contractEvents).where(eq(contractEvents.contractId, row.id)).orderBy(contractEvents.id),
    db.select({ name: contractTemplates.name, version: contractTemplates.version }).from(contractTemplates).where(eq(contractTemplates.id, row.templateId)),
  ]);
  const files = new Map((await filesByIds(db as Db, uploads.map((u) => u.fileId))).map((f) => [f.id, f]));
  const side = sideOf(actor, row);
  const signable = (CONTRACT_SIGNABLE_STATES as readonly string[]).includes(row.status);
  const unsigned = side !== null && (side === 'seller' ? row.sellerSignedAt : row.buyerSignedAt) === null;
  const myUploadPending = uploads.some((u) => u.side === side && u.status === 'submitted');
  const can = contractPolicy.verdicts(actor, held, row, {
    sign: { rule: 'actAsParty', when: signable && unsigned },
    uploadPaper: { rule: 'actAsParty', when: signable && !myUploadPending },
    editTerms: { rule: 'actAsParty', when: signable },
    reviewPaper: { rule: 'rule', when: uploads.some((u) => u.status === 'submitted') },
    void: { rule: 'rule', when: VOIDABLE_STATES.includes(row.status) },
    extend: { rule: 'rule', when: row.status === 'overdue' && row.extendedAt === null },
  });
  return {
    ...presentSummary({ ...row, uploadPending: uploads.some((u) => u.status === 'submitted') }, actor),
    sellerCreditCode: row.context.seller.creditCode,
    buyerCreditCode: row.context.buyer.creditCode,
    depositFen: row.context.depositFen,
    templateName: template?.name ?? '',
    templateVersion: template?.version ?? 0,
    terms: row.terms,
    editable: signable,
    can,
    text: row.text,
    pdfSha256: row.pdfSha256,
    signatures: signatures.map((s) => ({
      side: s.side as ContractSide,
      method: s.method as 'certificate' | 'paper',
      enterpriseName: s.enterpriseName,
      signerName: s.signerName,
      signerUsername: s.signerUsername,
      certificateSerial: s.certificateSerial,
      certificateSummary: s.certificateSummary,
      signedAt: formatDateTime(s.signedAt),
    })),
    uploads: uploads.map((u) => ({
      id: u.id,
      side: u.side as ContractSide,
      fileName: u.fileName,
      url: files.get(u.fileId)?.storageKey ?? '',
      status: u.status,
      submittedBy: u.submittedByName,
      submittedAt: formatDateTime(u.createdAt),
      reviewNote: u.reviewNote,
      reviewedAt: u.reviewedAt ? formatDateTime(u.reviewedAt) : null,
    })),
    events: events.map((e) => ({ at: formatDateTime(e.at), action: e.action, actorName: e.actorName, note: e.note })),
    voidReason: row.voidReason,
    breachBy: row.breachBy,
  };
}

/** The current PDF of a contract (the signed one once signed), for its parties and the operator. */
export async function contractPdf(db: Db, storage: FileStorage, actor: Actor, id: number) {
  const row = await findContract(db, eq(contracts.id, id));
  contractPolicy.can(actor, 'view', row);
  const pdf = await readAll(storage, row.pdfKey);
  if (!pdf) throw notFound('合同文件不存在');
  return { pdf, fileName: `${row.contractNo}.pdf` };
}

/** A paper copy's file, for the contract's parties and the operator. */
export async function paperCopyFile(db: Db, storage: FileStorage, actor: Actor, id: number, uploadId: number) {
  const row = await findContract(db, eq(contracts.id, id));
  contractPolicy.can(actor, 'view', row);
  const [upload] = await db.select().from(contractUploads).where(and(eq(contractUploads.id, uploadId), eq(contractUploads.contractId, id))).limit(1);
  if (!upload) throw notFound('纸质合同不存在');
  const [file] = await filesByIds(db, [upload.fileId]);
  const data = file ? await readAll(storage, file.storageKey) : null;
  if (!file || !data) throw notFound('纸质合同文件不存在');
  return { data, fileName: upload.fileName, contentType: file.contentType };
}

/** The paper copies the actor's enterprise sent, across its contracts, newest first. */
export async function myPaperCopies(db: Db, actor: Actor, page: { pageNo: number; pageSize: number }) {
  const enterpriseId = contractPolicy.can(actor, 'list');
  if (enterpriseId === null) return { records: [], total: 0, current: page.pageNo, size: page.pageSize };
  const where = eq(contractUploads.enterpriseId, enterpriseId);
  const [total] = await db.select({ n: count() }).from(contractUploads).where(where);
  const rows = await db
    .select({ upload: contractUploads, contractNo: contracts.contractNo, context: contracts.context, sellerEnterpriseId: contracts.sellerEnterpriseId })
    .from(contractUploads)
    .innerJoin(contracts, eq(contracts.id, contractUploads.contractId))
    .where(where)
    .orderBy(desc(contractUploads.id))
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize);
  return {
    records: rows.map(({ upload, contractNo, context, sellerEnterpriseId }) => ({
      id: upload.id,
      contractId: upload.contractId,
      contractNo,
      counterparty: sellerEnterpriseId === enterpriseId ? context.buyer.name : context.seller.name,
      side: upload.side as ContractSide,
      fileName: upload.fileName,
      status: upload.status,
      submittedBy: upload.submittedByName,
      submittedAt: formatDateTime(upload.createdAt),
      reviewNote: upload.reviewNote,
      reviewedAt: upload.reviewedAt ? formatDateTime(upload.reviewedAt) : null,
    })),
    total: Number(total?.n ?? 0),
    current: page.pageNo,
    size: page.pageSize,
  };
}

// ---------- terms ----------

/**
 * A party edits the terms before the contract takes effect: the text and the PDF are made again from the same
 * template version, a signature already made is cleared (its signer must sign the new text), and the edit is logged.
 */
export async function editTerms(db: Db, storage: FileStorage, clock: Clock, actor: Actor, id: number, terms: ContractTerms) {
  const held = await grantsHeld(db, actor);
  const current = await findContract(db, eq(contracts.id, id));
  const side = contractPolicy.can(actor, 'actAsParty', current);
  assertSignable(current);
  const [template] = await db.select().from(contractTemplates).where(eq(contractTemplates.id, current.templateId));
  const context: ContractContext = { ...current.context, terms };
  const document = await renderContractDocument(template!.body, context, current.createdAt);
  const pdfKey = contractPdfKey(current.contractNo, document.sha256);
  await storage.put(pdfKey, document.pdf);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = await findContract(tx, eq(contracts.id, id), true);
    assertSignable(row);
    // the lock serialises this against a signature completing at the same moment: the text it signed is gone
    if (row.pdfSha256 !== current.pdfSha256) throw appError('contract_changed', '合同已被更新，请刷新后再修改');
    const cleared = await tx
      .update(contractSignatures)
      .set({ clearedAt: now })
      .where(and(eq(contractSignatures.contractId, id), isNull(contractSignatures.clearedAt)))
      .returning({ side: contractSignatures.side });
    if (row.status !== 'pending') await moveContract(tx, row.id, 'reopen');
    const [updated] = await tx
      .update(contracts)
      .set({ context, terms, text: document.text, pdfKey, pdfSha256: document.sha256, sellerSignedAt: null, buyerSignedAt: null, updatedAt: now })
      .where(eq(contracts.id, id))
      .returning();
    const clearedNote = cleared.length ? `；已清除${cleared.map((c) => CONTRACT_SIDES[c.side as ContractSide]).join('、')}的签署，需重新签署` : '';
    await logContractEvent(tx, id, now, actor, '修改条款', `${CONTRACT_SIDES[side]}修改了合同条款${clearedNote}`);
    return presentDetail(tx, actor, updated!, held);
  });
}

export function assertSignable(row: ContractRow) {
  if (!(CONTRACT_SIGNABLE_STATES as readonly string[]).includes(row.status)) {
    throw appError('contract_not_signable', `合同状态为「${ContractStates.states[row.status as keyof typeof ContractStates.states] ?? row.status}」，不能签署或修改`);
  }
}

export function moveContract(tx: Tx, id: number, name: MoveOf<typeof ContractStates>, set: Partial<typeof contracts.$inferInsert> = {}) {
  return transition(tx, ContractStates, name, { table: contracts, where: eq(contracts.id, id), set: { ...set, updatedAt: new Date() }, notFoundMessage: '合同不存在' });
}

// ---------- signing with a certificate (the use case is flows/sign-contract.ts) ----------

/** What a side's signing session is for: this contract as this very file (a changed file must be signed again). */
export const signingPurposeOf = (row: ContractRow) => `contract:${row.id}:${row.pdfSha256}`;

/** Records one side's certificate signature of the contract's current file. */
export async function recordContractSignature(tx: Tx, values: typeof contractSignatures.$inferInsert) {
  await tx.insert(contractSignatures).values(values);
}


// ---------- paper copies ----------

/** A party uploads the paper contract signed and stamped by both sides (PDF or image), for the operator. */
export async function uploadPaperCopy(db: Db, storage: FileStorage, clock: Clock, actor: Actor, id: number, file: { fileName: string; data: Buffer }) {
  const held = await grantsHeld(db, actor);
  const row = await findContract(db, eq(contracts.id, id));
  const side = contractPolicy.can(actor, 'actAsParty', row);
  assertSignable(row);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const locked = await findContract(tx, eq(contracts.id, id), true);
    assertSignable(locked);
    const [pending] = await tx.select({ id: contractUploads.id }).from(contractUploads).where(and(eq(contractUploads.contractId, id), eq(contractUploads.status, 'submitted'))).limit(1);
    if (pending) throw appError('contract_upload_pending');
    const upload = await saveUpload(tx, storage, clock, actor, { filename: file.fileName, data: file.data, visibility: 'private' });
    const fileId = await ownedFileId(tx, upload.url, actor.enterpriseId!);
    const [paper] = await tx
      .insert(contractUploads)
      .values({
        contractId: id,
        side,
        enterpriseId: actor.enterpriseId!,
        fileId,
        fileName: upload.name,
        submittedBy: actor.userId,
        submittedByName: actor.username,
        createdAt: now,
      })
      .returning({ id: contractUploads.id });
    await publish(tx, 'contractupload.submitted', { id: paper!.id });
    await logContractEvent(tx, id, now, actor, '上传纸质合同', `${CONTRACT_SIDES[side]}上传了双方签字盖章的纸质合同「${upload.name}」，待交易中心审核`);
    return presentDetail(tx, actor, locked, held);
  });
}

/**
 * The operator compares a paper copy with the generated text: accepted, it stands for both sides' signatures and
 * the contract takes effect; rejected, the parties sign or upload again.
 */
export async function reviewPaperCopy(db: Db, clock: Clock, actor: Actor, id: number, uploadId: number, input: { accept: boolean; note: string }) {
  const held = await grantsHeld(db, actor);
  contractPolicy.can(actor, 'rule');
  if (!input.accept && !input.note) throw businessRule('驳回时请填写审核意见，告诉企业需要改正什么');
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = await findContract(tx, eq(contracts.id, id), true);
    const [upload] = await tx.select().from(contractUploads).where(and(eq(contractUploads.id, uploadId), eq(contractUploads.contractId, id))).limit(1);
    if (!upload) throw notFound('纸质合同不存在');
    await transition(tx, ContractUploadStates, input.accept ? 'accept' : 'reject', {
      table: contractUploads,
      where: eq(contractUploads.id, uploadId),
      set: { reviewNote: input.note, reviewedBy: actor.userId, reviewedAt: now },
    });
    if (!input.accept) {
      await logContractEvent(tx, id, now, actor, '驳回纸质合同', input.note);
      return presentDetail(tx, actor, row, held);
    }
    const updated = await moveContract(tx, id, 'takeEffect', {
      effectiveAt: now,
      sellerSignedAt: row.sellerSignedAt ?? now,
      buyerSignedAt: row.buyerSignedAt ?? now,
    });
    for (const side of ['seller', 'buyer'] as const) {
      if ((side === 'seller' ? row.sellerSignedAt : row.buyerSignedAt) !== null) continue;
      const party = side === 'seller' ? row.context.seller : row.context.buyer;
      await tx.insert(contractSignatures).values({
        contractId: id,
        side,
        method: 'paper',
        enterpriseId: side === 'seller' ? row.sellerEnterpriseId : row.buyerEnterpriseId,
        userId: null,
        enterpriseName: party.name,
        signerName: `${party.legalRepresentative}（纸质合同）`,
        signerUsername: upload.submittedByName,
        signedAt: now,
      });
    }
    await logContractEvent(tx, id, now, actor, '确认纸质合同', input.note || '纸质合同与平台生成文本一致，合同生效');
    await logContractEvent(tx, id, now, null, '合同生效', '交易中心确认纸质合同，合同生效');
    return presentDetail(tx, actor, updated, held);
  });
}

// ---------- deadlines and rulings ----------

/** Contracts whose deadline passed unsigned become 逾期未签 (the scheduler runs this every round). */
export async function expireOverdueContracts(db: Db, now: Date): Promise<number> {
  const due = await db
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(inArray(contracts.status, [...CONTRACT_SIGNABLE_STATES]), lt(contracts.signDeadline, now)))
    .limit(500);
  let moved = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const row = await transition(tx, ContractStates, 'expire', {
        table: contracts,
        where: and(eq(contracts.id, id), lt(contracts.signDeadline, now))!,
        set: { updatedAt: now },
        idempotent: true,
      }).catch(() => null); // signed or extended meanwhile: nothing to do
      if (row) {
        moved++;
        await logContractEvent(tx, id, now, null, '逾期未签', `签署截止 ${formatDateTime(row.signDeadline)} 已过，待交易中心处理`);
      }
    });
  }
  return moved;
}

/** The operator gives an overdue contract more time, once, with a reason; it returns to where it was. */
export async function extendDeadline(db: Db, clock: Clock, actor: Actor, id: number, input: { reason: string; until: string }) {
  const held = await grantsHeld(db, actor);
  contractPolicy.can(actor, 'rule');
  const now = clock.now();
  const until = new Date(shanghaiDayStart(new Date(`${input.until}T12:00:00+08:00`), 1).getTime() - 1);
  if (Number.isNaN(until.getTime()) || until <= now) throw businessRule('新的签署截止日期须晚于今天');
  return db.transaction(async (tx) => {
    const row = await findContract(tx, eq(contracts.id, id), true);
    if (row.extendedAt) throw appError('contract_already_extended');
    const back = row.sellerSignedAt ? 'extendSellerSigned' : row.buyerSignedAt ? 'extendBuyerSigned' : 'extendUnsigned';
    const updated = await moveContract(tx, id, back, { signDeadline: until, extendedAt: now, extendReason: input.reason });
    await logContractEvent(tx, id, now, actor, '延期', `签署截止延至 ${formatDateTime(until)}：${input.reason}`);
    return presentDetail(tx, actor, updated, held);
  });
}

/**
 * Voids a contract with the operator's ruling, inside the caller's transaction (flows/void-contract.ts moves the
 * deposits in the same transaction). Returns the contract as it was, with the deposits at stake.
 */
export async function voidContractInTx(tx: Tx, now: Date, actor: Actor, id: number, input: { reason: string; breachBy: 'seller' | 'buyer' | 'none' }) {
  contractPolicy.can(actor, 'rule');
  const row = await findContract(tx, eq(contracts.id, id), true);
  const updated = await moveContract(tx, id, 'void', { voidReason: input.reason, breachBy: input.breachBy });
  return { before: row, updated };
}

export async function logRuling(tx: Tx, id: number, now: Date, actor: Actor, note: string) {
  await logContractEvent(tx, id, now, actor, '作废', note);
}

export function presentContractDetail(tx: Tx, actor: Actor, row: ContractRow, held: GrantCheck) {
  return presentDetail(tx, actor, row, held);
}

/** Contracts past their deadline, for the operator's to-do (工作台). */
export async function overdueContractCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contracts).where(eq(contracts.status, 'overdue'));
  return Number(row?.n ?? 0);
}

/** For the public verification page: a contract's title and the SHA-256 of every signed copy the platform holds. */
export async function contractReference(db: Db, contractNo: string) {
  const [row] = await db.select().from(contracts).where(eq(contracts.contractNo, contractNo)).limit(1);
  if (!row) return null;
  const signed = await db.select({ sha: contractSignatures.pdfSha256 }).from(contractSignatures).where(eq(contractSignatures.contractId, row.id));
  return {
    title: `${row.contractNo} ${row.context.productName} ${formatFen(row.context.amountFen)} 元`,
    signedSha256: [...new Set(signed.map((s) => s.sha).filter((s): s is string => !!s))],
  };
}

/** The contracts of these deals (a long-term deal's call-offs), by deal. */
export async function contractsOfDeals(db: Db | Tx, dealIds: readonly number[]) {
  const unique = [...new Set(dealIds)];
  if (unique.length === 0) return [];
  return db
    .select({ id: contracts.id, contractNo: contracts.contractNo, dealId: contracts.dealId, status: contracts.status })
    .from(contracts)
    .where(inArray(contracts.dealId, unique));
}

/** Contract numbers and states by id (a long-term deal's framework contract). */
export async function contractsByIds(db: Db | Tx, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<number, { id: number; contractNo: string; status: string }>();
  const rows = await db.select({ id: contracts.id, contractNo: contracts.contractNo, status: contracts.status }).from(contracts).where(inArray(contracts.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The framework contract of a long-term deal. */
export async function contractOfLongTerm(db: Db | Tx, longTermId: number) {
  const [row] = await db.select().from(contracts).where(eq(contracts.longTermId, longTermId)).limit(1);
  return row ?? null;
}

/** What an order is made from (flows/make-order.ts): an effective contract's parties, goods and terms. */
export async function contractForOrder(db: Db | Tx, id: number) {
  const [row] = await db.select().from(contracts).where(eq(contracts.id, id)).limit(1);
  return row ?? null;
}

/** Effective contracts whose order is not made yet (`hasOrder` tells, as SQL over the contract's id). */
export async function effectiveContractIds(db: Db, withoutOrder: (contractId: typeof contracts.id) => SQL, limit = 200): Promise<number[]> {
  const rows = await db
    .select({ id: contracts.id })
    .from(contracts)
    // a long-term framework contract (no deal) has no order: its call-offs' contracts do
    .where(and(eq(contracts.status, 'effective'), isNotNull(contracts.dealId), withoutOrder(contracts.id)))
    .orderBy(contracts.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The order is made (or a long-term framework's period started): the contract is being performed (履行中). A
 * contract already performing is left alone.
 */
export async function markContractPerforming(tx: Tx, id: number, now: Date, note = '订单已生成') {
  const moved = await transition(tx, ContractStates, 'perform', {
    table: contracts,
    where: eq(contracts.id, id),
    set: { updatedAt: now },
    notFoundMessage: '合同不存在',
    idempotent: true,
  });
  if (moved) await logContractEvent(tx, id, now, null, '开始履行', note);
}

/** Its order is complete (settled and invoiced): the contract is 已完成. */
export async function markContractCompleted(tx: Tx, id: number, now: Date, note = '订单已结算并开票，合同履行完毕') {
  const moved = await transition(tx, ContractStates, 'complete', { table: contracts, where: eq(contracts.id, id), set: { updatedAt: now }, notFoundMessage: '合同不存在', idempotent: true });
  if (moved) await logContractEvent(tx, id, now, null, '履行完毕', note);
}

/** A long-term framework terminated by the trading centre: its contract ends with it (已终止). */
export async function markContractTerminated(tx: Tx, id: number, now: Date, actor: Actor, reason: string) {
  const moved = await transition(tx, ContractStates, 'terminate', { table: contracts, where: eq(contracts.id, id), set: { updatedAt: now }, notFoundMessage: '合同不存在', idempotent: true });
  if (moved) await logContractEvent(tx, id, now, actor, '终止履行', reason);
}
