import { useRef } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button } from 'antd';
import { JOURNAL_KIND } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import { JOURNAL_EXPORT_PATH, listJournal, type JournalEntry, type JournalKind } from '@/services/funds';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken, EMPTY_DOWNLOAD } from '@/lib/download';
import { JournalKindTag, refTypeText } from '@/components/funds/tags';
import { rowDetails } from '@/components/RowDetails';
import '@/components/funds/funds.css';

/**
 * Money in (+) or out (−) of the enterprise's account; freeze and release only move money between its available
 * and frozen parts, so they carry no sign (the balance columns show the effect).
 */
const ACCOUNT_SIGN: Record<JournalKind, 1 | -1 | 0> = { credit: 1, freeze: 0, release: 0, debit_frozen: -1, pay_out_frozen: -1 };

interface Filters {
  kind?: JournalKind;
  dateFrom?: string;
  dateTo?: string;
}

const columns: ProColumns<JournalEntry>[] = [
  { title: '流水号', dataIndex: 'id', width: 80, search: false, render: (_, r) => `#${r.id}` },
  { title: '时间', dataIndex: 'createdAt', width: 165, search: false },
  {
    title: '类型',
    dataIndex: 'kind',
    width: 110,
    valueType: 'select',
    valueEnum: JOURNAL_KIND,
    fieldProps: { placeholder: '全部类型', allowClear: true },
    render: (_, r) => <JournalKindTag kind={r.kind} />,
  },
  {
    title: '日期',
    dataIndex: 'dateRange',
    valueType: 'dateRange',
    hideInTable: true,
    fieldProps: { placeholder: ['开始日期', '结束日期'] },
    search: { transform: (value: [string, string]) => ({ dateFrom: value?.[0], dateTo: value?.[1] }) },
  },
  {
    title: '金额',
    dataIndex: 'amount',
    align: 'right',
    width: 150,
    search: false,
    render: (_, r) => {
      const sign = ACCOUNT_SIGN[r.kind];
      return (
        <span className={sign > 0 ? 'coalx-money-in' : sign < 0 ? 'coalx-money-out' : undefined}>
          {sign > 0 ? '+' : sign < 0 ? '−' : ''}
          <Money fen={r.amount} strong />
        </span>
      );
    },
  },
  { title: '可用余额', dataIndex: 'availableAfter', align: 'right', width: 150, search: false, render: (_, r) => <Money fen={r.availableAfter} /> },
  { title: '冻结金额', dataIndex: 'frozenAfter', align: 'right', width: 140, search: false, render: (_, r) => <Money fen={r.frozenAfter} /> },
  { title: '业务', dataIndex: 'refType', width: 100, search: false, render: (_, r) => refTypeText(r.refType) },
];

/** 支付记录查询 (workspace /financial/payRecord): the funds journal, filtered by type and date, exportable. */
export default function PayRecordPage() {
  const filters = useRef<Filters>({});
  const { exporting, exportExcel } = useExcelExport(() => downloadWithToken(JOURNAL_EXPORT_PATH, { ...filters.current }, '支付记录.xlsx'), EMPTY_DOWNLOAD);

  return (
    <div className="coalx-funds-page">
      <ProTable<JournalEntry, Filters>
        rowKey="id"
        headerTitle="支付记录"
        tooltip="本企业资金账户的每一笔变动。金额带 + 为转入、带 − 为转出；冻结与解冻只在可用与冻结之间划转。余额为该笔变动后的余额"
        columns={columns}
        cardBordered
        search={{ labelWidth: 'auto', defaultCollapsed: false, span: 8 }}
        options={{ reload: true, density: false, setting: false }}
        pagination={{ defaultPageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
        tableLayout="fixed"
        expandable={rowDetails<JournalEntry>((r) => [{ label: '摘要', value: r.remark || '-' }])}
        locale={{ emptyText: '暂无支付记录' }}
        toolBarRender={() => [
          <Authorized key="export" action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出 Excel
            </Button>
          </Authorized>,
        ]}
        request={async ({ current = 1, pageSize = 10, kind, dateFrom, dateTo }) => {
          filters.current = { kind: kind || undefined, dateFrom: dateFrom || undefined, dateTo: dateTo || undefined };
          const page = await listJournal({ pageNo: current, pageSize, ...filters.current });
          return { data: page.records, total: page.total, success: true };
        }}
      />
    </div>
  );
}
