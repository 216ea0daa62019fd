import { describe, expect, it } from 'vitest';
import { notFound } from '../errors';
import type { Actor } from './actor';
import { definePolicy } from './policy';

const policy = definePolicy(
  {
    actAsParty(actor: Actor, contract: { sellerEnterpriseId: number }) {
      if (contract.sellerEnterpriseId !== actor.enterpriseId) throw notFound('合同不存在');
    },
    rule(actor: Actor) {
      if (actor.role !== 'operator') throw notFound('合同不存在');
    },
  },
  { actAsParty: 'contract-sign.edit', rule: 'contract-list.edit' },
);

const trader: Actor = { userId: 1, username: 'seller01', role: 'trader', roleId: 3, enterpriseId: 7 } as Actor;
const contract = { sellerEnterpriseId: 7 };
const all = () => true;

describe('policy verdicts (what the page may show)', () => {
  it('joins the rule, the route grant and the state', () => {
    const actions = { sign: { rule: 'actAsParty' as const, when: true }, edit: { rule: 'actAsParty' as const, when: false }, void: { rule: 'rule' as const } };
    expect(policy.verdicts(trader, all, contract, actions)).toEqual({ sign: true, edit: false, void: false });
    // a read-only role: the same rule, but no edit grant on the page, so no 签署 button
    const readOnly = (check: string) => !check.endsWith('.edit');
    expect(policy.verdicts(trader, readOnly, contract, actions)).toEqual({ sign: false, edit: false, void: false });
    // another enterprise's contract: the rule refuses
    expect(policy.verdicts(trader, all, { sellerEnterpriseId: 8 }, actions).sign).toBe(false);
    expect(policy.grantOf('rule')).toBe('contract-list.edit');
    // one verdict may ask about another object than the shared one
    expect(policy.verdicts(trader, all, contract, { other: { rule: 'actAsParty', on: { sellerEnterpriseId: 8 } } })).toEqual({ other: false });
  });
});
