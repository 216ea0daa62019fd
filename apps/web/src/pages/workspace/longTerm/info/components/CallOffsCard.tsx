import { useState } from 'react';
import { ProFormTextArea } from '@ant-design/pro-components';
import { Button, Card, Space, Table, message } from 'antd';
import { Link } from 'react-router';
import { CALL_OFF_INITIATORS, formatFen, formatPrice, formatTons, monthText } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { CallOffStatusTag, runAction } from '@/components/longTerm/LongTermParts';
import Money from '@/components/Money';
import { useMoneyAction } from '@/components/MoneyConfirm';
import { decideCallOff, withdrawCallOff, type CallOff, type LongTermDetail } from '@/services/longTerm';

/**
 * 月度调运: every call-off with its price, amount and delivery days, who initiated it and its state; once confirmed
 * its deal, monthly contract and order. The other side confirms (the amount shown first) or declines with a reason;
 * the initiator may withdraw while it waits.
 */
export default function CallOffsCard({ detail, onChange, extra }: { detail: LongTermDetail; onChange: (next: LongTermDetail) => void; extra?: React.ReactNode }) {
  const [declining, setDeclining] = useState<CallOff | null>(null);
  const seller = detail.mySide === 'seller';
  const { act, holder } = useMoneyAction();

  /** Confirming is a deal of the amount shown: confirmed first, then the pay password or key (useMoneyAction). */
  const accept = async (c: CallOff) => {
    const confirmation = {
      title: '确认月度调运',
      rows: [
        { label: '调运单号', value: c.callOffNo },
        { label: '调运月份', value: monthText(c.month) },
        { label: '调运数量', value: formatTons(c.quantityKg) },
        { label: '单价', value: formatPrice(c.priceFen) },
        { label: '交收期', value: `${c.deliveryDateStart} 至 ${c.deliveryDateEnd}` },
        { label: '金额', value: <Money fen={c.amountFen} strong />, strong: true },
      ],
      next: `确认即成交：生成月度合同（双方在「合同管理」签署）与订单，${seller ? '买方' : '本企业'}按合同付款后发运。`,
      okText: '确认成交',
    };
    try {
      const next = await act(confirmation, (auth) => decideCallOff(c.id, true, '', auth), {
        action: 'call_off_confirm',
        payload: { callOffId: c.id },
        title: '确认月度调运：请输入支付密码',
        description: `调运单 ${c.callOffNo}，${formatTons(c.quantityKg)}，金额 ¥${formatFen(c.amountFen)}`,
      });
      if (!next) return;
      message.success('已确认，月度合同生成后请双方签署');
      onChange(next);
    } catch (error) {
      message.error(errorMessage(error));
    }
  };

  const withdraw = async (c: CallOff) => {
    const next = await runAction(() => withdrawCallOff(c.id), '已撤回', {
      title: `撤回调运 ${c.callOffNo}？`,
      content: `撤回后 ${formatTons(c.quantityKg)} 退回本月可调运量。`,
      okText: '撤回',
    });
    if (next) onChange(next);
  };

  return (
    <Card title={`月度调运（${detail.callOffs.length}）`} size="small" className="coalx-lt-row" extra={extra}>
      <Table<CallOff>
        data-testid="lt-calloffs"
        rowKey="id"
        size="small"
        pagination={false}
        tableLayout="fixed"
        dataSource={detail.callOffs}
        locale={{ emptyText: detail.status === 'executing' ? '本长协尚未发起调运' : '长协执行后按月发起调运' }}
        columns={[
          { title: '调运单号', dataIndex: 'callOffNo', width: 128, render: (v: string) => <span className="coalx-num">{v}</span> },
          { title: '月份', dataIndex: 'month', width: 70, render: (v: string) => <span className="coalx-num">{v}</span> },
          { title: '数量 (吨)', dataIndex: 'quantityKg', width: 92, align: 'right', render: (v: number) => <span className="coalx-num">{formatTons(v, false)}</span> },
          { title: '单价 (元/吨)', dataIndex: 'priceFen', width: 88, align: 'right', render: (v: number) => <span className="coalx-num">{formatPrice(v).replace(' 元/吨', '')}</span> },
          { title: '金额 (¥)', dataIndex: 'amountFen', width: 118, align: 'right', render: (v: number) => <Money fen={v} strong /> },
          {
            title: '交收期',
            key: 'days',
            width: 92,
            render: (_, c) => (
              <div className="coalx-lt-lines coalx-num">
                <div>{c.deliveryDateStart}</div>
                <div className="coalx-lt-sub">至 {c.deliveryDateEnd}</div>
              </div>
            ),
          },
          { title: '发起方', dataIndex: 'initiator', width: 72, render: (v: CallOff['initiator']) => CALL_OFF_INITIATORS[v] },
          {
            title: '状态',
            dataIndex: 'status',
            width: 72,
            render: (_, c) => (
              <span title={c.reason ? `原因：${c.reason}` : undefined}>
                <CallOffStatusTag status={c.status} />
              </span>
            ),
          },
          {
            title: '成交 / 合同 / 订单',
            key: 'links',
            width: 140,
            render: (_, c) =>
              c.dealNo ? (
                <div className="coalx-lt-lines coalx-num">
                  <div title="成交编号">{c.dealNo}</div>
                  <div>{c.contractId ? <Link to={`/contract/info?id=${c.contractId}`}>{c.contractNo}</Link> : <span className="coalx-lt-sub">合同生成中</span>}</div>
                  <div>{c.orderId ? <Link to={`/order/info?id=${c.orderId}`}>{c.orderNo}</Link> : <span className="coalx-lt-sub">合同生效后生成订单</span>}</div>
                </div>
              ) : (
                <span className="coalx-lt-sub">{c.reason ? `原因：${c.reason}` : '-'}</span>
              ),
          },
          { title: '已签收 (吨)', dataIndex: 'deliveredKg', width: 88, align: 'right', render: (v: number, c) => (c.dealNo ? <span className="coalx-num">{formatTons(v, false)}</span> : '-') },
          {
            title: '操作',
            key: 'op',
            width: 92,
            render: (_, c) => (
              <Space size={0} wrap>
                {c.actions.includes('accept') ? (
                  <Button type="link" size="small" onClick={() => void accept(c)}>
                    确认
                  </Button>
                ) : null}
                {c.actions.includes('decline') ? (
                  <Button type="link" size="small" danger onClick={() => setDeclining(c)}>
                    拒绝
                  </Button>
                ) : null}
                {c.actions.includes('withdraw') ? (
                  <Button type="link" size="small" onClick={() => void withdraw(c)}>
                    撤回
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <GuardedModalForm<{ reason: string }>
        title={declining ? `拒绝调运 · ${declining.callOffNo}` : '拒绝调运'}
        open={declining !== null}
        onOpenChange={(o) => !o && setDeclining(null)}
        width={520}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '确认拒绝', resetText: '取消' }, submitButtonProps: { danger: true } }}
        onFinish={async (v) => {
          try {
            const next = await decideCallOff(declining!.id, false, v.reason.trim());
            message.success('已拒绝');
            onChange(next);
            setDeclining(null);
            return true;
          } catch (error) {
            message.error(errorMessage(error));
            return false;
          }
        }}
      >
        {declining ? (
          <p>
            {CALL_OFF_INITIATORS[declining.initiator]}的调运：{formatTons(declining.quantityKg)}，金额 <Money fen={declining.amountFen} strong />。拒绝后数量退回本月可调运量。
          </p>
        ) : null}
        <ProFormTextArea
          name="reason"
          label="拒绝原因"
          placeholder="如：本月接卸能力不足，请调整到下旬"
          fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
          rules={[{ required: true, message: '请输入拒绝原因' }, { min: 2, message: '拒绝原因至少 2 个字' }]}
        />
      </GuardedModalForm>
      {holder}
    </Card>
  );
}
