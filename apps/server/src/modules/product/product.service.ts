import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { products, type QualityIndicators } from '../../db/schema/index';
import { conflict, notFound } from '../../errors';

export function presentProduct(p: typeof products.$inferSelect) {
  return { stockCode: p.stockCode, stockName: p.stockName, category: p.category, quality: p.quality as Record<string, number | null>, enabled: p.enabled };
}

/** The catalogue: enabled products for traders, all of them for the operator's maintenance page. */
export async function listProducts(db: Db, includeDisabled = false) {
  const rows = await db.select().from(products).where(includeDisabled ? undefined : eq(products.enabled, true)).orderBy(asc(products.sort), asc(products.stockCode));
  return rows.map(presentProduct);
}

export async function findEnabledProduct(db: Db | Tx, stockCode: string) {
  const [row] = await db.select().from(products).where(eq(products.stockCode, stockCode)).limit(1);
  if (!row || !row.enabled) throw notFound('产品不存在或已停用，请重新选择');
  return row;
}

export async function saveProduct(
  db: Db,
  input: { stockCode: string; stockName: string; category: string; quality: QualityIndicators; enabled: boolean },
  mode: 'add' | 'edit',
) {
  if (mode === 'add') {
    const [created] = await db.insert(products).values(input).onConflictDoNothing().returning();
    if (!created) throw conflict('产品编码已存在');
    return presentProduct(created);
  }
  const [updated] = await db
    .update(products)
    .set({ stockName: input.stockName, category: input.category, quality: input.quality, enabled: input.enabled, updatedAt: new Date() })
    .where(eq(products.stockCode, input.stockCode))
    .returning();
  if (!updated) throw notFound('产品不存在');
  return presentProduct(updated);
}
