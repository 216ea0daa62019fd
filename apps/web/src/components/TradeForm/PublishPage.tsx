import type { ReactNode } from 'react';
import { Alert, Breadcrumb, Button, Result } from 'antd';
import { Link } from 'react-router';
import { useSession } from '@/app/session';
import '@/components/TradeDetail/trade.css';

export interface PublishPageProps {
  /** 发起挂牌, 发布竞价: what publishing is called. */
  verb: string;
  noun: string;
  /** 挂牌销售, 竞价采购, …: the direction being published. */
  typeText: string;
  /** What the enterprise publishes and how it is traded, under the title. */
  subtitle: ReactNode;
  /** The publisher's own trades ("我的挂牌"). */
  mine: { path: string; label: string };
  /** The same form for the other direction, offered while publishing a new trade. */
  switchTo?: { path: string; label: string };
  /** The trade being edited, when there is one. */
  editing?: { data?: { status: string; rejectReason?: string | null }; loadState: ReactNode };
  /** The form. */
  children: ReactNode;
}

/**
 * The frame of a publishing page (listing or auction): only an enterprise's traders publish; an edited trade must
 * be a draft or rejected, and a rejection's reason stands above the form.
 */
export default function PublishPage({ verb, noun, typeText, subtitle, mine, switchTo, editing, children }: PublishPageProps) {
  const { companyInfo } = useSession();
  const title = `${editing ? '修改' : verb}${typeText}`;
  if (!companyInfo) {
    return (
      <div className="coalx-page">
        <Result
          status="403"
          title={`仅企业交易员可以${verb}${noun}`}
          subTitle="交易中心运营与系统管理账号不属于任何企业"
          extra={<Link to="/index"><Button type="primary">返回首页</Button></Link>}
        />
      </div>
    );
  }
  const saved = editing?.data;
  return (
    <div className="coalx-page">
      <Breadcrumb items={[{ title: <Link to="/index">首页</Link> }, { title: <Link to={mine.path}>{mine.label}</Link> }, { title }]} />
      <div className="coalx-page-head">
        <div>
          <h2 className="coalx-page-title">{title}</h2>
          <div className="coalx-page-sub">
            {companyInfo.organName} · {subtitle}
          </div>
        </div>
        {!editing && switchTo && (
          <Link to={switchTo.path} replace>
            <Button>{switchTo.label}</Button>
          </Link>
        )}
      </div>
      {saved?.status === 'rejected' && saved.rejectReason && (
        <Alert type="error" showIcon message={`交易中心驳回原因：${saved.rejectReason}`} description="修改后重新提交审核" />
      )}
      {editing && !saved ? (
        editing.loadState
      ) : saved && !['draft', 'rejected'].includes(saved.status) ? (
        <Result
          status="warning"
          title={`只有草稿或被驳回的${noun}可以修改`}
          extra={<Link to={mine.path}><Button type="primary">返回{mine.label}</Button></Link>}
        />
      ) : (
        children
      )}
    </div>
  );
}
