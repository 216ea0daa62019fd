import { defineStateMachine } from '../state-machine';
import { publishingStates } from '../trade/publishing-states';

/** An auction's publishing workflow; the market state (AuctionState) only runs once it is approved. */
export const AuctionStates = publishingStates('auction', '竞价审核状态');

/** An enrolment holds its deposit until the award: the winner's becomes a performance deposit, others are released. */
export const EnrolmentStates = defineStateMachine({
  label: '报名状态',
  states: { enrolled: '已报名', won: '中标', released: '保证金已退' },
  moves: {
    win: { from: ['enrolled'], to: 'won', event: 'enrolment.won' },
    release: { from: ['enrolled'], to: 'released', event: 'enrolment.released' },
  },
});
