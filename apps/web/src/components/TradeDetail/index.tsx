import type { ReactNode } from 'react';
import { Button, Card, Descriptions, Result, Skeleton, Tag } from 'antd';
import { Link } from 'react-router';
import { errorMessage } from '@/app/request';
import { qualityItems } from '@/lib/quality';
import './trade.css';

/** The parts a listing's and an auction's detail pages share: the headline, the quality card, the loading state. */

export interface HeadlineFigure {
  label: ReactNode;
  value: ReactNode;
  /** Shown in the price colour. */
  price?: boolean;
  /** A wide cell whose value is drawn as it is (a progress bar). */
  wide?: boolean;
}

export interface TradeHeadlineProps {
  /** 挂牌销售, 竞价采购, …: the direction's tag, orange for a purchase. */
  typeText: string;
  purchase: boolean;
  productName: string;
  state: ReactNode;
  tradeId: string;
  enterpriseName: string;
  figures: HeadlineFigure[];
  extra?: ReactNode;
  className?: string;
  figuresClassName?: string;
  children?: ReactNode;
}

/** Headline of one trade: direction, product and state, who publishes it, the key figures at a glance. */
export function TradeHeadline(p: TradeHeadlineProps) {
  return (
    <Card className={['coalx-listing-headline', p.className].filter(Boolean).join(' ')} variant="borderless">
      <div className="coalx-listing-headline-top">
        <div>
          <div className="coalx-listing-title">
            <Tag color={p.purchase ? 'orange' : 'blue'}>{p.typeText}</Tag>
            <span className="coalx-listing-name">{p.productName}</span>
            {p.state}
          </div>
          <div className="coalx-listing-sub">
            交易编号 {p.tradeId} <span className="coalx-dot">·</span> {p.enterpriseName}
          </div>
        </div>
        {p.extra && <div className="coalx-listing-headline-extra">{p.extra}</div>}
      </div>
      <div className={['coalx-listing-figures', p.figuresClassName].filter(Boolean).join(' ')}>
        {p.figures.map((f, i) => (
          <div key={i} className={f.wide ? 'coalx-figure coalx-figure-wide' : 'coalx-figure'}>
            <div className="coalx-figure-label">{f.label}</div>
            {f.wide ? f.value : <div className={f.price ? 'coalx-figure-value coalx-price' : 'coalx-figure-value'}>{f.value}</div>}
          </div>
        ))}
      </div>
      {p.children}
    </Card>
  );
}

/** 质量指标: every indicator with its unit, '-' where the publisher gave none. */
export function QualityCard({ quality }: { quality: Record<string, number | null | undefined> | null | undefined }) {
  return (
    <Card title="质量指标" variant="borderless" className="coalx-section-card">
      <Descriptions column={{ xs: 2, sm: 3, lg: 6 }} layout="vertical" size="small" className="coalx-quality">
        {qualityItems(quality).map((q) => (
          <Descriptions.Item key={q.key} label={q.label}>
            {q.value}
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}

/** Province, city, district and place of a delivery, on one line. */
export function placeText(t: { deliveryProvince: string; deliveryCity: string; deliveryDistrict: string; deliveryPlace: string }): string {
  return [t.deliveryProvince, t.deliveryCity, t.deliveryDistrict].filter(Boolean).join(' ') + (t.deliveryPlace ? ` ${t.deliveryPlace}` : '');
}

export interface TradeLoadStateProps {
  loading: boolean;
  error: unknown;
  missingId?: boolean;
  /** 挂牌 or 竞价, in the refusal's words. */
  noun: string;
  /** Where the refusal sends the user instead. */
  more: { path: string; label: string };
}

/** Loading skeleton, or a refusal with a way back, for pages that show one trade. */
export function TradeLoadState({ loading, error, missingId, noun, more }: TradeLoadStateProps) {
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
        title={`无法查看该${noun}`}
        subTitle={errorMessage(error, `${noun}不存在或尚未公开`)}
        extra={<Link to={more.path}><Button type="primary">{more.label}</Button></Link>}
      />
    );
  }
  return null;
}
