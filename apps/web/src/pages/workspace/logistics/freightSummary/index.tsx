import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DownloadOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { Button, DatePicker, Input, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { formatTons, type FreightSummaryQuery } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import FreightSummaryChart from '@/components/freight/FreightSummaryChart';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { FREIGHT_KEYS, FREIGHT_SUMMARY_EXPORT_PATH, getFreightSummary, type FreightSummaryAnswer } from '@/services/freight';

type Row = FreightSummaryAnswer['rows'][number];

/** 运费汇总: freight by carrier and month (statements not void), a stacked bar chart of the totals, Excel export. */
export default function FreightSummaryPage() {
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [carrier, setCarrier] = useState('');
  const [query, setQuery] = useState<FreightSummaryQuery>({});
  const { exporting, exportExcel } = useExcelExport(() => downloadWithToken(FREIGHT_SUMMARY_EXPORT_PATH, { ...query }, '运费汇总.xlsx'), '当前查询没有可导出的数据');
  const summary = useQuery({ queryKey: FREIGHT_KEYS.summary(query), queryFn: () => getFreightSummary(query) });
  const search = () =>
    setQuery({ monthFrom: range?.[0]?.format('YYYY-MM'), monthTo: range?.[1]?.format('YYYY-MM'), carrierName: carrier.trim() || undefined });
  const total = summary.data?.total;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProCard>
        <Space wrap>
          <span>月份</span>
          <DatePicker.RangePicker picker="month" value={range} onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)} placeholder={['开始月份', '结束月份']} />
          <span>承运方</span>
          <Input value={carrier} onChange={(e) => setCarrier(e.target.value)} placeholder="司机或承运公司" style={{ width: 200 }} maxLength={60} allowClear />
          <Button type="primary" onClick={search}>
            查询
          </Button>
          <Authorized action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出
            </Button>
          </Authorized>
        </Space>
      </ProCard>
      <ProCard title="运费价税合计（按月、按承运方）">
        <FreightSummaryChart rows={summary.data?.rows ?? []} />
      </ProCard>
      <ProCard title="运费汇总表">
        <Table<Row>
          rowKey={(r) => `${r.carrierName}-${r.month}`}
          loading={summary.isLoading}
          size="middle"
          tableLayout="fixed"
          pagination={false}
          dataSource={summary.data?.rows ?? []}
          locale={{ emptyText: '暂无运费结算数据' }}
          columns={[
            { title: '承运方', dataIndex: 'carrierName', width: 180, ellipsis: true },
            { title: '月份', dataIndex: 'month', width: 90 },
            { title: '车数', dataIndex: 'trucks', width: 70, align: 'right' },
            { title: '签收量 (吨)', dataIndex: 'signedKg', width: 120, align: 'right', render: (v: number) => formatTons(v, false) },
            { title: '不含税金额 (¥)', dataIndex: 'subtotalFen', width: 140, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '税额 9% (¥)', dataIndex: 'taxFen', width: 120, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '价税合计 (¥)', dataIndex: 'totalFen', width: 140, align: 'right', render: (v: number) => <Money fen={v} strong /> },
            { title: '已付款 (¥)', dataIndex: 'paidFen', width: 140, align: 'right', render: (v: number) => <Money fen={v} /> },
          ]}
          summary={() =>
            total && summary.data!.rows.length > 0 ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
                <Table.Summary.Cell index={1} />
                <Table.Summary.Cell index={2} align="right">{total.trucks}</Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">{formatTons(total.signedKg, false)}</Table.Summary.Cell>
                <Table.Summary.Cell index={4} align="right"><Money fen={total.subtotalFen} /></Table.Summary.Cell>
                <Table.Summary.Cell index={5} align="right"><Money fen={total.taxFen} /></Table.Summary.Cell>
                <Table.Summary.Cell index={6} align="right"><Money fen={total.totalFen} strong /></Table.Summary.Cell>
                <Table.Summary.Cell index={7} align="right"><Money fen={total.paidFen} /></Table.Summary.Cell>
              </Table.Summary.Row>
            ) : null
          }
        />
      </ProCard>
    </Space>
  );
}
