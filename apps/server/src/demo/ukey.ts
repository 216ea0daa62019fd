import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { enterprises, ukeyCertificates, ukeyDevices, users } from '../db/schema/index';
import type { PlatformCa } from '../modules/ukey/ca';
import { issueCertificate, keyIdOf } from '../modules/ukey/certificates';

const DAY = 86400_000;
const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * seller01's enterprise: a device whose certificate was revoked (key lost), and its trader's request waiting for
 * seller01's approval. The keys are made here and thrown away: no browser holds them.
 */
export async function loadDemoUkey(tx: Tx, ca: PlatformCa, now: Date) {
  const userOf = async (username: string) => (await tx.select().from(users).where(eq(users.username, username)))[0]!;
  const seller = await userOf('seller01');
  const trader = await userOf('trader01');
  const [enterprise] = await tx.select().from(enterprises).where(eq(enterprises.id, seller.enterpriseId!));

  const lostKey = (await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const issuedAt = new Date(now.getTime() - 40 * DAY);
  const revokedAt = new Date(now.getTime() - 9 * DAY);
  const issued = await issueCertificate(ca, await x509.PublicKey.create(lostKey.publicKey, webcrypto), { ...enterprise!, realname: seller.realname, username: seller.username }, issuedAt);
  const [lost] = await tx
    .insert(ukeyDevices)
    .values({ enterpriseId: enterprise!.id, userId: seller.id, name: '旧办公电脑', status: 'revoked', requestedAt: issuedAt, revokedAt, revokeReason: 'keyCompromise', decidedBy: seller.id, createdAt: issuedAt, updatedAt: revokedAt })
    .returning();
  const [certificate] = await tx
    .insert(ukeyCertificates)
    .values({
      deviceId: lost!.id,
      enterpriseId: enterprise!.id,
      userId: seller.id,
      serialNumber: issued.serialNumber,
      subject: issued.subject,
      issuer: issued.issuer,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      fingerprint: issued.fingerprint,
      keyId: issued.keyId,
      der: issued.der,
      revokedAt,
      revokeReason: 'keyCompromise',
      issuedBy: seller.id,
      createdAt: issuedAt,
    })
    .returning();
  await tx.update(ukeyDevices).set({ currentCertificateId: certificate!.id }).where(eq(ukeyDevices.id, lost!.id));

  const traderKey = (await webcrypto.subtle.generateKey(EC, false, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: [{ CN: ['调度室电脑'] }], keys: traderKey, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } }, webcrypto);
  const requestedAt = new Date(now.getTime() - 2 * 3600_000);
  await tx.insert(ukeyDevices).values({
    enterpriseId: enterprise!.id,
    userId: trader.id,
    name: '调度室电脑',
    status: 'pending',
    pendingCsr: Buffer.from(csr.rawData).toString('base64'),
    pendingKeyId: await keyIdOf(csr.publicKey),
    requestedAt,
    createdAt: requestedAt,
    updatedAt: requestedAt,
  });
}
