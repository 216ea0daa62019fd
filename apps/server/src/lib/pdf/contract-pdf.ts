import { renderDocumentPdf, SIGNATURE_SEAL_ROOM } from './document-pdf';

/**
 * A contract as a PDF: its paragraphs (from renderContractText), the contract number in the header of every page,
 * and the two parties' signature block at the bottom of the last page, seller left and buyer right. Each party's
 * seal goes into the empty room of its column at CONTRACT_SEAL_PLACEMENT (prepareSignature's `placement`).
 */
export interface ContractPdfInput {
  contractNo: string;
  title: string;
  paragraphs: string[];
  createdAt: Date;
  seller: { name: string };
  buyer: { name: string };
}

/** Points on the last page, lower-left corner; the seals cover neither each other nor any text. */
export const CONTRACT_SEAL_PLACEMENT = {
  seller: { ...SIGNATURE_SEAL_ROOM.left },
  buyer: { ...SIGNATURE_SEAL_ROOM.right },
} as const;

export function renderContractPdf(input: ContractPdfInput): Promise<Uint8Array> {
  return renderDocumentPdf({
    title: input.title,
    header: `合同编号：${input.contractNo}`,
    paragraphs: input.paragraphs,
    createdAt: input.createdAt,
    signatureBlock: {
      left: [`卖方（盖章）：${input.seller.name}`, '日期：　　　年　　月　　日'],
      right: [`买方（盖章）：${input.buyer.name}`, '日期：　　　年　　月　　日'],
    },
  });
}
