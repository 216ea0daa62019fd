import {
  DRIVER_PHOTOS,
  DRIVER_STATUS,
  DriverStates,
  VEHICLE_TYPES,
  formatDateTime,
  maskIdCard,
  type DriverDetail,
  type DriverEditInput,
  type DriverPhotoKey,
  type DriverQuery,
  type DriverRegisterInput,
  type DriverSummary,
} from '@coalx/shared';
import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { drivers, type Driver } from '../../db/schema/index';
import { appError, businessRule, conflict, notFound } from '../../errors';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { uniqueViolation } from '../../lib/db-errors';
import { publish } from '../../lib/events';
import { transition } from '../../lib/transition';
import { accountNames } from '../auth/accounts.service';
import { enterpriseIdsNamed, enterpriseNames } from '../enterprise/enterprise.service';
import { filesByIds, ownedFileId } from '../files/files.service';
import { driverPolicy } from './driver.policy';

/**
 * The driver a dispatch sends, for the delivery module: he must be the enterprise's own and approved by the
 * trading centre. Another enterprise's driver is "not found".
 */
export async function approvedDriver(db: Db | Tx, enterpriseId: number, driverId: number): Promise<Driver> {
  const [driver] = await db.select().from(drivers).where(eq(drivers.id, driverId)).limit(1);
  if (!driver || driver.enterpriseId !== enterpriseId) throw notFound('司机不存在');
  if (driver.status !== 'approved') throw businessRule('该司机未通过审核，不能派车');
  return driver;
}

/**
 * Drivers by id as the actor may see them (for dispatch notes and truck lists of the delivery work): the
 * registering enterprise and the trading centre see the whole ID number, anyone else the masked one.
 */
export async function driversForView(db: Db | Tx, actor: Actor, ids: readonly number[]): Promise<Map<number, DriverSummary>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(drivers).where(inArray(drivers.id, unique));
  const names = await enterpriseNames(db, rows.map((r) => r.enterpriseId));
  return new Map(rows.map((r) => [r.id, presentSummary(r, actor, names.get(r.enterpriseId) ?? '')]));
}

const UNIQUE_ID_CARD = 'driver_enterprise_id_card_uq';
const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function presentSummary(row: Driver, actor: Actor, enterpriseName: string): DriverSummary {
  const whole = driverPolicy.allows(actor, 'viewPrivate', row);
  return {
    id: row.id,
    enterpriseId: row.enterpriseId,
    enterpriseName,
    name: row.name,
    idCardNo: whole ? row.idCardNo : maskIdCard(row.idCardNo),
    idCardMasked: !whole,
    mobile: row.mobile,
    licenceNo: whole ? row.licenceNo : maskIdCard(row.licenceNo),
    plateNo: row.plateNo,
    vehicleType: row.vehicleType,
    vehicleTypeText: VEHICLE_TYPES[row.vehicleType as keyof typeof VEHICLE_TYPES] ?? row.vehicleType,
    ratedLoadKg: row.ratedLoadKg,
    status: row.status,
    statusText: DRIVER_STATUS[row.status as keyof typeof DRIVER_STATUS] ?? row.status,
    auditNote: row.auditNote,
    auditedAt: row.auditedAt ? formatDateTime(row.auditedAt) : null,
    createdAt: formatDateTime(row.createdAt),
    updatedAt: formatDateTime(row.updatedAt),
  };
}

async function presentDetail(db: Db | Tx, actor: Actor, row: Driver): Promise<DriverDetail> {
  const photoIds: [DriverPhotoKey, number][] = [
    ['idCardPhoto', row.idCardFileId],
    ['drivingLicencePhoto', row.drivingLicenceFileId],
    ['vehicleLicencePhoto', row.vehicleLicenceFileId],
  ];
  const [names, files, createdBy, auditedBy] = await Promise.all([
    enterpriseNames(db, [row.enterpriseId]),
    filesByIds(db as Db, photoIds.map(([, id]) => id)),
    accountNames(db, row.createdBy),
    row.auditedBy ? accountNames(db, row.auditedBy) : null,
  ]);
  const byId = new Map(files.map((f) => [f.id, f]));
  return {
    ...presentSummary(row, actor, names.get(row.enterpriseId) ?? ''),
    photos: photoIds.flatMap(([kind, id]) => {
      const file = byId.get(id);
      return file ? [{ id, kind, kindText: DRIVER_PHOTOS[kind], url: file.storageKey, name: file.originalName, contentType: file.contentType }] : [];
    }),
    createdBy: createdBy?.realname ?? '',
    auditedBy: auditedBy ? auditedBy.realname : null,
  };
}

/** The list: an enterprise sees its own drivers, the trading centre all of them with the pending ones first. */
export async function listDrivers(db: Db, actor: Actor, query: DriverQuery) {
  const enterpriseId = driverPolicy.can(actor, 'list');
  const where = and(
    enterpriseId === null ? undefined : eq(drivers.enterpriseId, enterpriseId),
    query.status ? eq(drivers.status, query.status) : undefined,
    query.name ? ilike(drivers.name, escapeLike(query.name)) : undefined,
    query.plateNo ? ilike(drivers.plateNo, escapeLike(query.plateNo.replace(/\s/g, ''))) : undefined,
    enterpriseId === null && query.enterpriseName ? inArray(drivers.enterpriseId, enterpriseIdsNamed(db, escapeLike(query.enterpriseName))) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(drivers).where(where);
  const rows = await db
    .select()
    .from(drivers)
    .where(where)
    // the audit queue: what waits first, oldest waiting first; then the newest changes
    .orderBy(sql`case when ${drivers.status} = 'pending' then 0 else 1 end`, sql`case when ${drivers.status} = 'pending' then ${drivers.updatedAt} end asc`, desc(drivers.updatedAt), asc(drivers.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  const names = await enterpriseNames(db, rows.map((r) => r.enterpriseId));
  return {
    records: rows.map((r) => presentSummary(r, actor, names.get(r.enterpriseId) ?? '')),
    total: Number(total?.n ?? 0),
    current: query.pageNo,
    size: query.pageSize,
  };
}

async function findDriver(db: Db | Tx, id: number): Promise<Driver> {
  const [row] = await db.select().from(drivers).where(eq(drivers.id, id)).limit(1);
  if (!row) throw notFound('司机不存在');
  return row;
}

/** One driver with his photos: his enterprise or the trading centre; anyone else is told he does not exist. */
export async function driverDetail(db: Db, actor: Actor, id: number): Promise<DriverDetail> {
  const row = await findDriver(db, id);
  driverPolicy.can(actor, 'viewPrivate', row);
  return presentDetail(db, actor, row);
}

/** The three photos must be private images the enterprise uploaded itself. */
async function photoFileIds(tx: Tx, enterpriseId: number, input: DriverRegisterInput) {
  const ids = {} as Record<DriverPhotoKey, number>;
  for (const key of Object.keys(DRIVER_PHOTOS) as DriverPhotoKey[]) {
    const id = await ownedFileId(tx, input[key], enterpriseId).catch(() => {
      throw appError('attachment_invalid', `${DRIVER_PHOTOS[key]}无效，请重新上传`);
    });
    ids[key] = id;
  }
  const files = await filesByIds(tx as unknown as Db, Object.values(ids));
  for (const key of Object.keys(ids) as DriverPhotoKey[]) {
    const file = files.find((f) => f.id === ids[key]);
    if (!file?.contentType.startsWith('image/')) throw appError('attachment_invalid', `${DRIVER_PHOTOS[key]}须为 JPG 或 PNG 图片，请重新上传`);
  }
  return { idCardFileId: ids.idCardPhoto, drivingLicenceFileId: ids.drivingLicencePhoto, vehicleLicenceFileId: ids.vehicleLicencePhoto };
}

function driverColumns(input: DriverRegisterInput) {
  return {
    name: input.name,
    idCardNo: input.idCardNo,
    mobile: input.mobile,
    licenceNo: input.licenceNo,
    plateNo: input.plateNo,
    vehicleType: input.vehicleType,
    ratedLoadKg: input.ratedLoadKg,
  };
}

/** The same person twice in one enterprise is one driver; another enterprise may register him too. */
async function refuseDuplicate<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (uniqueViolation(err) === UNIQUE_ID_CARD) throw conflict('该司机已登记');
    throw err;
  }
}

/** 新增司机: saved as 待审核 for the trading centre. */
export async function registerDriver(db: Db, clock: Clock, actor: Actor, input: DriverRegisterInput): Promise<DriverDetail> {
  const enterpriseId = driverPolicy.can(actor, 'manage');
  const now = clock.now();
  const row = await refuseDuplicate(
    db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: drivers.id })
        .from(drivers)
        .where(and(eq(drivers.enterpriseId, enterpriseId), eq(drivers.idCardNo, input.idCardNo)))
        .limit(1);
      if (taken) throw conflict('该司机已登记');
      const photos = await photoFileIds(tx, enterpriseId, input);
      const [created] = await tx
        .insert(drivers)
        .values({ enterpriseId, ...driverColumns(input), ...photos, status: 'pending', createdBy: actor.userId, createdAt: now, updatedAt: now })
        .returning();
      await publish(tx, 'driver.registered', { id: created!.id });
      return created!;
    }),
  );
  return presentDetail(db, actor, row);
}

/** The enterprise's own driver, for a change; another enterprise's is "not found". */
async function ownDriver(db: Db | Tx, actor: Actor, id: number): Promise<{ row: Driver; enterpriseId: number }> {
  const enterpriseId = driverPolicy.can(actor, 'manage');
  const row = await findDriver(db, id);
  if (row.enterpriseId !== enterpriseId) throw notFound('司机不存在');
  return { row, enterpriseId };
}

function sameDriver(row: Driver, columns: ReturnType<typeof driverColumns>, photos: Awaited<ReturnType<typeof photoFileIds>>): boolean {
  return (Object.keys(columns) as (keyof typeof columns)[]).every((k) => row[k] === columns[k]) && (Object.keys(photos) as (keyof typeof photos)[]).every((k) => row[k] === photos[k]);
}

/**
 * 编辑: a pending driver is simply corrected; a change to an approved or rejected one sends him back to 待审核
 * (an approved driver is not dispatched on details the trading centre has not seen). A stopped driver is taken
 * up again with 重新提交 first. An approved or pending driver saved unchanged does not move.
 */
export async function editDriver(db: Db, clock: Clock, actor: Actor, id: number, input: DriverEditInput): Promise<{ detail: DriverDetail; resubmitted: boolean }> {
  const now = clock.now();
  const result = await refuseDuplicate(
    db.transaction(async (tx) => {
      const { row, enterpriseId } = await ownDriver(tx, actor, id);
      if (row.status === 'disabled') throw businessRule('该司机已停用，请先重新提交后再修改');
      const columns = driverColumns(input);
      const photos = await photoFileIds(tx, enterpriseId, input);
      // saving a rejected driver unchanged still means "look again"; an approved one keeps its approval
      if (sameDriver(row, columns, photos) && row.status !== 'rejected') return { row, resubmitted: false };
      const set = { ...columns, ...photos, updatedAt: now };
      const where = and(eq(drivers.id, id), eq(drivers.enterpriseId, enterpriseId))!;
      if (row.status === 'pending') {
        // still pending when saved: an audit that landed in between is not overwritten
        const [saved] = await tx.update(drivers).set(set).where(and(where, eq(drivers.status, 'pending'))).returning();
        if (!saved) throw appError('state_changed', '该司机的审核状态已变化，请刷新后重试');
        return { row: saved, resubmitted: false };
      }
      const moved = await transition(tx, DriverStates, 'resubmit', { table: drivers, where, set: { ...set, auditNote: '', auditedBy: null, auditedAt: null }, notFoundMessage: '司机不存在' });
      return { row: moved, resubmitted: true };
    }),
  );
  return { detail: await presentDetail(db, actor, result.row), resubmitted: result.resubmitted };
}

/** 停用: the driver is no longer dispatched; his record stays. */
export async function disableDriver(db: Db, clock: Clock, actor: Actor, id: number): Promise<DriverDetail> {
  const { enterpriseId } = await ownDriver(db, actor, id);
  const moved = await transition(db, DriverStates, 'disable', {
    table: drivers,
    where: and(eq(drivers.id, id), eq(drivers.enterpriseId, enterpriseId))!,
    set: { updatedAt: clock.now() },
    notFoundMessage: '司机不存在',
  });
  return presentDetail(db, actor, moved);
}

/** 重新提交: a stopped (or rejected) driver goes back to the trading centre's queue. */
export async function resubmitDriver(db: Db, clock: Clock, actor: Actor, id: number): Promise<DriverDetail> {
  const { row, enterpriseId } = await ownDriver(db, actor, id);
  if (row.status === 'approved') throw businessRule('该司机已通过审核，无需重新提交');
  // in a transaction: the move and its notifying event (the outbox row) commit together
  const moved = await db.transaction((tx) =>
    transition(tx, DriverStates, 'resubmit', {
      table: drivers,
      where: and(eq(drivers.id, id), eq(drivers.enterpriseId, enterpriseId))!,
      set: { auditNote: '', auditedBy: null, auditedAt: null, updatedAt: clock.now() },
      notFoundMessage: '司机不存在',
    }),
  );
  return presentDetail(db, actor, moved);
}

/** 审核通过 / 驳回 (司机审核): of two operators at once, one wins and the other gets the 409 of the move. */
export async function auditDriver(db: Db, clock: Clock, actor: Actor, id: number, decision: { approve: true } | { approve: false; reason: string }): Promise<DriverDetail> {
  driverPolicy.can(actor, 'audit');
  const now = clock.now();
  const where: SQL = eq(drivers.id, id);
  const set = { auditedBy: actor.userId, auditedAt: now, updatedAt: now, auditNote: decision.approve ? '' : decision.reason };
  const moved = await db.transaction((tx) => transition(tx, DriverStates, decision.approve ? 'approve' : 'reject', { table: drivers, where, set, notFoundMessage: '司机不存在' }));
  return presentDetail(db, actor, moved);
}

/** Counts for the 工作台: drivers waiting for the trading centre, and an enterprise's rejected ones. */
export async function driverCounts(db: Db, enterpriseId: number | null): Promise<{ pending: number; rejected: number }> {
  const rows = await db
    .select({ status: drivers.status, n: count() })
    .from(drivers)
    .where(and(enterpriseId === null ? undefined : eq(drivers.enterpriseId, enterpriseId), inArray(drivers.status, ['pending', 'rejected'])))
    .groupBy(drivers.status);
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: of('pending'), rejected: of('rejected') };
}

/** A driver of the enterprise, or null when he is not its own (freight settlement pays its own drivers). */
export async function enterpriseDriver(db: Db | Tx, enterpriseId: number, driverId: number) {
  const [driver] = await db.select({ id: drivers.id, name: drivers.name, plateNo: drivers.plateNo, enterpriseId: drivers.enterpriseId }).from(drivers).where(eq(drivers.id, driverId)).limit(1);
  return driver && driver.enterpriseId === enterpriseId ? driver : null;
}

/** The drivers the enterprise registered (any state: a stopped driver may still be owed freight). */
export async function enterpriseDrivers(db: Db | Tx, enterpriseId: number) {
  return db.select({ id: drivers.id, name: drivers.name, plateNo: drivers.plateNo }).from(drivers).where(eq(drivers.enterpriseId, enterpriseId)).orderBy(asc(drivers.name), asc(drivers.id)).limit(500);
}
