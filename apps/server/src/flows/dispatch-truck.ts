import { ORDER_DISPATCHABLE_STATES, OrderStates, formatTons, maxTruckKg, planDateProblem, stateLabel, type DispatchCreate, type DispatchView } from '@coalx/shared';
import type { Db } from '../db/client';
import { businessRule } from '../errors';
import type { Actor } from '../lib/actor';
import type { Clock } from '../lib/clock';
import { publish } from '../lib/events';
import { nextTradeNumber } from '../lib/trade-number';
import { deliveryPolicy } from '../modules/delivery/delivery.policy';
import { truckView } from '../modules/delivery/delivery.presenter';
import { issueGatePasses } from '../modules/delivery/gate-pass';
import { insertTruck } from '../modules/delivery/trucks.service';
import { approvedDriver } from '../modules/driver/driver.service';
import { maxDeliverableKg, moveOrderIfNeeded, orderForActor, recordOrderEvent, reservePlannedKg } from '../modules/order/order.service';
import { parameterNumber } from '../modules/system/calendar';

/**
 * 派车 (DESIGN.md §8): the transporting side sends one of its approved drivers against a paid order. The planned
 * tons are reserved on the order, whose first truck moves it to 发运中, and the truck is written on its timeline.
 */
export async function dispatchTruck(db: Db, clock: Clock, actor: Actor, input: DispatchCreate): Promise<DispatchView> {
  const now = clock.now();
  const overloadPct = await parameterNumber(db, 'weigh_overload_pct');
  const passDays = await parameterNumber(db, 'gate_pass_days');
  const id = await db.transaction(async (tx) => {
    // the order row stays locked to the end: concurrent dispatches of one order take turns
    const { order } = await orderForActor(tx, actor, input.orderId, true);
    deliveryPolicy.can(actor, 'dispatch', order);
    if (!(ORDER_DISPATCHABLE_STATES as readonly string[]).includes(order.status)) {
      throw businessRule(`订单当前状态为${stateLabel(OrderStates, order.status)}，不能派车`);
    }
    const dateProblem = planDateProblem(input.planDate, order.terms);
    if (dateProblem) throw businessRule(dateProblem);
    const driver = await approvedDriver(tx, actor.enterpriseId!, input.driverId);
    const truckMax = maxTruckKg(driver.ratedLoadKg, overloadPct);
    if (input.plannedKg > truckMax) {
      throw businessRule(`计划装车量超过该车核定载重 ${formatTons(driver.ratedLoadKg)} 加 ${overloadPct}% 容差（最多 ${formatTons(truckMax)}）`);
    }
    const reserved = await reservePlannedKg(tx, order.id, input.plannedKg);
    if (!reserved) {
      const remaining = Math.max(0, maxDeliverableKg(order) - order.plannedKg);
      throw businessRule(`计划量超过合同数量（含溢短装）剩余可派量 ${formatTons(remaining, false)} 吨`);
    }
    if (order.status === 'awaiting_shipment') {
      await moveOrderIfNeeded(tx, order.id, 'ship', { shippedAt: now });
      await recordOrderEvent(tx, { orderId: order.id, action: '开始发运', actor, note: '首车已派出，订单进入发运中', at: now });
    }
    const dispatchNo = await nextTradeNumber(tx, 'PC', now);
    const truckId = await insertTruck(tx, actor, order, driver, input, dispatchNo, now);
    await issueGatePasses(tx, { id: truckId, sellerEnterpriseId: order.sellerEnterpriseId, buyerEnterpriseId: order.buyerEnterpriseId }, now, passDays);
    await recordOrderEvent(tx, {
      orderId: order.id,
      action: '派车',
      actor,
      note: `派车单 ${dispatchNo}：${driver.plateNo} ${driver.name}，计划 ${formatTons(input.plannedKg)}，${input.planDate} 装车`,
      at: now,
    });
    await publish(tx, 'dispatch.created', { id: truckId });
    return truckId;
  });
  return truckView(db, actor, id);
}
