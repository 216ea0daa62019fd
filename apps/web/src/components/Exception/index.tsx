import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

const TEXTS = {
  403: { title: '403', subTitle: '抱歉，您无权访问此页面' },
  404: { title: '404', subTitle: '抱歉，您访问的页面不存在' },
  500: { title: '500', subTitle: '抱歉，服务器出错了，请稍后再试' },
} as const;

/** The 403/404/500 pages (antd Result, Chinese texts, back-home button). */
export default function Exception({ status }: { status: 403 | 404 | 500 }) {
  const navigate = useNavigate();
  return (
    <div className="coalx-exception">
      <Result
        status={status}
        title={TEXTS[status].title}
        subTitle={TEXTS[status].subTitle}
        extra={
          <Button type="primary" onClick={() => navigate('/index')}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
