import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { TRADE_DEPOSIT_STATUS } from '@coalx/shared';
import Money from '@/components/Money';
import { getDepositBalance, type TradeDeposit } from '@/services/funds';
import { TRADE_KIND_TEXT, TradeDepositStatusTag } from '@/components/funds/tags';
import { rowDetails } from '@/components/RowDetails';

/** What was paid for which trade and where it stands, whole at 1440 px; the times open under the row. */
const columns: ProColumns<TradeDeposit>[] = [
  { title: '交易编号', dataIndex: 'tradeId', copyable: true, width: 170 },
  { title: '交易方式', dataIndex: 'tradeKind', width: 110, render: (_, r) => TRADE_KIND_TEXT[r.tradeKind] ?? r.tradeKind },
  { title: '保证金金额', dataIndex: 'amount', align: 'right', width: 170, render: (_, r) => <Money fen={r.amount} /> },
  {
    title: '状态',
    dataIndex: 'status',
    width: 120,
    valueEnum: TRADE_DEPOSIT_STATUS,
    render: (_, r) => <TradeDepositStatusTag status={r.status} />,
  },
];

/** Deposits by trade (spec §7 getDepositBalance): frozen, performance, released, applied to the payment. */
export default function TradeDepositTable() {
  return (
    <ProTable<TradeDeposit>
      rowKey="id"
      headerTitle="交易保证金"
      tooltip="按交易列出本企业缴纳的保证金；成交后转为履约保证金，未成交或履约完毕后释放"
      columns={columns}
      search={false}
      options={{ reload: true, density: false, setting: false }}
      cardBordered
      pagination={{ defaultPageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
      request={async ({ current = 1, pageSize = 10 }) => {
        const page = await getDepositBalance({ pageNo: current, pageSize });
        return { data: page.records, total: page.total, success: true };
      }}
      locale={{ emptyText: '暂无保证金记录' }}
      tableLayout="fixed"
      expandable={rowDetails<TradeDeposit>((r) => [
        { label: '缴纳时间', value: r.createdAt },
        { label: '最近变动', value: r.updatedAt },
      ])}
    />
  );
}
