import type { ProColumns } from '@ant-design/pro-components';
import { Typography } from 'antd';
import Money from '@/components/Money';
import type { Transfer } from '@/services/funds';
import { DepositInStatusTag, groupAccountNo, WithdrawalStatusTag } from '@/components/funds/tags';
import VoucherPreview from '@/components/funds/VoucherPreview';

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
 * (enterprise, amount, voucher, account) comes first so it is visible without scrolling.
 */
export function transferColumns(kind: 'depositIn' | 'withdraw', options: { withEnterprise?: boolean } = {}): ProColumns<Transfer>[] {
  const deposit = kind === 'depositIn';
  const columns: ProColumns<Transfer>[] = [{ title: '编号', dataIndex: 'id', width: 70, render: (_, r) => `#${r.id}` }];
  if (options.withEnterprise) columns.push({ title: '企业名称', dataIndex: 'enterpriseName', width: 190, ellipsis: true });
  columns.push({ title: deposit ? '入金金额' : '出金金额', dataIndex: 'amount', align: 'right', width: 150, render: (_, r) => <Money fen={r.amount} strong /> });
  if (deposit) {
    columns.push({ title: '转账凭证', dataIndex: 'voucherUrl', width: 100, render: (_, r) => <VoucherPreview url={r.voucherUrl} /> });
  }
  columns.push({
    title: deposit ? '付款账户' : '收款账户',
    dataIndex: 'accountNo',
    width: 210,
    render: (_, r) => twoLines(groupAccountNo(r.accountNo), r.bankName),
  });
  if (deposit) columns.push({ title: '转账日期', dataIndex: 'transferDate', width: 105 });
  columns.push(
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_, r) => (deposit ? <DepositInStatusTag status={r.status} /> : <WithdrawalStatusTag status={r.status} />),
    },
    {
      title: '备注 / 驳回原因',
      dataIndex: 'rejectReason',
      width: 190,
      render: (_, r) =>
        r.status === 'rejected' && r.rejectReason ? (
          <Typography.Text className="coalx-reject-reason" ellipsis={{ tooltip: r.rejectReason }} style={{ maxWidth: 170 }}>
            驳回：{r.rejectReason}
          </Typography.Text>
        ) : r.remark ? (
          <Typography.Text ellipsis={{ tooltip: r.remark }} style={{ maxWidth: 170 }}>
            {r.remark}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
    {
      title: '申请 / 处理时间',
      dataIndex: 'createdAt',
      width: 170,
      render: (_, r) => twoLines(r.createdAt, r.reviewedAt ? `处理于 ${r.reviewedAt}` : '待处理'),
    },
  );
  return columns;
}
