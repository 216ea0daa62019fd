import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, message } from 'antd';
import { AuctionState, formatFen } from '@coalx/shared';
import { hasAction } from '@/app/access';
import { errorMessage } from '@/app/request';
import { cancelAuction, getCancelPreview, pauseAuction, resumeAuction } from '@/services/monitor';

type Operation = 'pause' | 'resume' | 'cancel';

const TITLES: Record<Operation, string> = { pause: '暂停竞价', resume: '恢复竞价', cancel: '撤销竞价' };
const CANCELLABLE: number[] = [AuctionState.enrolling, AuctionState.waiting, AuctionState.bidding, AuctionState.paused];

/**
 * The trading centre's 暂停 / 恢复 / 撤销 of one auction (实时监控 and the staff view of the bidding room): each asks
 * for confirmation naming the trade number, pause and cancel with a reason told to the enrolled; a cancel shows
 * the deposits it releases before anything moves. Shown only to holders of operation-monitor.edit.
 */
export default function OperateAuction({ tradeId, hangState, size = 'small', onDone }: { tradeId: string; hangState: number; size?: 'small' | 'middle'; onDone?: () => void }) {
  const [open, setOpen] = useState<Operation | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const preview = useQuery({ queryKey: ['monitor', 'cancelPreview', tradeId], queryFn: () => getCancelPreview(tradeId), enabled: open === 'cancel' });
  if (!hasAction('operation-monitor.edit')) return null;

  const start = (operation: Operation) => {
    setReason('');
    setOpen(operation);
  };
  const confirm = async () => {
    if (!open) return;
    if (open !== 'resume' && reason.trim().length < 2) {
      message.error('请填写原因（至少 2 个字）');
      return;
    }
    setBusy(true);
    try {
      if (open === 'pause') await pauseAuction(tradeId, reason.trim());
      else if (open === 'resume') await resumeAuction(tradeId);
      else await cancelAuction(tradeId, reason.trim());
      message.success(open === 'pause' ? '竞价已暂停' : open === 'resume' ? '竞价已恢复' : '竞价已撤销，报名保证金已释放');
      setOpen(null);
      onDone?.();
    } catch (error) {
      message.error(errorMessage(error, '操作失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Space size={4} wrap>
        {hangState === AuctionState.bidding && (
          <Button size={size} onClick={() => start('pause')} data-testid={`pause-${tradeId}`}>
            暂停
          </Button>
        )}
        {hangState === AuctionState.paused && (
          <Button size={size} type="primary" onClick={() => start('resume')} data-testid={`resume-${tradeId}`}>
            恢复
          </Button>
        )}
        {CANCELLABLE.includes(hangState) && (
          <Button size={size} danger onClick={() => start('cancel')} data-testid={`cancel-${tradeId}`}>
            撤销
          </Button>
        )}
      </Space>
      <Modal
        open={open !== null}
        title={open ? `${TITLES[open]} ${tradeId}` : ''}
        okText={open ? `确认${TITLES[open].slice(0, 2)}` : '确认'}
        okButtonProps={{ danger: open === 'cancel', loading: busy, disabled: open === 'cancel' && !preview.data }}
        onCancel={() => setOpen(null)}
        onOk={() => void confirm()}
        destroyOnHidden
      >
        {open === 'pause' && <p>交易编号 {tradeId}：暂停后竞买人不能出价，剩余竞价时间冻结，恢复后按剩余时间继续计时。已报名企业将收到紧急通知。</p>}
        {open === 'resume' && <p>交易编号 {tradeId}：恢复后按暂停时的剩余时间继续计时，竞买人可继续出价。已报名企业将收到紧急通知。</p>}
        {open === 'cancel' && (
          <>
            <p>交易编号 {tradeId}：撤销后本场竞价不成交，不可恢复。</p>
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              message={
                preview.data
                  ? preview.data.depositCount > 0
                    ? `将释放 ${preview.data.depositCount} 家报名企业的保证金，共 ¥${formatFen(preview.data.depositTotal)}`
                    : '尚无企业报名，无保证金需要释放'
                  : '正在读取报名保证金…'
              }
              data-testid="cancel-deposits"
            />
          </>
        )}
        {open !== 'resume' && (
          <Input.TextArea
            rows={3}
            maxLength={200}
            showCount
            placeholder="请填写原因（必填，将告知发布企业和已报名企业）"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-testid="operate-reason"
          />
        )}
      </Modal>
    </>
  );
}
