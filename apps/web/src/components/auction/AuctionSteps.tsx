import { AuctionState } from '@coalx/shared';
import { Steps } from 'antd';
import { resultText } from '@/lib/auction';

/** The four stages of an auction, with the time each one ends. */
export function AuctionSteps({ hangState, enrolDeadline, bidStart, currentEnd, result }: { hangState: number; enrolDeadline: string; bidStart: string; currentEnd: string; result: string | null }) {
  return (
    <Steps
      className="coalx-auction-timeline"
      size="small"
      current={hangState}
      status={hangState === AuctionState.ended && resultText(result) === '流拍' ? 'error' : undefined}
      items={[
        { title: '报名中', description: `截止 ${enrolDeadline.slice(5, 16)}` },
        { title: '待竞价', description: `开始 ${bidStart.slice(5, 16)}` },
        { title: '竞价中', description: `结束 ${currentEnd.slice(5, 16)}` },
        { title: hangState === AuctionState.ended && result ? `已结束 · ${resultText(result)}` : '已结束', description: '发布结果公告' },
      ]}
    />
  );
}
