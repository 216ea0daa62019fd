import { Button, Result, Space, Spin } from 'antd';
import { Link } from 'react-router';
import { errorMessage, isRequestError } from '@/app/request';

/**
 * What a detail page (合同详情, 订单详情, 结算单详情) shows until its record is there: the spinner while loading, and
 * on failure 404 "…不存在" (another enterprise's record answers 404 too) or the error, with 重新加载 and the way back
 * to its list. Returns null once the record is loaded, so the page renders it.
 */
export default function DetailLoadState(props: {
  query: { isLoading: boolean; isError: boolean; data: unknown; error: unknown; refetch: () => unknown };
  /** 订单, 结算单… */
  noun: string;
  /** the list page it comes from, e.g. { path: '/order/list', title: '订单管理' } */
  back: { path: string; title: string };
  notFound?: { title: string; subTitle: string };
}) {
  const { query, noun, back } = props;
  if (query.isLoading) {
    return (
      <Spin tip={`${noun}加载中`} size="large">
        <div style={{ height: 320 }} />
      </Spin>
    );
  }
  if (!query.isError && query.data) return null;
  const notFound = isRequestError(query.error) && query.error.status === 404;
  const missing = props.notFound ?? { title: `${noun}不存在`, subTitle: `${noun}编号有误，或该${noun}不属于本企业。` };
  return (
    <Result
      status={notFound ? '404' : 'error'}
      title={notFound ? missing.title : `${noun}加载失败`}
      subTitle={notFound ? missing.subTitle : errorMessage(query.error)}
      extra={
        <Space>
          <Button onClick={() => void query.refetch()}>重新加载</Button>
          <Link to={back.path}>
            <Button type="primary">返回{back.title}</Button>
          </Link>
        </Space>
      }
    />
  );
}
