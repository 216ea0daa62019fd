import { CONTRACT_SIDES, type SignPrepareResult } from '@coalx/shared';
import type { Db } from '../db/client';
import { appError, businessRule, notFound } from '../errors';
import type { Actor } from '../lib/actor';
import { grantsHeld } from '../modules/auth/grants.service';
import type { Clock } from '../lib/clock';
import { CONTRACT_SEAL_PLACEMENT } from '../lib/pdf/contract-pdf';
import { contractPdfKey, readAll } from '../modules/contract/contract-document';
import { contractPolicy } from '../modules/contract/contract.policy';
import {
  assertSignable,
  contractById,
  logContractEvent,
  moveContract,
  presentContractDetail,
  recordContractSignature,
  signingPurposeOf,
} from '../modules/contract/contract.service';
import type { FileStorage } from '../modules/files/storage';
import { checkPayPassword, paymentAuthSwitches, verifyPaymentAuth } from '../modules/funds/pay-auth';
import { assembleDocumentSignature, prepareDocumentSignature, spendSigningSession } from '../modules/sign/sign.service';
import type { EnterpriseActor } from '../modules/sign/sign.policy';
import type { SignTrust } from '../modules/sign/sign.trust';

// 签署合同 with a certificate, in two steps: the sign module prepares and assembles the PDF signature, the contract
// module records it and moves the contract.

/**
 * Step 1: the current PDF is prepared for this side's signature, its seal over this side's signature block. With
 * the PayPassword switch on, the pay password is asked here, before anything is prepared (the money action's one
 * check, `contract_sign`: the certificate's own signature is the key proof, so the key switch adds nothing).
 */
export async function prepareContractSignature(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: Actor,
  id: number,
  input: { deviceId: number; payPassword?: string },
): Promise<SignPrepareResult> {
  const { deviceId } = input;
  const row = await contractById(db, id);
  const side = contractPolicy.can(actor, 'actAsParty', row);
  assertSignable(row);
  if ((side === 'seller' ? row.sellerSignedAt : row.buyerSignedAt) !== null) throw appError('contract_already_signed');
  await verifyPaymentAuth(db, clock, null, actor, 'contract_sign', { payPassword: input.payPassword });
  const pdf = await readAll(storage, row.pdfKey);
  if (!pdf) throw notFound('合同文件不存在');
  return prepareDocumentSignature(db, storage, clock, trust, actor as EnterpriseActor, {
    fileName: `${row.contractNo}.pdf`,
    pdf,
    deviceId,
    reason: `${CONTRACT_SIDES[side]}签署合同 ${row.contractNo}`,
    purpose: signingPurposeOf(row),
    placement: CONTRACT_SEAL_PLACEMENT[side],
  });
}

/**
 * Step 2: the device's signature is checked and assembled into the PDF; then, with the contract row locked, the
 * contract must still be the very file that was prepared (the other side may have signed or the terms changed
 * meanwhile: sign again), the signature is recorded and the contract moves: this side signed, or effective when
 * the other side had signed already.
 */
export async function completeContractSignature(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  trust: SignTrust,
  actor: Actor,
  id: number,
  input: { sessionId: string; signature: string; payPassword?: string },
) {
  const row = await contractById(db, id);
  const side = contractPolicy.can(actor, 'actAsParty', row);
  assertSignable(row);
  const switches = await paymentAuthSwitches(db);
  if (switches.payPassword) {
    if (!input.payPassword) throw businessRule('请输入支付密码');
    await checkPayPassword(db, clock, actor.enterpriseId!, input.payPassword);
  }
  const assembled = await assembleDocumentSignature(db, storage, clock, trust, actor as EnterpriseActor, {
    sessionId: input.sessionId,
    signature: input.signature,
    purpose: (purpose) => purpose.startsWith(`contract:${row.id}:`),
  });
  const now = clock.now();
  const pdfKey = contractPdfKey(row.contractNo, assembled.sha256);
  await storage.put(pdfKey, assembled.signed);
  const held = await grantsHeld(db, actor);
  return db.transaction(async (tx) => {
    const locked = await contractById(tx, id, true);
    assertSignable(locked);
    if ((side === 'seller' ? locked.sellerSignedAt : locked.buyerSignedAt) !== null) throw appError('contract_already_signed');
    if (assembled.session.purpose !== signingPurposeOf(locked)) throw appError('contract_changed');
    await spendSigningSession(tx, trust, assembled, now);
    const otherSigned = (side === 'seller' ? locked.buyerSignedAt : locked.sellerSignedAt) !== null;
    const signedAt = { [side === 'seller' ? 'sellerSignedAt' : 'buyerSignedAt']: assembled.session.signingTime };
    const updated = await moveContract(tx, id, otherSigned ? 'takeEffect' : side === 'seller' ? 'sellerSign' : 'buyerSign', {
      ...signedAt,
      pdfKey,
      pdfSha256: assembled.sha256,
      ...(otherSigned ? { effectiveAt: now } : {}),
    });
    const enterpriseName = side === 'seller' ? locked.context.seller.name : locked.context.buyer.name;
    await recordContractSignature(tx, {
      contractId: id,
      side,
      method: 'certificate',
      enterpriseId: actor.enterpriseId!,
      userId: actor.userId,
      enterpriseName,
      signerName: assembled.certificate.holder ?? actor.username,
      signerUsername: actor.username,
      certificateSerial: assembled.certificate.serialHex,
      certificateSummary: `${assembled.certificate.summary.subject}；颁发者 ${assembled.certificate.summary.issuer}；有效期 ${assembled.certificate.summary.notBefore} 至 ${assembled.certificate.summary.notAfter}`,
      pdfSha256: assembled.sha256,
      signedAt: assembled.session.signingTime,
    });
    await logContractEvent(tx, id, now, actor, `${CONTRACT_SIDES[side]}签署`, `${enterpriseName} 使用数字证书（序列号 ${assembled.certificate.serialHex}）签署`);
    if (otherSigned) await logContractEvent(tx, id, now, null, '合同生效', '双方均已签署，合同生效');
    return presentContractDetail(tx, actor, updated, held);
  });
}
