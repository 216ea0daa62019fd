import { LockOutlined, WalletOutlined, AccountBookOutlined } from '@ant-design/icons';
import { Card, Col, Row, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { yuan } from '@/components/Money';
import type { FundInfo } from '@/services/funds';

function BalanceCard({ title, icon, fen, color, extra, loading }: { title: string; icon: ReactNode; fen?: number; color: string; extra?: ReactNode; loading: boolean }) {
  return (
    <Card className="coalx-balance-card" styles={{ body: { padding: '20px 24px' } }}>
      <div className="coalx-balance-title">
        <span className="coalx-balance-icon" style={{ background: color }}>
          {icon}
        </span>
        {title}
      </div>
      {loading ? (
        <Skeleton.Input active size="large" style={{ marginTop: 12 }} />
      ) : (
        <div className="coalx-balance-value" data-testid={`balance-${title}`}>
          {yuan(fen ?? null)}
        </div>
      )}
      <div className="coalx-balance-extra">{extra ?? '\u00a0'}</div>
    </Card>
  );
}

/** Available, frozen and total balances of the enterprise's funds account (all integer fen from the server). */
export default function BalanceCards({ info, loading }: { info?: FundInfo; loading: boolean }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={8}>
        <BalanceCard title="可用余额" icon={<WalletOutlined />} color="#1a56db" fen={info?.available} loading={loading} extra="可用于缴纳保证金与出金" />
      </Col>
      <Col xs={24} md={8}>
        <BalanceCard
          title="冻结金额"
          icon={<LockOutlined />}
          color="#f5a623"
          fen={info?.frozen}
          loading={loading}
          extra={
            info ? (
              <Typography.Text type="secondary">
                交易保证金 {yuan(info.depositFrozen)} · 出金冻结 {yuan(info.withdrawalFrozen)} · 货款托管 <span data-testid="balance-escrow">{yuan(info.escrowFrozen)}</span>
              </Typography.Text>
            ) : null
          }
        />
      </Col>
      <Col xs={24} md={8}>
        <BalanceCard title="账户总额" icon={<AccountBookOutlined />} color="#0b2545" fen={info?.total} loading={loading} extra="可用余额 + 冻结金额" />
      </Col>
    </Row>
  );
}
