import { defineStateMachine } from '../state-machine';
import { publishingStates } from '../trade/publishing-states';

/** A listing's publishing workflow; the market state (HangState) only runs once it is approved. */
export const ListingStates = publishingStates('listing', '挂牌审核状态');

/** A subscription (摘牌) waits for the publisher, or is confirmed at once when the listing auto-confirms. */
export const SubscriptionStates = defineStateMachine({
  label: '摘牌状态',
  states: { pending: '待确认', confirmed: '已成交', declined: '已拒绝' },
  moves: {
    confirm: { from: ['pending'], to: 'confirmed', event: 'subscription.confirmed' },
    decline: { from: ['pending'], to: 'declined', event: 'subscription.declined' },
  },
});
