import { defineStateMachine } from '../state-machine';

/**
 * The publishing workflow listings and auctions share: a draft is saved and edited, submitted, then approved or
 * rejected by the trading centre; a rejected one is edited and submitted again. Events are named per domain
 * (`listing.approved`, `auction.approved`).
 */
export function publishingStates<const D extends string>(domain: D, label: string) {
  return defineStateMachine({
    label,
    states: { draft: '草稿', submitted: '待审核', approved: '已通过', rejected: '已驳回' },
    moves: {
      saveDraft: { from: ['draft', 'rejected'], to: 'draft', event: `${domain}.draft_saved` },
      submit: { from: ['draft', 'rejected'], to: 'submitted', event: `${domain}.submitted` },
      approve: { from: ['submitted'], to: 'approved', event: `${domain}.approved` },
      reject: { from: ['submitted'], to: 'rejected', event: `${domain}.rejected` },
    },
  });
}
