import { useSession } from '@/app/session';
import FreightStatementTable from '@/components/freight/FreightStatementTable';

/**
 * 物流结算 (结算管理): the freight statements seen as money owed — those the carrier confirmed and waiting for
 * payment, and those paid — with 付款 in the row; searchable by order to see one order's freight. Drafts stay on
 * 运费结算 where they are made.
 */
export default function SettlementLogisticsPage() {
  const { userInfo } = useSession();
  return (
    <FreightStatementTable
      title="物流结算（运费应付）"
      showEnterprise={userInfo?.role?.code === 'operator'}
      tabs={[
        { key: 'payable', label: '全部', filters: { payable: '1' } },
        { key: 'confirmed', label: '待付款', filters: { status: 'confirmed' } },
        { key: 'paid', label: '已付款', filters: { status: 'paid' } },
      ]}
    />
  );
}
