import { HangState } from '@coalx/shared';
import { Button, Space, Tag } from 'antd';
import { Link } from 'react-router';
import { useDict } from '@/app/dict';
import { listingButtonPath, listingButtons } from '@/lib/listing';

const STATE_COLOR: Record<number, string> = { [HangState.notStarted]: 'blue', [HangState.open]: 'green', [HangState.ended]: 'default' };

/** Listing state (dictionary hang_state_total_trans): 未开始 / 挂牌中 / 已结束. */
export function HangStateTag({ state }: { state: number }) {
  const dict = useDict('hang_state_total_trans');
  return <Tag color={STATE_COLOR[state] ?? 'default'}>{dict.text(state) || '-'}</Tag>;
}

/** Per-row buttons by state, exactly as spec §4 (see listingButtons). */
export function ListingRowButtons({ tradeId, hangState, size = 'small' }: { tradeId: string; hangState: number; size?: 'small' | 'middle' }) {
  return (
    <Space size={4} wrap={false}>
      {listingButtons(hangState).map((b) =>
        b.disabled ? (
          <Button key={b.key} size={size} type="link" disabled>
            {b.label}
          </Button>
        ) : (
          <Link key={b.key} to={listingButtonPath(b.key, tradeId)}>
            <Button size={size} type={b.key === 'subscribe' ? 'primary' : 'link'}>
              {b.label}
            </Button>
          </Link>
        ),
      )}
    </Space>
  );
}
