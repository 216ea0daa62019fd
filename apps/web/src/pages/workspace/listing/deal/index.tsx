import { useRef, useState } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space } from 'antd';
import { useSearchParams } from 'react-router';
import type { DealView } from '@coalx/shared';
import ExportExcelButton from '@/components/ExportExcel';
import { listMyDeals } from '@/services/listing';
import { dealColumns, dealDetails, dealExcel } from '@/components/listing/columns';
import { rowDetails } from '@/components/RowDetails';
import { TRADE_TYPE_TEXT } from '@/lib/listing';
import { WS_PAGINATION, cleanParams } from '@/lib/pro-table';
import OppositeCompanyModal from '@/components/OppositeCompanyModal';
import { DealContractLink } from '@/components/contract/ContractLinks';

/** 挂牌成交: deals of my enterprise, as seller or buyer, with the counterparty's contact and the deal's contract. */
export default function ListingDealPage() {
  const [params] = useSearchParams();
  const last = useRef<{ tradeId?: string }>({});
  const [dealId, setDealId] = useState<number | null>(null);
  const columns: ProColumns<DealView>[] = [
    ...dealColumns,
    {
      title: '操作',
      valueType: 'option',
      width: 170,
      render: (_, r) => (
        <Space size={0}>
          <DealContractLink dealNo={r.dealNo} />
          <Button type="link" size="small" onClick={() => setDealId(r.id)}>
            对方信息
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <>
      <ProTable<DealView>
        headerTitle="挂牌成交"
        rowKey="id"
        columns={columns}
        tableLayout="fixed"
        expandable={rowDetails(dealDetails(TRADE_TYPE_TEXT))}
        search={{ labelWidth: 'auto' }}
        form={{ initialValues: { tradeId: params.get('tradeId') ?? undefined } }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<DealView>
            key="export"
            fileName="挂牌成交"
            columns={dealExcel}
            fetchPage={(pageNo, pageSize) => listMyDeals({ ...last.current, pageNo, pageSize })}
          />,
        ]}
        request={async (p) => {
          last.current = cleanParams(p);
          const page = await listMyDeals({ ...last.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <OppositeCompanyModal dealId={dealId} onClose={() => setDealId(null)} />
    </>
  );
}
