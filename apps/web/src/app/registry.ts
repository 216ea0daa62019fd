import type { ComponentType } from 'react';
import { lazyPage, type LazyPage } from './lazy';

/**
 * View name (the menu item's `component`, spec §3) → lazily loaded page. An issue that builds a workspace page
 * points its view name here at the new page; names not here yet show the 建设中 page.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = LazyPage<ComponentType<any>>;

export const UnderConstructionPage: Page = lazyPage(() => import('@/components/UnderConstruction'));

export const VIEW_REGISTRY: Record<string, Page> = {
  Workbench: lazyPage(() => import('@/pages/workspace/workbench')),
  CompanyInfo: lazyPage(() => import('@/pages/workspace/companyInfo')),
  EnterpriseAudit: lazyPage(() => import('@/pages/workspace/operation/enterpriseAudit')),
  SmsOutbox: lazyPage(() => import('@/pages/workspace/operation/smsOutbox')),
  FinancialAssets: lazyPage(() => import('@/pages/workspace/financial/assets')),
  FinancialApplication: lazyPage(() => import('@/pages/workspace/financial/application')),
  PayRecord: lazyPage(() => import('@/pages/workspace/financial/payRecord')),
  FundsAudit: lazyPage(() => import('@/pages/workspace/operation/fundsAudit')),
  SystemSwitch: lazyPage(() => import('@/pages/workspace/system/switch')),
  ListingStart: lazyPage(() => import('@/pages/workspace/listing/start')),
  ListingQuery: lazyPage(() => import('@/pages/workspace/listing/query')),
  ListingConfirm: lazyPage(() => import('@/pages/workspace/listing/confirm')),
  ListingSubscribe: lazyPage(() => import('@/pages/workspace/listing/subscribe')),
  ListingDeal: lazyPage(() => import('@/pages/workspace/listing/deal')),
  ListingResult: lazyPage(() => import('@/pages/workspace/listing/result')),
  AuctionStart: lazyPage(() => import('@/pages/workspace/auction/start')),
  AuctionQuery: lazyPage(() => import('@/pages/workspace/auction/query')),
  AuctionSign: lazyPage(() => import('@/pages/workspace/auction/sign')),
  AuctionDeal: lazyPage(() => import('@/pages/workspace/auction/deal')),
  AuctionResult: lazyPage(() => import('@/pages/workspace/auction/result')),
  TradeAudit: lazyPage(() => import('@/pages/workspace/operation/tradeAudit')),
  ProductManage: lazyPage(() => import('@/pages/workspace/operation/productManage')),
  ContentManage: lazyPage(() => import('@/pages/workspace/operation/contentManage')),
  MarketIndexManage: lazyPage(() => import('@/pages/workspace/operation/marketIndex')),
  OperationStatistics: lazyPage(() => import('@/pages/workspace/operation/statistics')),
  DailyReport: lazyPage(() => import('@/pages/workspace/operation/dailyReport')),
  MarketMonitor: lazyPage(() => import('@/pages/workspace/operation/monitor')),
  EnterpriseDirectory: lazyPage(() => import('@/pages/workspace/operation/enterprises')),
  FundsOverview: lazyPage(() => import('@/pages/workspace/operation/fundsOverview')),
  UkeyInfo: lazyPage(() => import('@/pages/ukey')),
  UkeySign: lazyPage(() => import('@/pages/sign')),
  ContractList: lazyPage(() => import('@/pages/workspace/contract/list')),
  ContractSign: lazyPage(() => import('@/pages/workspace/contract/sign')),
  ContractInfo: lazyPage(() => import('@/pages/workspace/contract/info')),
  OrderList: lazyPage(() => import('@/pages/workspace/order/list')),
  OrderInfo: lazyPage(() => import('@/pages/workspace/order/info')),
  SettlementPayment: lazyPage(() => import('@/pages/workspace/settlement/payment')),
  SettlementBalance: lazyPage(() => import('@/pages/workspace/settlement/balance')),
  SettlementInfo: lazyPage(() => import('@/pages/workspace/settlement/info')),
  SettlementLogistics: lazyPage(() => import('@/pages/workspace/settlement/logistics')),
  FreightSettlement: lazyPage(() => import('@/pages/workspace/logistics/freight')),
  FreightSummary: lazyPage(() => import('@/pages/workspace/logistics/freightSummary')),
  SystemTemplate: lazyPage(() => import('@/pages/workspace/system/template')),
  SystemUser: lazyPage(() => import('@/pages/workspace/system/user')),
  SystemRole: lazyPage(() => import('@/pages/workspace/system/role')),
  SystemDict: lazyPage(() => import('@/pages/workspace/system/dict')),
  SystemParam: lazyPage(() => import('@/pages/workspace/system/param')),
  AuditLog: lazyPage(() => import('@/pages/workspace/system/auditLog')),
  DriverAudit: lazyPage(() => import('@/pages/workspace/logistics/driverAudit')),
  LogisticsInfo: lazyPage(() => import('@/pages/workspace/logistics/info')),
  TransportInfo: lazyPage(() => import('@/pages/workspace/logistics/transport')),
  SettlementSignFor: lazyPage(() => import('@/pages/workspace/settlement/signFor')),
  InvoiceList: lazyPage(() => import('@/pages/workspace/invoice/list')),
  DispatchNote: lazyPage(() => import('@/pages/workspace/logistics/dispatchNote')),
  GateLoading: lazyPage(() => import('@/pages/workspace/logistics/gate')),
  LongTermDeal: lazyPage(() => import('@/pages/workspace/longTerm/list')),
  LongTermInfo: lazyPage(() => import('@/pages/workspace/longTerm/info')),
  MessageList: lazyPage(() => import('@/pages/workspace/message/list')),
  MessageSettings: lazyPage(() => import('@/pages/workspace/message/settings')),
  WebhookManage: lazyPage(() => import('@/pages/workspace/message/webhook')),
};

export function resolveView(component: string | null | undefined): Page {
  return (component && VIEW_REGISTRY[component]) || UnderConstructionPage;
}
