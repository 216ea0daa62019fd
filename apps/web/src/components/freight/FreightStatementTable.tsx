import { useRef, useState, type ReactNode } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Space } from 'antd';
import { formatFen, formatTons, type FreightStatus } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import { rowDetails } from '@/components/RowDetails';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { cleanParams, WS_PAGINATION } from '@/lib/pro-table';
import { FREIGHT_EXPORT_PATH, listFreight, type FreightFilters, type FreightStatementSummary } from '@/services/freight';
import { FreightActionModals, FreightDetailDrawer, FreightStatusTag, cancelStatement, useFreightAction } from './FreightParts';

export interface FreightTab {
  key: string;
  label: string;
  filters: FreightFilters;
}

/**
 * The statements list with its state tabs, detail drawer and row actions: 运费结算 shows every state, 物流结算 those
 * waiting for payment and paid. `toolbar` adds buttons (新建运费结算单).
 */
export default function FreightStatementTable({ title, tabs, toolbar, reloadKey, showEnterprise }: { title: string; tabs: FreightTab[]; toolbar?: ReactNode; reloadKey?: number; showEnterprise?: boolean }) {
  const actionRef = useRef<ActionType>(undefined);
  const [tab, setTab] = useState(tabs[0]!.key);
  const [viewing, setViewing] = useState<number | null>(null);
  const filters = useRef<FreightFilters>({});
  const { exporting, exportExcel } = useExcelExport(() => {
    const f = filters.current;
    return downloadWithToken(FREIGHT_EXPORT_PATH, { status: f.status, payable: f.payable, statementNo: f.statementNo, carrierName: f.carrierName, orderNo: f.orderNo }, '运费结算单.xlsx');
  }, '当前查询没有可导出的结算单');
  const action = useFreightAction();
  const reload = () => actionRef.current?.reload();

  const columns: ProColumns<FreightStatementSummary>[] = [
    {
      title: '结算单号',
      dataIndex: 'statementNo',
      width: 150,
      fieldProps: { placeholder: '请输入结算单号' },
      render: (_, r) => (
        <a className="coalx-num" onClick={() => setViewing(r.id)}>
          {r.statementNo}
        </a>
      ),
    },
    { title: '承运方', dataIndex: 'carrierName', width: 165, ellipsis: true, fieldProps: { placeholder: '司机或承运公司' } },
    { title: '订单编号', dataIndex: 'orderNo', hideInTable: true, fieldProps: { placeholder: '请输入订单编号' } },
    ...(showEnterprise ? [{ title: '运输企业', dataIndex: 'enterpriseName', width: 150, ellipsis: true, search: false } as ProColumns<FreightStatementSummary>] : []),
    { title: '结算期间', key: 'period', width: 185, search: false, render: (_, r) => `${r.periodFrom} 至 ${r.periodTo}` },
    { title: '车数', dataIndex: 'trucks', width: 60, align: 'right', search: false },
    { title: '签收量 (吨)', dataIndex: 'signedKg', width: 95, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.signedKg, false)}</span> },
    { title: '价税合计 (¥)', dataIndex: 'totalFen', width: 130, align: 'right', search: false, render: (_, r) => <Money fen={r.totalFen} strong /> },
    { title: '状态', dataIndex: 'status', width: 80, search: false, render: (_, r) => <FreightStatusTag status={r.status} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 125,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r.id)}>
            查看
          </Button>
          {r.actions.includes('confirm') ? (
            <Button type="link" size="small" onClick={() => action.open(r, 'confirm')}>
              确认
            </Button>
          ) : null}
          {r.actions.includes('pay') ? (
            <Button type="link" size="small" onClick={() => action.open(r, 'pay')}>
              付款
            </Button>
          ) : null}
          {r.actions.includes('cancel') ? (
            <Popconfirm title="作废该草稿？车辆可重新结算" okText="作废" cancelText="取消" onConfirm={async () => (await cancelStatement(r)) && reload()}>
              <Button type="link" size="small" danger>
                作废
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<FreightStatementSummary>
        rowKey="id"
        headerTitle={title}
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ tab, reloadKey }}
        toolbar={{ menu: { type: 'tab', activeKey: tab, items: tabs.map((t) => ({ key: t.key, label: t.label })), onChange: (key) => setTab(String(key)) } }}
        expandable={rowDetails<FreightStatementSummary>((r) => [
          { label: '订单', value: r.orderNos.join('、') },
          { label: '运价', value: `${formatFen(r.rateFen)} 元/吨` },
          { label: '运费', value: formatFen(r.freightFen) },
          { label: '超途损扣款', value: formatFen(r.lossDeductionFen) },
          { label: '不含税金额', value: formatFen(r.subtotalFen) },
          { label: '增值税 (9%)', value: formatFen(r.taxFen) },
          { label: '制单时间', value: r.createdAt },
          { label: '承运方确认', value: r.confirmedAt ? `${r.carrierSigner} ${r.confirmedAt}` : '未确认' },
          { label: '付款时间', value: r.paidAt ?? '未付款' },
        ])}
        locale={{ emptyText: '暂无运费结算单' }}
        toolBarRender={() => [
          toolbar ?? null,
          <Authorized key="export" action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出
            </Button>
          </Authorized>,
        ]}
        request={async (p) => {
          const { tab: chosen, reloadKey: _reload, ...rest } = cleanParams(p) as FreightFilters & { tab?: string; reloadKey?: number };
          const tabFilters = tabs.find((t) => t.key === chosen)?.filters ?? {};
          filters.current = { ...rest, ...tabFilters } as FreightFilters;
          const page = await listFreight({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <FreightDetailDrawer id={viewing} onClose={() => setViewing(null)} />
      <FreightActionModals statement={action.state?.statement ?? null} action={action.state?.action ?? null} onClose={action.close} onDone={() => { action.close(); reload(); }} />
    </>
  );
}

export const ALL_STATUS_TABS: FreightTab[] = [
  { key: 'all', label: '全部', filters: {} },
  ...(['draft', 'confirmed', 'paid', 'cancelled'] as FreightStatus[]).map((status) => ({
    key: status,
    label: { draft: '草稿', confirmed: '已确认待付款', paid: '已付款', cancelled: '已作废' }[status],
    filters: { status },
  })),
];
