import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { GATE_PASS_PATTERN, type GatePassStage } from '@coalx/shared';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { gatePasses, type GatePass } from '../../db/schema/index';
import { ensurePlatformSecret } from '../system/platform-secret.service';

/**
 * The weighbridge by QR code (issue 32). A truck's dispatch note carries two passes: one for the mine's weighbridge
 * (the loading ticket, the seller's), one for the plant's (the arrival ticket, the buyer's). A pass is text the
 * clerk's phone opens without an account:
 *
 *   {dispatchId}.{L|A}.{enterpriseId}.{tokenId}.{HMAC-SHA256 of the rest, 16 bytes, base64url}
 *
 * signed with the platform's gate-pass key (platform_secret, shared by every server process). The signature says
 * which truck, stage and enterprise the pass was made for, so a pass cannot be turned to another truck; the
 * gate_pass row says whether it still records (used, revoked, expired).
 */

const KEY_NAME = 'gate-pass-key';
const STAGE_LETTER: Record<GatePassStage, 'L' | 'A'> = { loading: 'L', arrival: 'A' };

export interface GatePassClaim {
  dispatchId: number;
  stage: GatePassStage;
  enterpriseId: number;
  tokenId: string;
}

/** The key signing passes: made once per database, race-free (ensurePlatformSecret). */
export async function gatePassKey(db: Db | Tx): Promise<Buffer> {
  const text = await ensurePlatformSecret(db as Db, KEY_NAME, async () => randomBytes(32).toString('base64url'));
  return Buffer.from(text, 'base64url');
}

function signature(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(`coalx-gate-pass|${body}`).digest().subarray(0, 16).toString('base64url');
}

export function signGatePass(key: Buffer, claim: GatePassClaim): string {
  const body = `${claim.dispatchId}.${STAGE_LETTER[claim.stage]}.${claim.enterpriseId}.${claim.tokenId}`;
  return `${body}.${signature(key, body)}`;
}

/** The claim of a well-formed pass whose signature holds; null for anything else (no database read). */
export function verifyGatePass(key: Buffer, text: string): GatePassClaim | null {
  if (!GATE_PASS_PATTERN.test(text)) return null;
  const cut = text.lastIndexOf('.');
  const body = text.slice(0, cut);
  const given = Buffer.from(text.slice(cut + 1), 'base64url');
  const expected = Buffer.from(signature(key, body), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [dispatchId, letter, enterpriseId, tokenId] = body.split('.') as [string, string, string, string];
  const id = Number(dispatchId);
  const enterprise = Number(enterpriseId);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(enterprise)) return null;
  return { dispatchId: id, stage: letter === 'L' ? 'loading' : 'arrival', enterpriseId: enterprise, tokenId };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Both passes of a new truck; the arrival pass's days start again when the truck is loaded (renewArrivalPass). */
export async function issueGatePasses(tx: Tx, truck: { id: number; sellerEnterpriseId: number; buyerEnterpriseId: number }, now: Date, days: number) {
  const expiresAt = new Date(now.getTime() + days * DAY_MS);
  await tx.insert(gatePasses).values([
    { tokenId: randomBytes(16).toString('base64url'), dispatchId: truck.id, stage: 'loading', enterpriseId: truck.sellerEnterpriseId, expiresAt, createdAt: now },
    { tokenId: randomBytes(16).toString('base64url'), dispatchId: truck.id, stage: 'arrival', enterpriseId: truck.buyerEnterpriseId, expiresAt, createdAt: now },
  ]);
}

/** Loaded: the plant's pass runs for its days from now. */
export async function renewArrivalPass(tx: Tx, dispatchId: number, now: Date, days: number) {
  await tx
    .update(gatePasses)
    .set({ expiresAt: new Date(now.getTime() + days * DAY_MS) })
    .where(and(eq(gatePasses.dispatchId, dispatchId), eq(gatePasses.stage, 'arrival'), isNull(gatePasses.usedAt), isNull(gatePasses.revokedAt)));
}

/** A stage's ticket is recorded (by the pass or by a signed-in user): its pass records no more. */
export async function useGatePass(tx: Tx, dispatchId: number, stage: GatePassStage, now: Date) {
  await tx.update(gatePasses).set({ usedAt: now }).where(and(eq(gatePasses.dispatchId, dispatchId), eq(gatePasses.stage, stage), isNull(gatePasses.usedAt)));
}

/** The truck is cancelled: neither pass opens it any more. */
export async function revokeGatePasses(tx: Tx, dispatchId: number, now: Date) {
  await tx.update(gatePasses).set({ revokedAt: now }).where(and(eq(gatePasses.dispatchId, dispatchId), isNull(gatePasses.revokedAt)));
}

/** The pass row of a verified claim, only if it was made for exactly that truck, stage and enterprise. */
export async function gatePassOf(db: Db | Tx, claim: GatePassClaim, lock = false): Promise<GatePass | null> {
  const query = db.select().from(gatePasses).where(eq(gatePasses.tokenId, claim.tokenId)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row || row.dispatchId !== claim.dispatchId || row.stage !== claim.stage || row.enterpriseId !== claim.enterpriseId) return null;
  return row;
}

/** Why the pass no longer records, in the clerk's words; null while it does. */
export function gatePassClosedReason(pass: GatePass, truckStatus: string, now: Date): string | null {
  if (pass.revokedAt || truckStatus === 'cancelled') return '派车单已取消，二维码已失效';
  if (pass.usedAt) return pass.stage === 'loading' ? '装车磅单已录入，二维码已失效' : '到货磅单已录入，二维码已失效';
  if (pass.expiresAt.getTime() <= now.getTime()) return '二维码已过期，请联系派车方重新打印派车单';
  if (pass.stage === 'arrival' && truckStatus === 'dispatched') return '车辆尚未装车，装车后方可录入到货磅单';
  if (pass.stage === 'loading' && truckStatus !== 'dispatched') return '装车磅单已录入，二维码已失效';
  if (pass.stage === 'arrival' && truckStatus !== 'loaded') return '到货磅单已录入，二维码已失效';
  return null;
}

/** The passes of trucks as text, for the dispatch note (callers decide who may see which). */
export async function gatePassTexts(db: Db, dispatchIds: number[]): Promise<Map<number, { loading: string | null; arrival: string | null }>> {
  const found = new Map<number, { loading: string | null; arrival: string | null }>();
  if (dispatchIds.length === 0) return found;
  const rows = await db.select().from(gatePasses).where(inArray(gatePasses.dispatchId, dispatchIds));
  if (rows.length === 0) return found;
  const key = await gatePassKey(db);
  for (const row of rows) {
    const entry = found.get(row.dispatchId) ?? { loading: null, arrival: null };
    entry[row.stage as GatePassStage] = signGatePass(key, { dispatchId: row.dispatchId, stage: row.stage as GatePassStage, enterpriseId: row.enterpriseId, tokenId: row.tokenId });
    found.set(row.dispatchId, entry);
  }
  return found;
}
