import { describe, expect, it } from 'vitest';
import { EnterpriseAuditStates } from './enterprise/states';
import { TradeDepositStates } from './funds/states';
import { ListingStates } from './listing/states';
import { canTransition, refusedMoveMessage, type StateMachine } from './state-machine';
import { STATE_MACHINES } from './states';

const TABLES: Record<string, StateMachine> = STATE_MACHINES;

describe('transition tables', () => {
  it.each(Object.entries(TABLES))('%s: every move names known states, a Chinese label and a dotted event', (_name, machine) => {
    const states = Object.keys(machine.states);
    for (const [name, move] of Object.entries(machine.moves)) {
      expect(states, name).toContain(move.to);
      for (const from of move.from) expect(states, name).toContain(from);
      expect(move.event).toMatch(/^[a-z]+(\.[a-z_]+)$/);
    }
    for (const label of Object.values(machine.states)) expect(label).toMatch(/[\u4e00-\u9fa5]/);
  });

  it('canTransition follows the table', () => {
    expect(canTransition(ListingStates, 'submitted', 'approved')).toBe(true);
    expect(canTransition(ListingStates, 'approved', 'rejected')).toBe(false);
    expect(canTransition(ListingStates, 'unknown', 'approved')).toBe(false);
    expect(canTransition(EnterpriseAuditStates, 'rejected', 'pending')).toBe(true);
    expect(canTransition(TradeDepositStates, 'performance', 'released')).toBe(true);
    expect(canTransition(TradeDepositStates, 'released', 'performance')).toBe(false);
  });

  it('a refusal names both states in Chinese', () => {
    expect(refusedMoveMessage(ListingStates, 'approved', 'rejected')).toBe('挂牌审核状态为「已通过」，不能改为「已驳回」，请刷新后重试');
  });
});
