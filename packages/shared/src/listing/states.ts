import { defineStateMachine } from '../state-machine';

/** A listing's publishing workflow; the market state (HangState) only runs once it is approved. */
export const ListingStates = defineStateMachine({
  label: '挂牌审核状态',
  states: { draft: '草稿', submitted: '待审核', approved: '已通过', rejected: '已驳回' },
  moves: {
    saveDraft: { from: ['draft', 'rejected'], to: 'draft', event: 'listing.draft_saved' },
    submit: { from: ['draft', 'rejected'], to: 'submitted', event: 'listing.submitted' },
    approve: { from: ['submitted'], to: 'approved', event: 'listing.approved' },
    reject: { from: ['submitted'], to: 'rejected', event: 'listing.rejected' },
  },
});

/** A subscription (摘牌) waits for the publisher, or is confirmed at once when the listing auto-confirms. */
export const SubscriptionStates = defineStateMachine({
  label: '摘牌状态',
  states: { pending: '待确认', confirmed: '已成交', declined: '已拒绝' },
  moves: {
    confirm: { from: ['pending'], to: 'confirmed', event: 'subscription.confirmed' },
    decline: { from: ['pending'], to: 'declined', event: 'subscription.declined' },
  },
});
