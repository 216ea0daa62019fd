import { createHash } from 'node:crypto';
import { CONTRACT_KINDS, renderContractText, type ContractContext, type ContractKind } from '@coalx/shared';
import type { FileStorage } from '../files/storage';
import { renderContractPdf } from '../../lib/pdf/contract-pdf';

/**
 * A contract's text and unsigned PDF, made from its template body and its context. The same inputs give the same
 * bytes (the renderer is deterministic), so regenerating after a crash or an edit is safe.
 */
export async function renderContractDocument(templateBody: string, context: ContractContext, createdAt: Date) {
  const text = renderContractText(templateBody, context);
  const pdf = await renderContractPdf({
    contractNo: context.contractNo,
    title: CONTRACT_KINDS[context.kind as ContractKind] ?? '煤炭买卖合同',
    paragraphs: text,
    createdAt,
    seller: { name: context.seller.name },
    buyer: { name: context.buyer.name },
  });
  return { text, pdf: Buffer.from(pdf), sha256: sha256Hex(pdf) };
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Where a contract's PDF of a given content lives: one file per content, so a file is never overwritten. */
export const contractPdfKey = (contractNo: string, sha256: string) => `contracts/${contractNo}/${sha256}.pdf`;

export async function readAll(storage: FileStorage, key: string): Promise<Buffer | null> {
  const stream = await storage.read(key);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
