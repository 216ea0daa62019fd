import { Button, Result, Skeleton } from 'antd';
import { Link } from 'react-router';
import { errorMessage } from '@/app/request';

/** Loading skeleton or a refusal with a way back, for pages that show one listing. */
export function ListingLoadState({ loading, error, missingId }: { loading: boolean; error: unknown; missingId?: boolean }) {
  if (missingId) {
    return (
      <Result status="warning" title="缺少交易编号" extra={<Link to="/index"><Button type="primary">返回首页</Button></Link>} />
    );
  }
  if (loading) return <Skeleton active paragraph={{ rows: 10 }} style={{ padding: 24, background: '#fff', borderRadius: 8 }} />;
  if (error) {
    return (
      <Result
        status="404"
        title="无法查看该挂牌"
        subTitle={errorMessage(error, '挂牌不存在或尚未公开')}
        extra={<Link to="/moreListings?tradeType=0"><Button type="primary">查看更多挂牌</Button></Link>}
      />
    );
  }
  return null;
}
