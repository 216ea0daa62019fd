import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, enterprises, ukeyCertificates, ukeyDevices, users } from '../db/schema/index';
import { makeMissingContracts } from '../flows/make-contract';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { completeContractSignature, prepareContractSignature } from '../flows/sign-contract';
import { expireOverdueContracts } from '../modules/contract/contract.service';
import type { FileStorage } from '../modules/files/storage';
import { platformSignTrust } from '../modules/sign/platform-trust';
import type { SignTrust } from '../modules/sign/sign.trust';
import type { PlatformCa } from '../modules/ukey/ca';
import { issueCertificate } from '../modules/ukey/certificates';
import { demoPayAuth } from './pay-password';

const DAY = 86400_000;
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A key device of the user's, issued by the platform CA; the key is kept only for the demo's own signatures. */
async function demoDevice(db: Db, ca: PlatformCa, username: string, name: string, issuedAt: Date) {
  const [user] = await db.select().from(users).where(eq(users.username, username));
  const [enterprise] = await db.select().from(enterprises).where(eq(enterprises.id, user!.enterpriseId!));
  const keys = (await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const issued = await issueCertificate(ca, await x509.PublicKey.create(keys.publicKey, webcrypto), { ...enterprise!, realname: user!.realname, username }, issuedAt);
  const [device] = await db
    .insert(ukeyDevices)
    .values({ enterpriseId: enterprise!.id, userId: user!.id, name, status: 'active', requestedAt: issuedAt, decidedBy: user!.id, createdAt: issuedAt, updatedAt: issuedAt })
    .returning();
  const [certificate] = await db
    .insert(ukeyCertificates)
    .values({
      deviceId: device!.id,
      enterpriseId: enterprise!.id,
      userId: user!.id,
      serialNumber: issued.serialNumber,
      subject: issued.subject,
      issuer: issued.issuer,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      fingerprint: issued.fingerprint,
      keyId: issued.keyId,
      der: issued.der,
      issuedBy: user!.id,
      createdAt: issuedAt,
    })
    .returning();
  await db.update(ukeyDevices).set({ currentCertificateId: certificate!.id }).where(eq(ukeyDevices.id, device!.id));
  const actor: Actor = { userId: user!.id, username, role: 'enterprise_admin', enterpriseId: enterprise!.id, sessionId: 0 };
  return { actor, deviceId: device!.id, privateKey: keys.privateKey };
}

/** What the browser does when a party signs: the server prepares, the key signs, the server assembles. */
async function signAs(db: Db, storage: FileStorage, clock: Clock, trust: SignTrust, party: Awaited<ReturnType<typeof demoDevice>>, contractId: number) {
  const auth = await demoPayAuth(db, party.actor);
  const prepared = await prepareContractSignature(db, storage, clock, trust, party.actor, contractId, { deviceId: party.deviceId, ...auth });
  const raw = await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, party.privateKey, Buffer.from(prepared.signedAttributes, 'base64'));
  await completeContractSignature(db, storage, clock, trust, party.actor, contractId, { sessionId: prepared.sessionId, signature: Buffer.from(raw).toString('base64'), ...auth });
}

/**
 * Every demo deal gets its contract, as the platform makes them; then a living contract desk: the oldest deal
 * between 晋北煤业 and 华东电力 signed by both (已生效, two seals in its PDF), the next one signed by the seller
 * only, and the deals of days ago past their one-working-day deadline (逾期未签, on the operator's to-do).
 */
export async function loadDemoContracts(db: Db, storage: FileStorage, ca: PlatformCa, now: Date) {
  const clock: Clock = { now: () => now };
  // the demo's devices are the platform CA's, and their signatures are checked as the platform checks them
  const trust = platformSignTrust(ca);
  await makeMissingContracts(db, storage, clock, (err) => {
    throw err;
  });
  const seller = await demoDevice(db, ca, 'seller01', '合同签署电脑', new Date(now.getTime() - 30 * DAY));
  const buyer = await demoDevice(db, ca, 'buyer01', '燃料部合同专用电脑', new Date(now.getTime() - 20 * DAY));
  const between = await db
    .select({ id: contracts.id, sellerEnterpriseId: contracts.sellerEnterpriseId, buyerEnterpriseId: contracts.buyerEnterpriseId })
    .from(contracts)
    .orderBy(sql`${contracts.context}->>'dealAt'`);
  const pair = between.filter((c) => c.sellerEnterpriseId === seller.actor.enterpriseId && c.buyerEnterpriseId === buyer.actor.enterpriseId);
  if (pair[0]) {
    await signAs(db, storage, clock, trust, seller, pair[0].id);
    await signAs(db, storage, clock, trust, buyer, pair[0].id);
  }
  if (pair[1]) await signAs(db, storage, clock, trust, seller, pair[1].id);
  await expireOverdueContracts(db, now);
}
