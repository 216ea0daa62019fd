import { useRef } from 'react';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Link } from 'react-router';
import { useSession } from '@/app/session';
import TruckActions from '@/components/delivery/TruckActions';
import { truckColumns, truckDetails } from '@/components/delivery/truck-columns';
import { rowDetails } from '@/components/RowDetails';
import { WS_PAGINATION } from '@/lib/pro-table';
import { listSignFor, type DispatchView } from '@/services/delivery';
import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';

/**
 * 收货签收: the buyer's arrived trucks to sign for or dispute (the oldest, closest to auto sign-for, first), the
 * seller's disputes to answer, the trading centre's disputes to rule.
 */
export default function SignForPage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const actionRef = useRef<ActionType>(undefined);
  // a 待办 opens the queue filtered: ?status=arrived (to sign), ?status=disputed, &answer=pending (to answer)
  const link = useLinkFilters(['status', 'answer'] as const);
  const status = link.filters.status === 'arrived' || link.filters.status === 'disputed' ? link.filters.status : undefined;
  const answer = link.filters.answer === 'pending' ? link.filters.answer : undefined;
  const label = answer ? '待本企业答复的异议' : status === 'arrived' ? '已到货待签收的车辆' : status === 'disputed' ? '有异议的车辆' : null;
  return (
    <>
    <LinkFilterNotice label={label} onClear={link.clear} />
    <ProTable<DispatchView>
      params={{ status, answer }}
      rowKey="id"
      headerTitle={isOperator ? '收货签收（待裁定的异议）' : '收货签收'}
      tooltip="到货后 3 个工作日内未签收也未提出异议的，系统自动视为签收"
      actionRef={actionRef}
      cardBordered
      tableLayout="fixed"
      search={false}
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      expandable={rowDetails<DispatchView>(truckDetails)}
      locale={{ emptyText: isOperator ? '没有待裁定的签收异议' : '没有待签收或有异议的车辆' }}
      columns={[
        ...truckColumns().filter((c) => !['plannedKg', 'signedKg', 'driverName'].includes(c.dataIndex as string)),
        {
          title: '订单',
          dataIndex: 'orderNo',
          width: 130,
          render: (_, r) => (
            <Link to={`/order/info?id=${r.orderId}`} className="coalx-num">
              {r.orderNo}
            </Link>
          ),
        },
        { title: '自动签收', dataIndex: 'autoSignAt', width: 145, render: (_, r) => (r.status === 'arrived' ? r.autoSignAt : '-') },
        { title: '操作', valueType: 'option', width: 140, render: (_, r) => <TruckActions truck={r} onChanged={() => actionRef.current?.reload()} /> },
      ]}
      request={async (p) => {
        const page = await listSignFor({ status, answer, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
    />
    </>
  );
}
