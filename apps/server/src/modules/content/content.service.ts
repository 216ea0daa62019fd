import { ContentStates, formatDateTime, type MoveOf } from '@coalx/shared';
import { and, asc, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { banners, contents } from '../../db/schema/index';
import { findStoredFile } from '../files/files.service';
import { businessRule, conflict, notFound } from '../../errors';
import { publish } from '../../lib/events';
import { transition } from '../../lib/transition';
import { sanitizeBody } from './sanitize';

export const STATIC_PREFIX = '/trade-api/api/common/static/';

// ---------- banners ----------

function presentBanner(b: typeof banners.$inferSelect) {
  return { id: b.id, title: b.title, listImage: STATIC_PREFIX + b.imageUrl, detailPageURL: b.detailPageUrl, imageUrl: b.imageUrl, sort: b.sort, enabled: b.enabled };
}

export async function listBanners(db: Db, includeDisabled = false) {
  const rows = await db.select().from(banners).where(includeDisabled ? undefined : eq(banners.enabled, true)).orderBy(asc(banners.sort), desc(banners.id));
  return rows.map(presentBanner);
}

/** Images and PDFs shown to visitors must be public files. */
async function assertPublicFile(db: Db, key: string, kind: 'image' | 'pdf') {
  const file = await findStoredFile(db, key);
  if (!file || file.visibility !== 'public') throw businessRule('文件不存在或不是公开文件，请重新上传');
  const isPdf = file.contentType === 'application/pdf';
  if ((kind === 'pdf') !== isPdf) throw businessRule(kind === 'pdf' ? '附件须为 PDF 文件' : '图片须为 JPG 或 PNG');
}

export async function saveBanner(db: Db, input: { id?: number; title: string; imageUrl: string; detailPageUrl: string; sort: number; enabled: boolean }) {
  await assertPublicFile(db, input.imageUrl, 'image');
  const { id, ...values } = input;
  if (id) {
    const [updated] = await db.update(banners).set({ ...values, updatedAt: new Date() }).where(eq(banners.id, id)).returning();
    if (!updated) throw notFound('轮播图不存在');
    await publish(db, 'content.banners_changed', {});
    return presentBanner(updated);
  }
  const [created] = await db.insert(banners).values(values).returning();
  await publish(db, 'content.banners_changed', {});
  return presentBanner(created!);
}

export async function deleteBanner(db: Db, id: number) {
  const deleted = await db.delete(banners).where(eq(banners.id, id)).returning({ id: banners.id });
  if (deleted.length === 0) throw notFound('轮播图不存在');
  await publish(db, 'content.banners_changed', {});
}

// ---------- announcements ----------

type ContentRow = typeof contents.$inferSelect;

function presentRecord(c: ContentRow) {
  return {
    id: c.id,
    type: c.type,
    title: c.title,
    effectiveTime: formatDateTime(c.effectiveTime),
    expirationTime: c.expirationTime ? formatDateTime(c.expirationTime) : null,
    enclosure: c.enclosure,
    publishedAt: c.publishedAt ? formatDateTime(c.publishedAt) : null,
  };
}

/** Visible to visitors: published, and now within [effective, expiration). */
const visibleAt = (now: Date) =>
  and(eq(contents.status, 'published'), lte(contents.effectiveTime, now), or(isNull(contents.expirationTime), gt(contents.expirationTime, now)));

export async function listContents(db: Db, now: Date, query: { type: string; pageNo: number; pageSize: number; title?: string }) {
  const where = and(
    eq(contents.type, query.type),
    visibleAt(now),
    query.title ? sql`${contents.title} ILIKE ${'%' + query.title.replace(/[%_\\]/g, '\\$&') + '%'}` : undefined,
  );
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(contents).where(where);
  const rows = await db
    .select()
    .from(contents)
    .where(where)
    .orderBy(desc(contents.effectiveTime), desc(contents.id))
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize);
  return { records: rows.map(presentRecord), total, current: query.pageNo, size: query.pageSize };
}

export async function contentDetail(db: Db, now: Date, id: number, staff: boolean) {
  const [row] = await db.select().from(contents).where(staff ? eq(contents.id, id) : and(eq(contents.id, id), visibleAt(now))).limit(1);
  if (!row) throw notFound('公告不存在或已下线');
  return { ...presentRecord(row), body: row.bodyHtml };
}

export async function manageContents(db: Db, query: { type?: string; pageNo: number; pageSize: number }) {
  const where = query.type ? eq(contents.type, query.type) : undefined;
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(contents).where(where);
  const rows = await db.select().from(contents).where(where).orderBy(desc(contents.effectiveTime), desc(contents.id)).limit(query.pageSize).offset((query.pageNo - 1) * query.pageSize);
  return { records: rows.map((r) => ({ ...presentRecord(r), body: r.bodyHtml, status: r.status })), total, current: query.pageNo, size: query.pageSize };
}

export async function saveContent(
  db: Db,
  userId: number,
  input: { id?: number; type: string; title: string; body: string; enclosure: string | null; effectiveTime: string; expirationTime: string | null },
) {
  if (input.enclosure) await assertPublicFile(db, input.enclosure, 'pdf');
  const values = {
    type: input.type,
    title: input.title,
    bodyHtml: sanitizeBody(input.body),
    enclosure: input.enclosure,
    effectiveTime: new Date(input.effectiveTime),
    expirationTime: input.expirationTime ? new Date(input.expirationTime) : null,
    updatedAt: new Date(),
  };
  if (input.id) {
    const [updated] = await db.update(contents).set(values).where(eq(contents.id, input.id)).returning();
    if (!updated) throw notFound('公告不存在');
    await publish(db, 'content.saved', { id: updated.id });
    return { ...presentRecord(updated), body: updated.bodyHtml, status: updated.status };
  }
  const [created] = await db.insert(contents).values({ ...values, createdBy: userId }).returning();
  await publish(db, 'content.saved', { id: created!.id });
  return { ...presentRecord(created!), body: created!.bodyHtml, status: created!.status };
}

export async function setContentStatus(db: Db, id: number, move: MoveOf<typeof ContentStates>, now: Date) {
  const updated = await db.transaction(async (tx) => {
    const row = await transition(tx, ContentStates, move, {
      table: contents,
      where: eq(contents.id, id),
      set: { publishedAt: move === 'publish' ? now : undefined, updatedAt: now },
      notFoundMessage: '公告不存在',
    });
    if (move === 'publish' && !row.title) throw conflict('标题为空的公告不能发布');
    return row;
  });
  return { ...presentRecord(updated), body: updated.bodyHtml, status: updated.status };
}
