import { useSearchParams } from 'react-router';
import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { Button, message, Popconfirm, Radio, Space } from 'antd';
import { DEPOSIT_IN_STATUS, WITHDRAWAL_STATUS } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import { yuan } from '@/components/Money';
import { confirmDepositIn, listTransferQueue, payWithdrawal, type Transfer, type TransferKind } from '@/services/funds';
import { transferColumns, transferDetails } from '@/components/funds/transfer-columns';
import { rowDetails } from '@/components/RowDetails';
import { groupAccountNo } from '@/components/funds/tags';
import RejectForm from './RejectForm';

export const QUEUE_COUNT_KEY = ['funds', 'admin', 'pendingCount'] as const;

/** One of the trading centre's queues: pending first; confirm / pay with a Popconfirm, reject with a reason. */
export default function QueueTable({ kind }: { kind: TransferKind }) {
  // the 待办 links carry ?status=pending, the default; another state from a link opens that one
  const [search] = useSearchParams();
  const [status, setStatus] = useState(search.get('status') ?? 'pending');
  const [rejecting, setRejecting] = useState<Transfer | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const queryClient = useQueryClient();
  const deposit = kind === 'depositIn';
  const statuses = deposit ? DEPOSIT_IN_STATUS : WITHDRAWAL_STATUS;

  const refresh = () => {
    void actionRef.current?.reload();
    void queryClient.invalidateQueries({ queryKey: QUEUE_COUNT_KEY });
  };

  const approve = async (record: Transfer) => {
    setBusy(record.id);
    try {
      if (deposit) await confirmDepositIn(record.id);
      else await payWithdrawal(record.id);
      message.success(deposit ? '已确认入账' : '已确认付款');
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setBusy(null);
      refresh();
    }
  };

  const actions: ProColumns<Transfer> = {
    title: '操作',
    key: 'actions',
    width: 170,
    render: (_, record) =>
      record.status === 'pending' ? (
        <Space size={4}>
          <Authorized action="edit">
            <Popconfirm
              title={deposit ? '确认入账' : '确认付款'}
              description={
                <div style={{ maxWidth: 320 }}>
                  {deposit
                    ? `确认已收到「${record.enterpriseName}」的转账 ${yuan(record.amount)}，并入账到其资金账户？`
                    : `确认已向「${record.enterpriseName}」${record.bankName} ${groupAccountNo(record.accountNo)} 付款 ${yuan(record.amount)}？`}
                </div>
              }
              okText="确定"
              cancelText="取消"
              onConfirm={() => approve(record)}
            >
              <Button type="link" size="small" loading={busy === record.id}>
                {deposit ? '确认入账' : '确认付款'}
              </Button>
            </Popconfirm>
          </Authorized>
          <Authorized action="edit">
            <Button type="link" size="small" danger disabled={busy === record.id} onClick={() => setRejecting(record)}>
              驳回
            </Button>
          </Authorized>
        </Space>
      ) : (
        <span style={{ color: 'var(--coalx-text-2)' }}>已处理</span>
      ),
  };

  return (
    <>
      <ProTable<Transfer, { status: string }>
        rowKey="id"
        actionRef={actionRef}
        headerTitle={deposit ? '入金审核' : '出金审核'}
        tooltip={deposit ? '核对银行到账与转账凭证后确认入账；入账后金额计入企业可用余额' : '向企业已审核的结算账户付款后确认；驳回则解冻金额'}
        columns={[...transferColumns(kind, { withEnterprise: true }), actions]}
        params={{ status }}
        search={false}
        cardBordered
        options={{ reload: true, density: false, setting: false }}
        pagination={{ defaultPageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        tableLayout="fixed"
        expandable={rowDetails(transferDetails(kind, { withEnterprise: true }))}
        locale={{ emptyText: status === 'pending' ? '没有待处理的申请' : '暂无数据' }}
        toolBarRender={() => [
          <Radio.Group key="status" optionType="button" value={status} onChange={(e) => setStatus(e.target.value)}>
            {Object.entries(statuses).map(([value, text]) => (
              <Radio.Button key={value} value={value}>
                {text}
              </Radio.Button>
            ))}
            <Radio.Button value="">全部</Radio.Button>
          </Radio.Group>,
        ]}
        request={async ({ current = 1, pageSize = 10, status: filter }) => {
          const page = await listTransferQueue(kind, { pageNo: current, pageSize, status: filter || undefined });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <RejectForm kind={kind} record={rejecting} onClose={() => setRejecting(null)} onDone={refresh} />
    </>
  );
}
