import { describe, expect, it } from 'vitest';
import { refusedMoveMessage } from '../state-machine';
import {
  AuctionMarketStates,
  auctionHangState,
  ListingMarketStates,
  listingHangState,
  MARKET_STATE_MACHINES,
  marketCode,
  marketStateOf,
  moveBetween,
} from './market-states';
import { AUCTION_STATE_LABELS, AuctionState, HANG_STATE_LABELS, HangState } from './types';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 22, 2, minutes));

describe('market state tables', () => {
  it.each(Object.entries(MARKET_STATE_MACHINES))('%s: every move names known states and a dotted event; labels match the dictionaries', (name, machine) => {
    const states = Object.keys(machine.states);
    for (const [move, step] of Object.entries(machine.moves)) {
      expect(states, move).toContain(step.to);
      for (const from of step.from) expect(states, move).toContain(from);
      expect(step.event).toMatch(new RegExp(`^${name}\\.[a-z_]+$`));
    }
    const labels: Record<number, string> = name === 'listing' ? HANG_STATE_LABELS : AUCTION_STATE_LABELS;
    for (const [state, label] of Object.entries(machine.states)) expect(labels[(machine.codes as Record<string, number>)[state]!]).toBe(label);
  });

  it('names the moves between states, and none back in time', () => {
    expect(moveBetween(ListingMarketStates, 'notStarted', 'open')).toBe('open');
    expect(moveBetween(ListingMarketStates, 'open', 'ended')).toBe('end');
    expect(moveBetween(ListingMarketStates, 'ended', 'open')).toBe('reopen');
    expect(moveBetween(ListingMarketStates, 'open', 'notStarted')).toBeUndefined();
    expect(moveBetween(AuctionMarketStates, 'enrolling', 'bidding')).toBe('startBidding');
    expect(moveBetween(AuctionMarketStates, 'ended', 'bidding')).toBeUndefined();
    expect(marketCode(AuctionMarketStates, 'bidding')).toBe(AuctionState.bidding);
    expect(marketStateOf(ListingMarketStates, HangState.ended)).toBe('ended');
    expect(refusedMoveMessage(AuctionMarketStates, 'ended', 'bidding')).toBe('竞价状态为「已结束」，不能改为「竞价中」，请刷新后重试');
  });

  it('a listing: not started before its window, open inside, ended after it or once sold out', () => {
    const listing = { subscribedKg: 0, quantityKg: 1_000, listedDateStart: at(10), listedDateEnd: at(20) };
    expect(listingHangState(listing, at(9))).toBe(HangState.notStarted);
    expect(listingHangState(listing, at(10))).toBe(HangState.open);
    expect(listingHangState(listing, at(19))).toBe(HangState.open);
    expect(listingHangState(listing, at(20))).toBe(HangState.ended);
    expect(listingHangState({ ...listing, subscribedKg: 1_000 }, at(15))).toBe(HangState.ended);
  });

  it('an auction: enrolling, waiting, bidding until the deadline in force, ended; a stored end is final', () => {
    const auction = { hangState: AuctionState.enrolling, enrolDeadline: at(10), bidStart: at(20), currentEnd: at(30) };
    expect(auctionHangState(auction, at(9))).toBe(AuctionState.enrolling);
    expect(auctionHangState(auction, at(10))).toBe(AuctionState.waiting);
    expect(auctionHangState(auction, at(20))).toBe(AuctionState.bidding);
    expect(auctionHangState(auction, at(30))).toBe(AuctionState.ended);
    expect(auctionHangState({ ...auction, hangState: AuctionState.ended }, at(25))).toBe(AuctionState.ended);
  });

  it("the trading centre's pause and cancel: stored states the clock never moves; pause only from bidding", () => {
    const auction = { enrolDeadline: at(10), bidStart: at(20), currentEnd: at(30) };
    // long past the old deadline a paused auction is still paused, a cancelled one still cancelled
    expect(auctionHangState({ ...auction, hangState: AuctionState.paused }, at(90))).toBe(AuctionState.paused);
    expect(auctionHangState({ ...auction, hangState: AuctionState.cancelled }, at(5))).toBe(AuctionState.cancelled);
    expect(moveBetween(AuctionMarketStates, 'bidding', 'paused')).toBe('pause');
    expect(moveBetween(AuctionMarketStates, 'paused', 'bidding')).toBe('resume');
    expect(moveBetween(AuctionMarketStates, 'waiting', 'paused')).toBeUndefined();
    expect(moveBetween(AuctionMarketStates, 'paused', 'ended')).toBeUndefined(); // the award waits for the resume
    for (const from of ['enrolling', 'waiting', 'bidding', 'paused']) expect(moveBetween(AuctionMarketStates, from, 'cancelled')).toBe('cancel');
    expect(moveBetween(AuctionMarketStates, 'ended', 'cancelled')).toBeUndefined();
    expect(refusedMoveMessage(AuctionMarketStates, 'waiting', 'paused')).toBe('竞价状态为「待竞价」，不能改为「暂停」，请刷新后重试');
  });
});
