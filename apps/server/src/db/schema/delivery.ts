import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, jsonb, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { tstz } from './columns';
import { enterprises } from './enterprise';
import { fileObjects } from './files';
import { orders } from './order';

/**
 * One truck sent against an order (派车单 / 提煤单, `PC` + date + sequence) by the transporting side, for planned
 * tons. The driver and vehicle are copied from the approved driver when dispatched (a later edit of the driver does
 * not change a note already printed). `gate_token` is what the QR code carries: the mine's gate opens the loading
 * record with it. Both nets come from the weigh tickets; `signed_kg` is the weight that counts (the net on the
 * contract's weighing basis, or the operator's ruling).
 */
export const dispatches = pgTable(
  'dispatch',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dispatchNo: text('dispatch_no').notNull().unique(),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    /** the enterprise that sent the truck (the order's transporting side) */
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /**
     * The order's parties, copied from the order on insert by the trigger `dispatch_parties` (migration 0018), so
     * an enterprise's trucks are read from an index of their own rather than through all its orders.
     */
    sellerEnterpriseId: bigint('seller_enterprise_id', { mode: 'number' }),
    buyerEnterpriseId: bigint('buyer_enterprise_id', { mode: 'number' }),
    driverId: bigint('driver_id', { mode: 'number' }).notNull(),
    driverName: text('driver_name').notNull(),
    driverMobile: text('driver_mobile').notNull(),
    driverIdCardNo: text('driver_id_card_no').notNull(),
    plateNo: text('plate_no').notNull(),
    vehicleType: text('vehicle_type').notNull(),
    ratedLoadKg: bigint('rated_load_kg', { mode: 'number' }).notNull(),
    plannedKg: bigint('planned_kg', { mode: 'number' }).notNull(),
    /** yyyy-MM-dd the truck is expected at the mine */
    planDate: text('plan_date').notNull(),
    gateToken: text('gate_token').notNull().unique(),
    status: text('status').notNull().default('dispatched'),
    loadedNetKg: bigint('loaded_net_kg', { mode: 'number' }),
    arrivedNetKg: bigint('arrived_net_kg', { mode: 'number' }),
    /** loaded − arrived; positive is a loss */
    lossKg: bigint('loss_kg', { mode: 'number' }),
    /** the loss is beyond the contract's transit-loss tolerance (合理途损) */
    lossExceeded: boolean('loss_exceeded').notNull().default(false),
    signedKg: bigint('signed_kg', { mode: 'number' }),
    loadedAt: tstz('loaded_at'),
    arrivedAt: tstz('arrived_at'),
    /** when an unanswered arrival counts as signed */
    autoSignAt: tstz('auto_sign_at'),
    signedAt: tstz('signed_at'),
    /** 'buyer' | 'auto' | 'ruling' */
    signedHow: text('signed_how'),
    disputeReason: text('dispute_reason'),
    disputeFileIds: jsonb('dispute_file_ids').$type<number[]>(),
    disputedAt: tstz('disputed_at'),
    sellerAnswer: text('seller_answer'),
    answeredAt: tstz('answered_at'),
    rulingNote: text('ruling_note'),
    ruledBy: bigint('ruled_by', { mode: 'number' }).references(() => users.id),
    ruledAt: tstz('ruled_at'),
    cancelReason: text('cancel_reason'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('dispatch_order_idx').on(t.orderId, t.id),
    index('dispatch_enterprise_idx').on(t.enterpriseId, t.id),
    index('dispatch_auto_sign_idx').on(t.autoSignAt).where(sql`${t.status} = 'arrived'`),
    // 运输信息 newest first for each side, and by plate (a province's plates: prefix search)
    index('dispatch_seller_idx').on(t.sellerEnterpriseId, t.id),
    index('dispatch_buyer_idx').on(t.buyerEnterpriseId, t.id),
    index('dispatch_plate_idx').on(sql`${t.plateNo} text_pattern_ops`, t.id),
    index('dispatch_seller_plate_idx').on(t.sellerEnterpriseId, sql`${t.plateNo} text_pattern_ops`, t.id),
    index('dispatch_buyer_plate_idx').on(t.buyerEnterpriseId, sql`${t.plateNo} text_pattern_ops`, t.id),
    // trucks waiting for a signature, an answer or a ruling
    index('dispatch_waiting_idx').on(t.status, t.buyerEnterpriseId, t.sellerEnterpriseId).where(sql`${t.status} IN ('arrived', 'disputed')`),
  ],
);

/**
 * A weigh ticket (磅单): at loading by the seller, at arrival by the buyer. net = gross − tare, checked. A ticket
 * number is used once per issuing enterprise.
 */
export const weighTickets = pgTable(
  'weigh_ticket',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dispatchId: bigint('dispatch_id', { mode: 'number' }).notNull().references(() => dispatches.id),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    /** 'loading' | 'arrival' */
    stage: text('stage').notNull(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    ticketNo: text('ticket_no').notNull(),
    grossKg: bigint('gross_kg', { mode: 'number' }).notNull(),
    tareKg: bigint('tare_kg', { mode: 'number' }).notNull(),
    netKg: bigint('net_kg', { mode: 'number' }).notNull(),
    weighedAt: tstz('weighed_at').notNull(),
    photoFileId: bigint('photo_file_id', { mode: 'number' }).references(() => fileObjects.id),
    /** the signed-in user who recorded it; null when a gate clerk recorded it with the truck's QR pass */
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id),
    /** the QR pass it was recorded with (gate_pass), and the name the clerk gave */
    gatePassId: bigint('gate_pass_id', { mode: 'number' }),
    recorderName: text('recorder_name').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('weigh_ticket_stage_uq').on(t.dispatchId, t.stage),
    uniqueIndex('weigh_ticket_no_uq').on(t.enterpriseId, t.ticketNo),
    index('weigh_ticket_order_idx').on(t.orderId),
  ],
);

/**
 * A truck's QR pass (issue 32): what a weighbridge clerk without an account records one ticket with, at the mine
 * (stage 'loading', for the seller) or at the plant ('arrival', for the buyer). The QR code carries the pass's id,
 * truck, stage and enterprise signed with the platform's gate-pass key (modules/delivery/gate-pass.ts); this row
 * says whether it still works: it is used up by its ticket, revoked when the truck is cancelled, and expires
 * after gate_pass_days (the arrival pass counted from loading).
 */
export const gatePasses = pgTable(
  'gate_pass',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** random, in the QR code and in the audit trail */
    tokenId: text('token_id').notNull().unique(),
    dispatchId: bigint('dispatch_id', { mode: 'number' }).notNull().references(() => dispatches.id),
    /** 'loading' | 'arrival' */
    stage: text('stage').notNull(),
    /** the side whose ticket it records: the seller at loading, the buyer at arrival */
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    revokedAt: tstz('revoked_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gate_pass_dispatch_stage_uq').on(t.dispatchId, t.stage)],
);

/** A lab report (化验单) for an order or a batch of it, by the lab the contract names. */
export const qualityReports = pgTable(
  'quality_report',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
    /** which side submitted it: 'seller' | 'buyer' (the other side answers) */
    side: text('side').notNull(),
    enterpriseId: bigint('enterprise_id', { mode: 'number' }).notNull().references(() => enterprises.id),
    /** '' for the whole order, or the batch it covers (e.g. 11月23日第1批) */
    batch: text('batch').notNull().default(''),
    /** TESTING_BASES key: whose lab */
    lab: text('lab').notNull(),
    labName: text('lab_name').notNull(),
    reportNo: text('report_no').notNull(),
    /** kcal/kg */
    qnet: bigint('qnet', { mode: 'number' }).notNull(),
    /** percent, two places */
    mt: numeric('mt', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    st: numeric('st', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    ad: numeric('ad', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    vdaf: numeric('vdaf', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    testedAt: text('tested_at').notNull(),
    fileId: bigint('file_id', { mode: 'number' }).notNull().references(() => fileObjects.id),
    status: text('status').notNull().default('submitted'),
    answerNote: text('answer_note').notNull().default(''),
    answeredBy: bigint('answered_by', { mode: 'number' }).references(() => users.id),
    answeredAt: tstz('answered_at'),
    createdBy: bigint('created_by', { mode: 'number' }).notNull().references(() => users.id),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('quality_report_order_idx').on(t.orderId, t.id),
    uniqueIndex('quality_report_no_uq').on(t.enterpriseId, t.reportNo),
    // reports waiting for the other side or for a ruling
    index('quality_report_waiting_idx').on(t.status, t.orderId).where(sql`${t.status} IN ('submitted', 'disputed')`),
  ],
);

export type Dispatch = typeof dispatches.$inferSelect;
export type WeighTicket = typeof weighTickets.$inferSelect;
export type GatePass = typeof gatePasses.$inferSelect;
export type QualityReport = typeof qualityReports.$inferSelect;
