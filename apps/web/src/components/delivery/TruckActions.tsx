import { useState } from 'react';
import { ProForm, ProFormRadio, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Button, Modal, Space, message } from 'antd';
import { MAX_DISPUTE_PHOTOS, formatTons, kgToTonsText, tonsTextToKg, type DispatchAction } from '@coalx/shared';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import Upload from '@/components/Upload';
import { answerDispute, cancelTruck, disputeTruck, ruleDispute, signForTruck, type DispatchView } from '@/services/delivery';
import TicketModal from './TicketModal';

const LABELS: Record<DispatchAction, string> = {
  cancel: '取消派车',
  load: '录入装车磅单',
  arrive: '录入到货磅单',
  sign: '签收',
  dispute: '提出异议',
  answer: '答复异议',
  rule: '裁定',
};

/** The weight the buyer signs for: the net on the contract's weighing basis (the server decides; shown here first). */
function signWeight(truck: DispatchView) {
  return truck.weighingBasis === 'seller' ? truck.loadedNetKg : truck.arrivedNetKg;
}

/**
 * The buttons a truck offers the viewer now (the server lists them in `actions`), with their dialogs: weigh
 * tickets, sign-for, dispute, the seller's answer, the operator's ruling, cancelling. `print` adds 打印派车单.
 */
export default function TruckActions({
  truck,
  onChanged,
  print = false,
  prominent = false,
}: {
  truck: DispatchView;
  onChanged: (truck: DispatchView) => void;
  print?: boolean;
  /** large full-width buttons (the gate page on a phone) instead of links */
  prominent?: boolean;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState<DispatchAction | null>(null);
  const close = () => setOpen(null);
  const done = (updated: DispatchView) => {
    setOpen(null);
    onChanged(updated);
  };
  const run = async (work: () => Promise<DispatchView>, success: string) => {
    try {
      done(await work());
      message.success(success);
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    }
  };

  const sign = () => {
    const kg = signWeight(truck);
    Modal.confirm({
      title: `签收 ${truck.plateNo}（${truck.dispatchNo}）`,
      content: `按合同约定的计量依据，本车签收量为 ${formatTons(kg)}${truck.lossExceeded ? '；本车途损已超过合理途损，如有异议请选择「提出异议」' : ''}。签收后不可撤销。`,
      okText: '确认签收',
      cancelText: '取消',
      onOk: () => run(() => signForTruck(truck.id), '已签收'),
    });
  };

  return (
    <>
      <Space size={prominent ? 12 : 0} wrap={!prominent} direction={prominent ? 'vertical' : 'horizontal'} className={prominent ? 'coalx-truck-actions coalx-truck-actions-prominent' : 'coalx-truck-actions'}>
        {truck.actions.map((action) => (
          <Button
            key={action}
            type={prominent ? (action === 'cancel' || action === 'dispute' ? 'default' : 'primary') : 'link'}
            size={prominent ? 'large' : 'small'}
            block={prominent}
            danger={action === 'cancel' || action === 'dispute'}
            onClick={() => (action === 'sign' ? sign() : setOpen(action))}
          >
            {LABELS[action]}
          </Button>
        ))}
        {print && truck.status === 'dispatched' && truck.gateToken ? (
          <Button type="link" size="small" onClick={() => navigate(`/logistics/dispatchNote?id=${truck.id}`)}>
            打印派车单
          </Button>
        ) : null}
      </Space>
      <TicketModal truck={open === 'load' ? truck : null} stage="loading" onClose={close} onDone={done} />
      <TicketModal truck={open === 'arrive' ? truck : null} stage="arrival" onClose={close} onDone={done} />
      <GuardedModalForm<{ reason: string }>
        title={`取消派车：${truck.dispatchNo}`}
        open={open === 'cancel'}
        onOpenChange={(o) => !o && close()}
        width={480}
        modalProps={{ destroyOnHidden: true }}
        submitter={{ searchConfig: { submitText: '确认取消', resetText: '返回' } }}
        onFinish={(v) => run(() => cancelTruck(truck.id, { reason: v.reason.trim() }), '已取消派车')}
      >
        <p>取消后本车计划量 {formatTons(truck.plannedKg)} 退回订单，可重新派车。</p>
        <ProFormTextArea name="reason" label="取消原因" rules={[{ required: true, min: 2, max: 200, message: '请输入取消原因（2–200 字）' }]} />
      </GuardedModalForm>
      <GuardedModalForm<{ reason: string; photos?: string[] }>
        title={`提出签收异议：${truck.plateNo}`}
        open={open === 'dispute'}
        onOpenChange={(o) => !o && close()}
        width={560}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '提交异议', resetText: '取消' } }}
        onFinish={(v) => run(() => disputeTruck(truck.id, { reason: v.reason.trim(), photos: v.photos ?? [] }), '异议已提交，等待卖方答复及交易中心裁定')}
      >
        <p>
          装车净重 {formatTons(truck.loadedNetKg)}，到货净重 {formatTons(truck.arrivedNetKg)}。
        </p>
        <ProFormTextArea name="reason" label="异议原因" placeholder="如：亏吨、煤质不符、篷布破损" rules={[{ required: true, min: 2, max: 300, message: '请输入异议原因（2–300 字）' }]} />
        <ProForm.Item name="photos" label={`现场照片（最多 ${MAX_DISPUTE_PHOTOS} 张）`}>
          <Upload visibility="private" maxCount={MAX_DISPUTE_PHOTOS} />
        </ProForm.Item>
      </GuardedModalForm>
      <GuardedModalForm<{ answer: string }>
        title={`答复签收异议：${truck.plateNo}`}
        open={open === 'answer'}
        onOpenChange={(o) => !o && close()}
        width={520}
        modalProps={{ destroyOnHidden: true }}
        submitter={{ searchConfig: { submitText: '提交答复', resetText: '取消' } }}
        onFinish={(v) => run(() => answerDispute(truck.id, { answer: v.answer.trim() }), '答复已提交')}
      >
        <p>买方异议：{truck.disputeReason}</p>
        <ProFormTextArea name="answer" label="答复内容" rules={[{ required: true, min: 2, max: 300, message: '请输入答复内容（2–300 字）' }]} />
      </GuardedModalForm>
      <GuardedModalForm<{ decision: 'signed' | 'refused'; signed?: string; note: string }>
        title={`裁定签收异议：${truck.plateNo}（${truck.dispatchNo}）`}
        open={open === 'rule'}
        onOpenChange={(o) => !o && close()}
        width={580}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        initialValues={{ decision: 'signed', signed: truck.arrivedNetKg !== null ? kgToTonsText(truck.arrivedNetKg) : '' }}
        submitter={{ searchConfig: { submitText: '确认裁定', resetText: '取消' } }}
        onFinish={(v) => {
          const signedKg = v.decision === 'signed' ? tonsTextToKg(v.signed) : undefined;
          if (v.decision === 'signed' && (signedKg === null || signedKg === undefined || signedKg <= 0)) {
            message.error('请填写裁定签收量（吨）');
            return Promise.resolve(false);
          }
          return run(() => ruleDispute(truck.id, { decision: v.decision, signedKg: signedKg ?? undefined, note: v.note.trim() }), '已裁定');
        }}
      >
        <p>买方异议：{truck.disputeReason}</p>
        <p>卖方答复：{truck.sellerAnswer ?? '尚未答复'}</p>
        <p>
          装车净重 {formatTons(truck.loadedNetKg)}，到货净重 {formatTons(truck.arrivedNetKg)}。
        </p>
        <ProFormRadio.Group name="decision" label="裁定结果" options={[{ label: '按裁定量签收', value: 'signed' }, { label: '拒收', value: 'refused' }]} />
        <ProFormText name="signed" label="裁定签收量（吨）" placeholder="不超过装车净重" />
        <ProFormTextArea name="note" label="裁定说明" rules={[{ required: true, min: 2, max: 300, message: '请输入裁定说明（2–300 字）' }]} />
      </GuardedModalForm>
    </>
  );
}
