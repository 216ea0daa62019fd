import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Empty, Pagination, Popconfirm, Segmented, Select, Spin, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { MESSAGE_CATEGORIES, MESSAGE_CATEGORY_KEYS, type MessageCategory } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { useMessageChannel } from '@/hooks/useMessageChannel';
import { messageTime } from '@/lib/message';
import { listMessages } from '@/services/message';
import { messageQuery, scopeLabel, SCOPE_TABS, type MessageFilters, type ReadScope } from '../filters';
import { useMessageActions } from '../useMessageActions';
import { DueTime, MessageTitle, ReadState } from './parts';

const PAGE_SIZE = 10;
const CATEGORY_OPTIONS = MESSAGE_CATEGORY_KEYS.map((value) => ({ value, label: MESSAGE_CATEGORIES[value] }));

/** 我的消息 on a phone: the same filters stacked, one card per message with its actions, paged below. */
export default function MessageCards() {
  const [filters, setFilters] = useState<MessageFilters>({ scope: 'all' });
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const { unread, version } = useMessageChannel();
  const actions = useMessageActions();
  const list = useQuery({
    queryKey: ['message', 'cards', filters, page, version],
    queryFn: () => listMessages(messageQuery(filters, page, PAGE_SIZE)),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const change = (patch: Partial<MessageFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const records = list.data?.records ?? [];

  return (
    <div className="coalx-msg-phone" data-testid="message-cards">
      <Card size="small" className="coalx-msg-card">
        <div className="coalx-msg-phone-filters">
          <Segmented<ReadScope>
            block
            value={filters.scope}
            options={SCOPE_TABS.map((t) => ({ value: t.key, label: scopeLabel(t.key, unread?.count) }))}
            onChange={(scope) => change({ scope })}
          />
          <Select<MessageCategory>
            allowClear
            placeholder="全部类别"
            value={filters.category ?? undefined}
            options={CATEGORY_OPTIONS}
            onChange={(category) => change({ category: category ?? null })}
          />
          <DatePicker.RangePicker
            value={range}
            placeholder={['开始日期', '结束日期']}
            inputReadOnly
            onChange={(value) => {
              setRange(value);
              change({ dateFrom: value?.[0]?.format('YYYY-MM-DD') ?? null, dateTo: value?.[1]?.format('YYYY-MM-DD') ?? null });
            }}
          />
          <Popconfirm title="将全部未读消息标为已读？" okText="全部标为已读" cancelText="取消" disabled={!unread?.count} onConfirm={() => actions.markAll()}>
            <Button block disabled={!unread?.count} loading={actions.busy === 'all'}>
              全部标为已读
            </Button>
          </Popconfirm>
        </div>
      </Card>
      {list.isLoading ? (
        <Card className="coalx-msg-card">
          <div style={{ textAlign: 'center' }}>
            <Spin />
          </div>
        </Card>
      ) : list.isError ? (
        <Card className="coalx-msg-card">
          <Empty description={errorMessage(list.error, '消息加载失败，请稍后重试')} />
        </Card>
      ) : records.length === 0 ? (
        <Card className="coalx-msg-card">
          <Empty description={filters.scope === 'unread' ? '没有未读消息' : '暂无消息'} />
        </Card>
      ) : (
        records.map((m) => (
          <Card key={m.id} size="small" className="coalx-msg-card" data-testid="message-card">
            <div className="coalx-msg-card-head">
              <MessageTitle message={m} />
              <ReadState read={m.read} />
            </div>
            <div className="coalx-msg-content">
              {m.content}
            </div>
            <div className="coalx-msg-card-meta">
              {m.dueAt && (
                <span>
                  截止时间：<DueTime message={m} />
                </span>
              )}
              <span>
                时间：<span className="coalx-num">{messageTime(m.createdAt)}</span>
              </span>
            </div>
            {(m.link || !m.read) && (
              <div className="coalx-msg-card-actions">
                {!m.read && (
                  <Button size="small" loading={actions.busy === m.id} onClick={() => void actions.markOne(m)}>
                    标为已读
                  </Button>
                )}
                {m.link && (
                  <Button size="small" type="primary" onClick={() => actions.follow(m)}>
                    去处理
                  </Button>
                )}
              </div>
            )}
          </Card>
        ))
      )}
      {(list.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination simple align="center" current={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onChange={setPage} />
      )}
      {list.data && (
        <Typography.Text type="secondary" style={{ textAlign: 'center', fontSize: 12 }}>
          共 {list.data.total} 条
        </Typography.Text>
      )}
    </div>
  );
}
