import { defineStateMachine } from '../state-machine';

/** An auction's publishing workflow; the market state (AuctionState) only runs once it is approved. */
export const AuctionStates = defineStateMachine({
  label: '竞价审核状态',
  states: { draft: '草稿', submitted: '待审核', approved: '已通过', rejected: '已驳回' },
  moves: {
    saveDraft: { from: ['draft', 'rejected'], to: 'draft', event: 'auction.draft_saved' },
    submit: { from: ['draft', 'rejected'], to: 'submitted', event: 'auction.submitted' },
    approve: { from: ['submitted'], to: 'approved', event: 'auction.approved' },
    reject: { from: ['submitted'], to: 'rejected', event: 'auction.rejected' },
  },
});

/** An enrolment holds its deposit until the award: the winner's becomes a performance deposit, others are released. */
export const EnrolmentStates = defineStateMachine({
  label: '报名状态',
  states: { enrolled: '已报名', won: '中标', released: '保证金已退' },
  moves: {
    win: { from: ['enrolled'], to: 'won', event: 'enrolment.won' },
    release: { from: ['enrolled'], to: 'released', event: 'enrolment.released' },
  },
});
