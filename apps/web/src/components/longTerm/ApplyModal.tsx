import { ProFormTextArea } from '@ant-design/pro-components';
import { Descriptions, message } from 'antd';
import { formatTons, monthText } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { applyOffer, type LongTermDetail, type LongTermSummary } from '@/services/longTerm';

/**
 * 申请 (a buyer, on an open offer): the offer's essentials and a note for the seller. The seller accepts one
 * application; the framework contract then waits for both signatures.
 */
export default function ApplyModal({ deal, onClose, onDone }: { deal: LongTermSummary | null; onClose: () => void; onDone: (detail: LongTermDetail) => void }) {
  return (
    <GuardedModalForm<{ note?: string }>
      title={deal ? `申请长协 · ${deal.dealNo}` : '申请长协'}
      open={deal !== null}
      onOpenChange={(o) => !o && onClose()}
      width={600}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{ searchConfig: { submitText: '提交申请', resetText: '取消' } }}
      onFinish={async (v) => {
        try {
          const detail = await applyOffer(deal!.id, v.note?.trim() ?? '');
          message.success('已提交申请，等待卖方处理');
          onDone(detail);
          return true;
        } catch (error) {
          message.error(errorMessage(error, '申请失败，请稍后重试'));
          return false;
        }
      }}
    >
      {deal ? (
        <Descriptions
          size="small"
          column={2}
          bordered
          style={{ marginBottom: 16 }}
          items={[
            { key: 'seller', label: '卖方', span: 2, children: deal.sellerName },
            { key: 'product', label: '产品', children: deal.productName },
            { key: 'target', label: '征集方式', children: deal.targetName ? '定向（本企业）' : '公开征集' },
            { key: 'period', label: '合同期', span: 2, children: `${monthText(deal.periodStart)} 至 ${monthText(deal.periodEnd)}` },
            { key: 'planned', label: '计划总量', children: formatTons(deal.plannedKg) },
            { key: 'deadline', label: '申请截止', children: deal.applyDeadline },
            { key: 'pricing', label: '定价', span: 2, children: deal.pricingText },
          ]}
        />
      ) : null}
      <ProFormTextArea
        name="note"
        label="申请说明"
        placeholder="选填，如本企业月度需求、接卸能力等"
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
      />
    </GuardedModalForm>
  );
}
