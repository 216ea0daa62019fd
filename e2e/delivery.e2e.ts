import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, enterPayPassword, login, shot as shotInto } from './api';
import { PHOTO, unpaidOrder, type ChainOrder } from './chain';
import { ACCOUNTS, launchBrowser, newPage, screenshotOnFailure, signIn } from './browser';

const baseUrl = inject('baseUrl');
/** 588 t: an amount no demo deal (nor another spec) has, so the deal is found by it */
const QUANTITY_KG = 588_000;
const SHOTS = process.env.DELIVERY_SHOTS;
let browser: Browser;

const shot = (page: Page, name: string, fullPage = false) => shotInto(SHOTS, page, name, fullPage);

/** An order of 588 t waiting for its prepayment that the seller transports (the buyer's scale counts). */
async function orderAwaitingPayment(): Promise<ChainOrder> {
  const { order, seller } = await unpaidOrder(QUANTITY_KG, { transportArranger: 'seller', weighingBasis: 'buyer' });
  // the seller's approved drivers (the demo data registers them)
  const drivers = await api<{ id: number }[]>(`/api/delivery/order/${order.id}/drivers`, { token: seller.token });
  expect(drivers.length, 'seller01 has approved drivers in the demo data').toBeGreaterThan(0);
  return order;
}

/** 物流信息 with the order chosen: its trucks and the actions of the signed-in side. */
async function openOrder(page: Page, orderNo: string) {
  await page.goto(`${baseUrl}/logistics/info`);
  const search = page.getByPlaceholder('请输入订单编号');
  await search.fill(orderNo);
  await search.press('Enter');
  await page.locator('.ant-table-row', { hasText: orderNo }).first().click();
  await page.getByTestId('delivery-order-status').waitFor();
}

const truckRow = (page: Page) => page.locator('.coalx-order-delivery .ant-table-row').first();

async function fillTicket(page: Page, title: string, ticketNo: string, gross: string, tare: string) {
  const modal = page.locator('.ant-modal', { hasText: title });
  await modal.waitFor();
  await modal.getByPlaceholder('磅单上的编号').fill(ticketNo);
  await modal.getByPlaceholder('如 55.32').fill(gross);
  await modal.getByPlaceholder('如 15.30').fill(tare);
  await modal.getByPlaceholder('毛重 − 皮重').click(); // the net fills itself when the tare loses focus
  await modal.locator('input[type=file]').setInputFiles({ name: 'ticket.png', mimeType: 'image/png', buffer: PHOTO });
  await modal.locator('.ant-upload-list-item-done, .ant-upload-list-item-container img').first().waitFor();
  return modal;
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(screenshotOnFailure);

describe('delivery by truck, in two browsers', () => {
  it('the buyer pays, the seller dispatches and records loading, the buyer records arrival and signs for, the seller declares 交货完毕: the order is 待结算', async () => {
    const order = await orderAwaitingPayment();
    const seller = await newPage(browser);
    const buyer = await newPage(browser);
    await signIn(seller.page, baseUrl, ACCOUNTS.seller);
    await signIn(buyer.page, baseUrl, ACCOUNTS.buyer);

    // 付款: the prepayment into escrow, after the confirmation with the amount, with the pay password (on, as installed)
    await buyer.page.goto(`${baseUrl}/order/info?id=${order.id}`);
    const info = buyer.page.getByTestId('order-info');
    await expect.poll(() => info.getAttribute('data-status')).toBe('unpaid');
    await buyer.page.getByTestId('order-pay').click();
    const confirmPay = buyer.page.getByTestId('money-confirm');
    await confirmPay.waitFor();
    expect(await confirmPay.innerText()).toContain(order.orderNo);
    await buyer.page.getByRole('button', { name: '确认付款' }).click();
    await enterPayPassword(buyer.page, '支付货款：请输入支付密码');
    await expect.poll(() => info.getAttribute('data-status'), { timeout: 20_000 }).toBe('awaiting_shipment');
    await shot(buyer.page, 'delivery-paid', true);

    // 派车 (the seller transports: 到厂价 terms)
    await openOrder(seller.page, order.orderNo);
    await expect.poll(() => seller.page.getByTestId('delivery-order-status').innerText()).toBe('待发货');
    await shot(seller.page, 'delivery-info-before', true);
    await seller.page.getByRole('button', { name: '派车' }).click();
    const dispatchModal = seller.page.locator('.ant-modal', { hasText: `派车：${order.orderNo}` });
    await dispatchModal.waitFor();
    await dispatchModal.locator('.ant-select').first().click();
    await seller.page.locator('.ant-select-item-option').first().click();
    await dispatchModal.getByLabel('计划装车量（吨）').fill('35');
    await shot(seller.page, 'delivery-dispatch-form');
    await dispatchModal.getByRole('button', { name: '确认派车' }).click();
    await truckRow(seller.page).filter({ hasText: '已派车' }).waitFor();
    await expect.poll(() => seller.page.getByTestId('delivery-order-status').innerText()).toBe('发运中');
    await shot(seller.page, 'delivery-dispatched', true);

    // the printable note with its QR code, and the gate's loading record it opens
    await truckRow(seller.page).getByRole('button', { name: '打印派车单' }).click();
    await seller.page.getByTestId('dispatch-qr').waitFor();
    const noteText = await seller.page.getByTestId('dispatch-note').innerText();
    expect(noteText).toContain('派车单 / 提煤单');
    expect(noteText).toContain(order.orderNo);
    expect(noteText).toContain('35.00 吨');
    await shot(seller.page, 'delivery-dispatch-note');
    const sellerSession = await login(ACCOUNTS.seller);
    const trucks = await api<{ trucks: { id: number; gateToken: string; dispatchNo: string }[] }>(`/api/delivery/order/${order.id}`, { token: sellerSession.token });
    await seller.page.goto(`${baseUrl}/logistics/gate?token=${trucks.trucks[0]!.gateToken}`);
    await seller.page.getByText('核对车牌与司机后过磅装车').waitFor();
    await shot(seller.page, 'delivery-gate');

    // 录入装车磅单 at the gate
    await seller.page.getByRole('button', { name: '录入装车磅单' }).click();
    const loading = await fillTicket(seller.page, '录入装车磅单', `ZC-${Date.now()}`, '50.20', '15.20');
    await expect.poll(() => loading.getByPlaceholder('毛重 − 皮重').inputValue()).toBe('35');
    await shot(seller.page, 'delivery-loading-ticket');
    await loading.getByRole('button', { name: /^提\s?交$/ }).click();
    await seller.page.locator('.ant-card-head', { hasText: '装车过磅' }).getByText('已装车').waitFor();

    // the buyer: 录入到货磅单 on 物流信息, then 签收 on 收货签收
    await openOrder(buyer.page, order.orderNo);
    await truckRow(buyer.page).getByRole('button', { name: '录入到货磅单' }).click();
    const arrival = await fillTicket(buyer.page, '录入到货磅单', `DH-${Date.now()}`, '49.95', '15.00');
    await arrival.getByRole('button', { name: /^提\s?交$/ }).click();
    await truckRow(buyer.page).filter({ hasText: '已到货' }).waitFor();
    expect(await truckRow(buyer.page).innerText()).toContain('34.95');
    await shot(buyer.page, 'delivery-arrived', true);
    await buyer.page.goto(`${baseUrl}/settlement/signFor`);
    // the demo data has arrived trucks of its own in the queue: this one is found by its number
    const queued = buyer.page.locator('.ant-table-row', { hasText: trucks.trucks[0]!.dispatchNo }).first();
    await queued.waitFor();
    await shot(buyer.page, 'delivery-signfor-queue');
    await queued.getByRole('button', { name: '签收' }).click();
    const confirm = buyer.page.locator('.ant-modal-confirm', { hasText: '签收' });
    await expect.poll(() => confirm.innerText()).toContain('34.95 吨');
    await confirm.getByRole('button', { name: '确认签收' }).click();
    await buyer.page.getByText('已签收', { exact: true }).first().waitFor({ state: 'attached' }).catch(() => undefined);
    await expect.poll(async () => (await api<{ trucks: { status: string }[] }>(`/api/delivery/order/${order.id}`, { token: sellerSession.token })).trucks[0]!.status).toBe('signed');

    // the seller declares delivery finished: 待结算
    await openOrder(seller.page, order.orderNo);
    await seller.page.getByRole('button', { name: '交货完毕' }).click();
    await seller.page.locator('.ant-modal-confirm').getByRole('button', { name: '确认交货完毕' }).click();
    await expect.poll(() => seller.page.getByTestId('delivery-order-status').innerText()).toBe('待结算');
    await shot(seller.page, 'delivery-finished', true);

    // 运输信息 lists the truck with both tickets
    await buyer.page.goto(`${baseUrl}/logistics/transport`);
    await buyer.page.locator('.ant-table-row', { hasText: order.orderNo }).first().waitFor();
    await shot(buyer.page, 'delivery-transport');
  });
});
