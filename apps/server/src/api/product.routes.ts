import { ProductSaveSchema, ProductSchema, envelopeSchema } from '@coalx/shared';
import { z } from 'zod';
import { ok } from '../lib/envelope';
import type { ZodApp } from '../lib/route-types';
import { requireActor } from '../plugins/authenticate';
import { productPolicy } from '../modules/product/product.policy';
import { listProducts, saveProduct } from '../modules/product/product.service';

export default async function productRoutes(app: ZodApp) {
  const tags = ['product'];
  app.post(
    '/product/stockinfo/productList',
    { config: { permission: 'public' }, schema: { tags, summary: '煤炭产品目录 (启用的产品)', response: { 200: envelopeSchema(z.array(ProductSchema)) } } },
    async () => ok(await listProducts(app.db)),
  );
  app.get(
    '/product/stockinfo/manageList',
    { config: { permission: 'operation-product' }, schema: { tags, summary: '产品维护列表 (运营)', response: { 200: envelopeSchema(z.array(ProductSchema)) } } },
    async (request) => {
      productPolicy.can(requireActor(request), 'maintain');
      return ok(await listProducts(app.db, true));
    },
  );
  for (const mode of ['add', 'edit'] as const) {
    app.post(
      `/product/stockinfo/${mode}`,
      { config: { audit: mode === 'add' ? '新增产品' : '修改产品', permission: `operation-product.${mode}` }, schema: { tags, summary: mode === 'add' ? '新增产品 (运营)' : '修改产品 (运营)', body: ProductSaveSchema, response: { 200: envelopeSchema(ProductSchema) } } },
      async (request) => {
        productPolicy.can(requireActor(request), 'maintain');
        return ok(await saveProduct(app.db, request.body, mode), mode === 'add' ? '产品已新增' : '产品已保存');
      },
    );
  }
}
