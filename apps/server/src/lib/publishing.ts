import type { StateMachine } from '@coalx/shared';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import type { Actor } from './actor';
import { publish, type EventName } from './events';
import type { Policy } from './policy';
import { nextTradeNumber } from './trade-number';
import { transition } from './transition';

/** The columns every published trade (listing, auction) has for the workflow (packages/shared trade/publishing-states.ts). */
type PublishedTable = PgTable & { id: PgColumn; tradeNo: PgColumn; status: PgColumn; enterpriseId: PgColumn; auditTime: PgColumn; auditedBy: PgColumn; rejectReason: PgColumn };
type RowOf<T extends PgTable> = T['$inferSelect'];

/** What the workflow writes itself; the module hands over every other column. */
type WorkflowColumn = 'id' | 'tradeNo' | 'status' | 'enterpriseId' | 'createdBy' | 'createdAt' | 'updatedAt' | 'rejectReason' | 'auditTime' | 'auditedBy';

/** What the workflow reads of a row besides what the module's caller gets back. */
type Owned = { id: number; enterpriseId: number };

/** The publisher's and the trading centre's rules, as the module's policy names them. */
type PublishingRules = { manage(actor: Actor, row: Owned): unknown; audit(actor: Actor): unknown };

/** A module's published trade: its own table and transition table, handed to the workflow (lib never imports a module). */
export interface Publishing<T extends PublishedTable> {
  table: T;
  states: StateMachine<'draft' | 'submitted' | 'approved' | 'rejected', 'saveDraft' | 'submit' | 'approve' | 'reject', EventName>;
  /** The trade number's prefix (GP listing, JJ auction). */
  prefix: Parameters<typeof nextTradeNumber>[1];
  /** Said when a trade number names no row. */
  notFoundMessage: string;
  policy: Pick<Policy<PublishingRules>, 'can'>;
}

export type PublishedValues<T extends PgTable> = Omit<T['$inferInsert'], WorkflowColumn>;

/** What the listing and the auction forms ask alike (the trade, its quantity and quality, packages/shared deliveryFields, a remark). */
type TradeForm = {
  tradeType: number;
  quality: object;
  quantity: number;
  remark: string;
  priceType: string;
  transport: string;
  deliveryProvince: string;
  deliveryCity: string;
  deliveryDistrict: string;
  deliveryPlace: string;
  deliveryDateStart: string;
  deliveryDateEnd: string;
};

/** The columns a published trade saves alike from its form and its product (the module finds the enabled product). */
export function tradeColumns<F extends TradeForm>(input: F, product: { stockCode: string; stockName: string; category: string }) {
  return {
    tradeType: input.tradeType,
    stockCode: product.stockCode,
    productName: product.stockName,
    category: product.category,
    quality: input.quality,
    quantityKg: input.quantity,
    priceType: input.priceType,
    transport: input.transport,
    deliveryProvince: input.deliveryProvince,
    deliveryCity: input.deliveryCity,
    deliveryDistrict: input.deliveryDistrict,
    deliveryPlace: input.deliveryPlace,
    deliveryDateStart: input.deliveryDateStart,
    deliveryDateEnd: input.deliveryDateEnd,
    remark: input.remark,
  };
}

/**
 * Saves a draft, or submits it for audit: a new one gets its trade number and is created in the target state (its
 * submit event published in the same transaction); an existing one (`tradeId`) is the publisher's draft or rejected
 * trade, edited by the move. Either way the last rejection's reason is cleared.
 */
export async function savePublished<T extends PublishedTable>(
  db: Db,
  p: Publishing<T>,
  actor: Actor,
  now: Date,
  input: { tradeId?: string; submit?: boolean },
  values: PublishedValues<T>,
): Promise<RowOf<T>> {
  const move = input.submit ? 'submit' : 'saveDraft';
  const set = { ...values, rejectReason: null, updatedAt: now };
  if (input.tradeId) {
    const [existing] = (await db.select().from(p.table as PgTable).where(eq(p.table.tradeNo, input.tradeId)).limit(1)) as (RowOf<T> & Owned)[];
    if (!existing) throw notFound(p.notFoundMessage);
    p.policy.can(actor, 'manage', existing);
    // in a transaction: the move and its notifying event (the outbox row) commit together
    return db.transaction((tx) => transition(tx, p.states, move, { table: p.table, where: eq(p.table.id, existing.id), set: set as PgUpdateSetSource<T> }));
  }
  return db.transaction(async (tx) => {
    const tradeNo = await nextTradeNumber(tx, p.prefix, now);
    const status = p.states.moves[move].to;
    const [created] = (await tx
      .insert(p.table as PgTable)
      .values({ ...set, status, tradeNo, enterpriseId: actor.enterpriseId!, createdBy: actor.userId, createdAt: now } as never)
      .returning()) as (RowOf<T> & Owned)[];
    if (input.submit) await publish(tx, p.states.moves.submit.event, { id: created!.id, to: status });
    return created!;
  });
}

/** The trading centre's verdict on a submitted trade: approved, or rejected with its reason; who and when are kept. */
export async function auditPublished<T extends PublishedTable>(
  db: Db,
  p: Publishing<T>,
  actor: Actor,
  now: Date,
  tradeNo: string,
  decision: { approve: true } | { approve: false; reason: string },
): Promise<RowOf<T>> {
  p.policy.can(actor, 'audit');
  return db.transaction((tx) =>
    transition(tx, p.states, decision.approve ? 'approve' : 'reject', {
      table: p.table,
      where: eq(p.table.tradeNo, tradeNo),
      set: { auditTime: now, auditedBy: actor.userId, updatedAt: now, ...(decision.approve ? {} : { rejectReason: decision.reason }) } as PgUpdateSetSource<T>,
      notFoundMessage: p.notFoundMessage,
    }),
  );
}
