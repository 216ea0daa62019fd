import { ArrowDownOutlined, ArrowUpOutlined, FileSearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Space } from 'antd';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/app/request';
import { FUNDS_KEYS, getFundInfo } from '@/services/funds';
import '@/components/funds/funds.css';
import BalanceCards from './components/BalanceCards';
import PayPasswordCard from './components/PayPasswordCard';
import TradeDepositTable from './components/TradeDepositTable';

/** 资金资产 (workspace /financial/assets): balances, deposits by trade, the pay password. */
export default function FinancialAssetsPage() {
  const navigate = useNavigate();
  const info = useQuery({ queryKey: FUNDS_KEYS.info, queryFn: getFundInfo, staleTime: 0 });

  return (
    <div className="coalx-funds-page">
      <div className="coalx-funds-toolbar">
        <Space wrap>
          <Button type="primary" icon={<ArrowDownOutlined />} onClick={() => navigate('/financial/application?tab=depositIn&apply=1')}>
            入金
          </Button>
          <Button icon={<ArrowUpOutlined />} onClick={() => navigate('/financial/application?tab=withdraw&apply=1')}>
            出金
          </Button>
          <Button icon={<FileSearchOutlined />} onClick={() => navigate('/financial/payRecord')}>
            支付记录
          </Button>
        </Space>
      </div>
      {info.isError ? <Alert type="error" showIcon message={errorMessage(info.error, '资金信息加载失败，请稍后重试')} /> : null}
      <BalanceCards info={info.data} loading={info.isLoading} />
      <TradeDepositTable />
      <PayPasswordCard />
    </div>
  );
}
