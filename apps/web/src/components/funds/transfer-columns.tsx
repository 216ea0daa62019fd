import type { ProColumns } from '@ant-design/pro-components';
import { Typography } from 'antd';
import Money from '@/components/Money';
import type { Transfer } from '@/services/funds';
import { DepositInStatusTag, groupAccountNo, WithdrawalStatusTag } from '@/components/funds/tags';
import VoucherPreview from '@/components/funds/VoucherPreview';
import type { RowDetail } from '@/components/RowDetails';

const twoLines = (top: React.ReactNode, bottom: React.ReactNode) => (
  <div style={{ lineHeight: 1.5 }}>
    <div>{top}</div>
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {bottom}
    </Typography.Text>
  </div>
);

/**
 * Columns shared by the trader's own applications and the operator's queues; what the reviewer checks first
 * (enterprise, amount, voucher, account, state) comes first, at widths that keep it whole at 1440 px with no
 * scrolling. The trader also sees the reject reason; dates and times open under the row (transferDetails).
 */
export function transferColumns(kind: 'depositIn' | 'withdraw', options: { withEnterprise?: boolean } = {}): ProColumns<Transfer>[] {
  const deposit = kind === 'depositIn';
  const columns: ProColumns<Transfer>[] = [{ title: '编号', dataIndex: 'id', width: 70, render: (_, r) => `#${r.id}` }];
  if (options.withEnterprise) columns.push({ title: '企业名称', dataIndex: 'enterpriseName', width: 190, ellipsis: true });
  columns.push({ title: deposit ? '入金金额' : '出金金额', dataIndex: 'amount', align: 'right', width: 150, render: (_, r) => <Money fen={r.amount} strong /> });
  if (deposit) {
    columns.push({ title: '转账凭证', dataIndex: 'voucherUrl', width: 100, render: (_, r) => <VoucherPreview url={r.voucherUrl} /> });
  }
  columns.push(
    {
      title: deposit ? '付款账户' : '收款账户',
      dataIndex: 'accountNo',
      width: 210,
      render: (_, r) => twoLines(groupAccountNo(r.accountNo), r.bankName),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_, r) => (deposit ? <DepositInStatusTag status={r.status} /> : <WithdrawalStatusTag status={r.status} />),
    },
  );
  if (!options.withEnterprise) columns.push({ title: '备注 / 驳回原因', dataIndex: 'rejectReason', width: 190, render: (_, r) => note(r) });
  return columns;
}

/** The reject reason, else the applicant's remark, on one line with the rest in a tooltip. */
function note(r: Transfer) {
  if (r.status === 'rejected' && r.rejectReason) {
    return (
      <Typography.Text className="coalx-reject-reason" ellipsis={{ tooltip: r.rejectReason }} style={{ maxWidth: 170 }}>
        驳回：{r.rejectReason}
      </Typography.Text>
    );
  }
  return r.remark ? (
    <Typography.Text ellipsis={{ tooltip: r.remark }} style={{ maxWidth: 170 }}>
      {r.remark}
    </Typography.Text>
  ) : (
    '-'
  );
}

export function transferDetails(kind: 'depositIn' | 'withdraw', options: { withEnterprise?: boolean } = {}) {
  return (r: Transfer): RowDetail[] => [
    ...(kind === 'depositIn' ? [{ label: '转账日期', value: r.transferDate }] : []),
    { label: '申请时间', value: r.createdAt },
    { label: '处理时间', value: r.reviewedAt ?? '待处理' },
    ...(options.withEnterprise ? [{ label: '备注 / 驳回原因', value: note(r) }] : []),
  ];
}
