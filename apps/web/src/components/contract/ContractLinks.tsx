import { useState } from 'react';
import { Button, message } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { DealView } from '@coalx/shared';
import { errorMessage, type PageResult } from '@/app/request';

/** The contract of one deal (合同详情 finds it by the deal number). */
export const contractPathOfDeal = (dealNo: string) => `/contract/info?dealNo=${encodeURIComponent(dealNo)}`;

export function DealContractLink({ dealNo }: { dealNo: string }) {
  return (
    <Link to={contractPathOfDeal(dealNo)}>
      <Button type="link" size="small">
        查看合同
      </Button>
    </Link>
  );
}

export interface TradeContractButtonProps {
  tradeId: string;
  /** The enterprise's deals of this trade (listing or auction). */
  loadDeals: (query: { tradeId: string; pageNo: number; pageSize: number }) => Promise<PageResult<DealView>>;
  /** The deals page that lists a trade's deals, each with its contract, for a trade with several. */
  dealsPath: string;
}

/**
 * 查看合同 on a trade's result row: one deal opens its contract at once; several open the deals of the trade,
 * each with its own contract; none says there is no contract.
 */
export function TradeContractButton({ tradeId, loadDeals, dealsPath }: TradeContractButtonProps) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      const page = await loadDeals({ tradeId, pageNo: 1, pageSize: 2 });
      if (page.total === 0 || page.records.length === 0) message.info('本企业在该交易中没有成交，没有合同');
      else if (page.total === 1) navigate(contractPathOfDeal(page.records[0]!.dealNo));
      else navigate(`${dealsPath}?tradeId=${encodeURIComponent(tradeId)}`);
    } catch (error) {
      message.error(errorMessage(error, '成交记录加载失败，请稍后重试'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="link" size="small" loading={busy} onClick={() => void open()}>
      查看合同
    </Button>
  );
}
