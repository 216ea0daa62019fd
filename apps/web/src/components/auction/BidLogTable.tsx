import { useMemo } from 'react';
import { Table, Tooltip, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { formatBidLogTime, formatFen, type BidLogEntry, type BidLogVerification } from '@coalx/shared';

/** A 64-digit hash in monospace, whole (it is what people compare), copyable. */
export function HashText({ hash, testId }: { hash: string; testId?: string }) {
  return (
    <Typography.Text className="coalx-hash" copyable={{ text: hash, tooltips: ['复制', '已复制'] }} data-testid={testId}>
      {hash}
    </Typography.Text>
  );
}

type Row = BidLogEntry & { index: number };

const STATUS = {
  ok: <CheckCircleFilled style={{ color: '#389e0d' }} aria-label="通过" />,
  broken: <CloseCircleFilled style={{ color: '#cf1322' }} aria-label="断裂" />,
  unverified: <MinusCircleOutlined style={{ color: '#8c8c8c' }} aria-label="未验证" />,
};

/**
 * The public bid log (公开出价记录): 序号, 竞买人 (alias), 出价, server time to the millisecond and the hash of each
 * accepted bid; with a verification, a ✔ per row, ✘ where the chain breaks (its reason) and – after it.
 */
export default function BidLogTable({ entries, verification, pageSize = 10 }: { entries: BidLogEntry[]; verification?: BidLogVerification; pageSize?: number }) {
  const broken = verification?.firstBroken;
  // antd's render index counts within the page: each row carries its place in the whole log
  const rows = useMemo(() => entries.map((entry, index) => ({ ...entry, index })), [entries]);
  return (
    <Table
      className="coalx-bid-log"
      data-testid="bid-log-table"
      rowKey="index"
      size="small"
      dataSource={rows}
      // a broken chain opens on the page of its first broken row (the key remounts the table for each new check)
      key={broken ? `broken:${broken.index}:${entries.length}` : `all:${entries.length}`}
      pagination={
        entries.length > pageSize
          ? { pageSize, defaultCurrent: broken && broken.index < entries.length ? Math.floor(broken.index / pageSize) + 1 : 1, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }
          : false
      }
      locale={{ emptyText: '无有效出价' }}
      rowClassName={(row) => (broken && broken.index === row.index ? 'coalx-bid-log-broken' : '')}
      columns={[
        ...(verification
          ? [
              {
                title: '验证',
                key: 'status',
                width: 64,
                align: 'center' as const,
                render: (_: unknown, row: Row) => {
                  const status = verification.rows[row.index]?.status ?? 'unverified';
                  const tip = status === 'broken' ? broken?.reason : status === 'ok' ? '哈希与重新计算的一致' : '链已在此前断开，无法验证';
                  return (
                    <Tooltip title={tip}>
                      <span data-testid={`bid-log-status-${status}`}>{STATUS[status]}</span>
                    </Tooltip>
                  );
                },
              },
            ]
          : []),
        { title: '序号', dataIndex: 'seq', width: 64 },
        { title: '竞买人', dataIndex: 'bidder', width: 96 },
        { title: '出价 (元/吨)', dataIndex: 'price', width: 120, align: 'right' as const, render: (v: number) => formatFen(v) },
        { title: '出价时间', dataIndex: 'at', width: 190, render: (v: string) => <span className="coalx-tabular">{formatBidLogTime(v)}</span> },
        {
          title: '哈希',
          dataIndex: 'hash',
          render: (hash: string, row: Row) => (
            <>
              <HashText hash={hash} />
              {broken && broken.index === row.index && <div className="coalx-bid-log-reason">{broken.reason}</div>}
            </>
          ),
        },
      ]}
    />
  );
}
