import { useEffect, useState } from 'react';
import { Alert, Descriptions, Drawer, Image, Spin } from 'antd';
import { INVOICE_DIRECTIONS, INVOICE_KINDS, INVOICE_MEDIA } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Money from '@/components/Money';
import PdfViewer from '@/components/PdfViewer';
import { fetchInvoiceFile, type InvoiceView } from '@/services/invoice';
import { InvoiceStatusTag } from './parts';

type Preview = { kind: 'image'; url: string } | { kind: 'pdf'; data: Uint8Array } | { kind: 'error'; text: string };

/** 发票详情: every field and the file itself (an image in place, a PDF in the viewer the contracts use). */
export default function InvoiceDetail({ invoice, onClose }: { invoice: InvoiceView | null; onClose: () => void }) {
  const [preview, setPreview] = useState<Preview | null>(null);

  useEffect(() => {
    if (!invoice) return;
    let objectUrl: string | null = null;
    let live = true;
    setPreview(null);
    fetchInvoiceFile(invoice.id)
      .then(async (blob) => {
        if (!live) return;
        if (blob.type === 'application/pdf') setPreview({ kind: 'pdf', data: new Uint8Array(await blob.arrayBuffer()) });
        else {
          objectUrl = URL.createObjectURL(blob);
          setPreview({ kind: 'image', url: objectUrl });
        }
      })
      .catch((error) => live && setPreview({ kind: 'error', text: errorMessage(error) }));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [invoice]);

  return (
    <Drawer title={invoice ? `发票详情：${invoice.number}` : ''} open={!!invoice} onClose={onClose} width={760} destroyOnHidden>
      {invoice ? (
        <>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="状态">
              <InvoiceStatusTag status={invoice.status} />
            </Descriptions.Item>
            <Descriptions.Item label="蓝字/红字">{INVOICE_DIRECTIONS[invoice.direction]}</Descriptions.Item>
            <Descriptions.Item label="发票类型">{INVOICE_KINDS[invoice.kind]}</Descriptions.Item>
            <Descriptions.Item label="发票介质">{INVOICE_MEDIA[invoice.medium]}</Descriptions.Item>
            <Descriptions.Item label="发票代码">{invoice.code || '-'}</Descriptions.Item>
            <Descriptions.Item label="发票号码">
              <span className="coalx-num">{invoice.number}</span>
            </Descriptions.Item>
            <Descriptions.Item label="开票日期">{invoice.issuedOn}</Descriptions.Item>
            <Descriptions.Item label="税率">{invoice.rate}%</Descriptions.Item>
            <Descriptions.Item label="不含税金额">
              <Money fen={invoice.amount} />
            </Descriptions.Item>
            <Descriptions.Item label="税额">
              <Money fen={invoice.tax} />
            </Descriptions.Item>
            <Descriptions.Item label="价税合计" span={2}>
              <Money fen={invoice.total} strong />
            </Descriptions.Item>
            <Descriptions.Item label="订单编号">{invoice.orderNo}</Descriptions.Item>
            <Descriptions.Item label="结算单号">{invoice.settlementNo}</Descriptions.Item>
            <Descriptions.Item label="开票方（卖方）">{invoice.sellerName}</Descriptions.Item>
            <Descriptions.Item label="受票方（买方）">{invoice.buyerName}</Descriptions.Item>
            <Descriptions.Item label="登记时间">{invoice.createdAt}</Descriptions.Item>
            <Descriptions.Item label="确认收票时间">{invoice.confirmedAt ?? '-'}</Descriptions.Item>
            {invoice.reversesNumber ? <Descriptions.Item label="红冲的发票" span={2}>{invoice.reversesNumber}</Descriptions.Item> : null}
            {invoice.reversedByNumber ? <Descriptions.Item label="红字发票" span={2}>{invoice.reversedByNumber}</Descriptions.Item> : null}
            {invoice.reverseReason ? <Descriptions.Item label="红冲原因" span={2}>{invoice.reverseReason}</Descriptions.Item> : null}
          </Descriptions>
          <div style={{ marginTop: 16 }} data-testid="invoice-preview">
            {!preview ? <Spin /> : null}
            {preview?.kind === 'image' ? <Image src={preview.url} alt={invoice.file.name} style={{ maxWidth: '100%' }} /> : null}
            {preview?.kind === 'pdf' ? <PdfViewer data={preview.data} title={invoice.file.name} minHeight={480} /> : null}
            {preview?.kind === 'error' ? <Alert type="error" showIcon message={preview.text} /> : null}
          </div>
        </>
      ) : null}
    </Drawer>
  );
}
