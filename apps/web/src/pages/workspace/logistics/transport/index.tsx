import { useRef } from 'react';
import { useSearchParams } from 'react-router';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Card, Tabs } from 'antd';
import { DISPATCH_STATUS } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import DriverManager from '@/components/driver/DriverManager';
import TruckActions from '@/components/delivery/TruckActions';
import { truckColumns, truckDetails } from '@/components/delivery/truck-columns';
import { rowDetails } from '@/components/RowDetails';
import { useExcelExport } from '@/hooks/useExcelExport';
import { usePhone } from '@/hooks/usePhone';
import { downloadWithToken } from '@/lib/download';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import { listTrucks, TRANSPORT_EXPORT_PATH, type DispatchView, type TransportFilters } from '@/services/delivery';

/** 运输记录: every truck of the enterprise's orders, sent or received (the trading centre: all), with filters and export. */
function TransportRecords() {
  const actionRef = useRef<ActionType>(undefined);
  const filters = useRef<TransportFilters>({});
  // on a phone the five filters start folded, so the trucks are on the first screen
  const phone = usePhone();
  const { exporting, exportExcel } = useExcelExport(
    () => downloadWithToken(TRANSPORT_EXPORT_PATH, { ...filters.current } as Record<string, string | undefined>, '运输记录.xlsx'),
    '当前查询没有可导出的运输记录',
  );

  const searchColumns: ProColumns<DispatchView>[] = [
    { title: '订单编号', dataIndex: 'orderNo', hideInTable: true, fieldProps: { placeholder: '请输入订单编号' } },
    { title: '车牌号', dataIndex: 'plateNo', hideInTable: true, fieldProps: { placeholder: '如 晋B12345' } },
    { title: '司机', dataIndex: 'driverName', hideInTable: true, fieldProps: { placeholder: '司机姓名' } },
    { title: '状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: enumOf(DISPATCH_STATUS), fieldProps: { placeholder: '全部状态' } },
    { title: '派车日期', dataIndex: 'dateRange', hideInTable: true, valueType: 'dateRange' },
  ];

  return (
    <ProTable<DispatchView>
      rowKey="id"
      headerTitle="运输记录"
      actionRef={actionRef}
      cardBordered
      tableLayout="fixed"
      search={{ labelWidth: 'auto', defaultCollapsed: phone }}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      expandable={rowDetails<DispatchView>(truckDetails)}
      locale={{ emptyText: '暂无运输记录' }}
      columns={[
        ...searchColumns,
        ...truckColumns({ withOrder: true }),
        { title: '操作', valueType: 'option', width: 120, render: (_, r) => <TruckActions truck={r} onChanged={() => actionRef.current?.reload()} print /> },
      ]}
      toolBarRender={() => [
        <Authorized key="export" action="export">
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
            导出
          </Button>
        </Authorized>,
      ]}
      request={async (p) => {
        const { dateRange, ...rest } = cleanParams(p) as TransportFilters & { dateRange?: [string, string] };
        filters.current = { ...rest, dateFrom: dateRange?.[0], dateTo: dateRange?.[1] };
        const page = await listTrucks({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
    />
  );
}

/** 运输信息: the trucks and their weigh tickets (运输记录), and the enterprise's drivers and vehicles (司机车辆). */
export default function TransportInfoPage() {
  // the tab lives in the address (?tab=drivers), so a reload or a link (the workbench's 被驳回的司机) opens it
  const [params, setParams] = useSearchParams();
  const activeKey = params.get('tab') === 'drivers' ? 'drivers' : 'records';
  return (
    <Card bordered={false} styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={activeKey}
        onChange={(key) => setParams(key === 'drivers' ? { tab: 'drivers' } : {}, { replace: true })}
        items={[
          { key: 'records', label: '运输记录', children: <TransportRecords /> },
          { key: 'drivers', label: '司机车辆', children: <DriverManager /> },
        ]}
      />
    </Card>
  );
}
