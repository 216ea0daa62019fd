import { LongTermTerminateSchema } from '@coalx/shared';
import { ask } from '@/components/longTerm/LongTermParts';
import ReasonModal from '@/components/ReasonModal';
import { terminateLongTerm, type LongTermDetail } from '@/services/longTerm';

/** 终止长协 (the trading centre): a reason, then a confirmation saying what ends with it and what does not. */
export default function TerminateModal({ detail, open, onOpenChange, onDone }: { detail: LongTermDetail; open: boolean; onOpenChange: (open: boolean) => void; onDone: (next: LongTermDetail) => void }) {
  return (
    <ReasonModal
      title={`终止长协 · ${detail.dealNo}`}
      open={open}
      onOpenChange={onOpenChange}
      label="终止原因"
      placeholder="如：买方连续三个月履约率低于预警线，经双方协商终止"
      minLength={2}
      schema={LongTermTerminateSchema}
      confirm={() =>
        ask({
          title: `确认终止长协 ${detail.dealNo}？`,
          content: `终止后不可恢复：待确认的月度调运将被撤回，框架合同${detail.contractNo ? ` ${detail.contractNo} ` : ''}随之终止；已确认调运的月度合同与订单照常履行。`,
          okText: '确认终止',
          danger: true,
        })
      }
      submit={(values) => terminateLongTerm(detail.id, values.reason)}
      done="长协已终止"
      failure="终止失败，请稍后重试"
      onDone={onDone}
    />
  );
}
