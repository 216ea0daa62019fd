import { defineStateMachine } from '../state-machine';

/**
 * A contract (合同) from its generation at the deal to its end. Either side may sign first; the second signature
 * makes it effective. A signature cleared by an edit (before the contract is effective) takes it back to 待签署.
 * Past the deadline it is 逾期未签: the operator voids it (ruling who breached) or extends the deadline once, which
 * puts it back where it was. The order (delivery issue) moves it to 履行中 and settlement to 已完成.
 */
export const ContractStates = defineStateMachine({
  label: '合同状态',
  states: {
    pending: '待签署',
    seller_signed: '卖方已签',
    buyer_signed: '买方已签',
    effective: '已生效',
    performing: '履行中',
    completed: '已完成',
    voided: '已作废',
    overdue: '逾期未签',
    terminated: '已终止',
  },
  moves: {
    sellerSign: { from: ['pending'], to: 'seller_signed', event: 'contract.seller_signed' },
    buyerSign: { from: ['pending'], to: 'buyer_signed', event: 'contract.buyer_signed' },
    /** the second signature, or the operator accepting an uploaded paper contract */
    takeEffect: { from: ['seller_signed', 'buyer_signed', 'pending'], to: 'effective', event: 'contract.effective' },
    /** an edit of the terms clears the one signature already made */
    reopen: { from: ['seller_signed', 'buyer_signed'], to: 'pending', event: 'contract.reopened' },
    expire: { from: ['pending', 'seller_signed', 'buyer_signed'], to: 'overdue', event: 'contract.overdue' },
    extendUnsigned: { from: ['overdue'], to: 'pending', event: 'contract.extended' },
    extendSellerSigned: { from: ['overdue'], to: 'seller_signed', event: 'contract.extended' },
    extendBuyerSigned: { from: ['overdue'], to: 'buyer_signed', event: 'contract.extended' },
    void: { from: ['pending', 'seller_signed', 'buyer_signed', 'overdue'], to: 'voided', event: 'contract.voided' },
    perform: { from: ['effective'], to: 'performing', event: 'contract.performing' },
    complete: { from: ['performing'], to: 'completed', event: 'contract.completed' },
    /** a long-term framework terminated by the trading centre during its period */
    terminate: { from: ['effective', 'performing'], to: 'terminated', event: 'contract.terminated' },
  },
});

/** A paper contract signed and stamped offline (合同上传), compared by the operator with the generated text. */
export const ContractUploadStates = defineStateMachine({
  label: '纸质合同审核状态',
  states: { submitted: '待审核', accepted: '已确认', rejected: '已驳回' },
  moves: {
    accept: { from: ['submitted'], to: 'accepted', event: 'contractupload.accepted' },
    reject: { from: ['submitted'], to: 'rejected', event: 'contractupload.rejected' },
  },
});

/** States in which a party may still sign or upload. */
export const CONTRACT_SIGNABLE_STATES = ['pending', 'seller_signed', 'buyer_signed'] as const;
