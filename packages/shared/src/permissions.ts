/**
 * Roles, menus and actions (spec §6). The server seeds these into its tables at start; the admin can change them
 * later. A menu item's id is the permission id a route carries; `index` and `listing` guard the public pages.
 */
export const ACTIONS = {
  add: '新增',
  delete: '删除',
  edit: '编辑',
  query: '查询',
  get: '查看',
  enable: '启用',
  disable: '停用',
  import: '导入',
  export: '导出',
} as const;
export type ActionKey = keyof typeof ACTIONS;
export const ALL_ACTIONS = Object.keys(ACTIONS) as ActionKey[];

export const ROLES = {
  trader: '交易员',
  enterprise_admin: '企业管理员',
  operator: '交易中心运营',
  admin: '系统管理员',
} as const;
export type RoleCode = keyof typeof ROLES;

/** Permissions that guard public pages rather than menu items. */
export const PAGE_PERMISSIONS = [
  { id: 'index', title: '首页' },
  { id: 'listing', title: '交易大厅' },
] as const;

export interface MenuDefinition {
  id: string;
  title: string;
  path: string;
  /** View name the web resolves to a lazily loaded page; 'RouteView' for a folder. */
  component: string;
  icon?: string;
  redirect?: string;
  hidden?: boolean;
  children?: MenuDefinition[];
}

export const WORKSPACE_ROOT_ID = 'workspace';

/** The workspace menu: every page the specification names (spec §2 Workspace). */
export const WORKSPACE_MENU: MenuDefinition = {
  id: WORKSPACE_ROOT_ID,
  title: '工作台',
  path: '/workspace',
  component: 'WorkspaceLayout',
  redirect: '/workbench',
  children: [
    { id: 'workbench', title: '工作台首页', path: '/workbench', component: 'Workbench', icon: 'DashboardOutlined' },
    { id: 'companyInfo', title: '企业信息', path: '/companyInfo', component: 'CompanyInfo', icon: 'BankOutlined' },
    {
      id: 'listingTrade', title: '挂牌交易', path: '/listingTrade', component: 'RouteView', icon: 'ShopOutlined',
      children: [
        { id: 'listingTrade-start', title: '发起挂牌', path: '/listingTrade/start', component: 'ListingStart' },
        { id: 'listingTrade-query', title: '我的挂牌', path: '/listingTrade/query', component: 'ListingQuery' },
        { id: 'listingTrade-confirm', title: '摘牌确认', path: '/listingTrade/confirm', component: 'ListingConfirm' },
        { id: 'listingTrade-subscribe', title: '我的摘牌', path: '/listingTrade/subscribe', component: 'ListingSubscribe' },
        { id: 'listingTrade-deal', title: '挂牌成交', path: '/listingTrade/deal', component: 'ListingDeal' },
        { id: 'listingTrade-result', title: '挂牌结果', path: '/listingTrade/result', component: 'ListingResult' },
      ],
    },
    {
      id: 'auctionTrade', title: '竞价交易', path: '/auctionTrade', component: 'RouteView', icon: 'ThunderboltOutlined',
      children: [
        { id: 'auctionTrade-start', title: '发起竞价', path: '/auctionTrade/start', component: 'AuctionStart' },
        { id: 'auctionTrade-query', title: '我的竞价', path: '/auctionTrade/query', component: 'AuctionQuery' },
        { id: 'auctionTrade-sign', title: '竞价报名', path: '/auctionTrade/sign', component: 'AuctionSign' },
        { id: 'auctionTrade-deal', title: '竞价成交', path: '/auctionTrade/deal', component: 'AuctionDeal' },
        { id: 'auctionTrade-result', title: '竞价结果', path: '/auctionTrade/result', component: 'AuctionResult' },
      ],
    },
    {
      id: 'contract', title: '合同管理', path: '/contract', component: 'RouteView', icon: 'FileTextOutlined',
      children: [
        { id: 'contract-list', title: '合同列表', path: '/contract/list', component: 'ContractList' },
        { id: 'contract-sign', title: '合同上传与签署', path: '/contract/sign', component: 'ContractSign' },
        { id: 'contract-info', title: '合同详情', path: '/contract/info', component: 'ContractInfo', hidden: true },
      ],
    },
    { id: 'order', title: '订单管理', path: '/order/list', component: 'OrderList', icon: 'ProfileOutlined' },
    { id: 'order-info', title: '订单详情', path: '/order/info', component: 'OrderInfo', hidden: true },
    {
      id: 'settlement', title: '结算管理', path: '/settlement', component: 'RouteView', icon: 'AccountBookOutlined',
      children: [
        { id: 'settlement-balance', title: '余额结算', path: '/settlement/balance', component: 'SettlementBalance' },
        { id: 'settlement-payment', title: '货款支付', path: '/settlement/payment', component: 'SettlementPayment' },
        { id: 'settlement-logistics', title: '物流结算', path: '/settlement/logistics', component: 'SettlementLogistics' },
        { id: 'settlement-signFor', title: '收货签收', path: '/settlement/signFor', component: 'SettlementSignFor' },
        { id: 'settlement-info', title: '结算单详情', path: '/settlement/info', component: 'SettlementInfo', hidden: true },
      ],
    },
    {
      id: 'financial', title: '财务管理', path: '/financial', component: 'RouteView', icon: 'WalletOutlined',
      children: [
        { id: 'financial-assets', title: '资金资产', path: '/financial/assets', component: 'FinancialAssets' },
        { id: 'financial-application', title: '出入金申请', path: '/financial/application', component: 'FinancialApplication' },
        { id: 'financial-payRecord', title: '支付记录查询', path: '/financial/payRecord', component: 'PayRecord' },
      ],
    },
    { id: 'invoice', title: '发票管理', path: '/invoice/list', component: 'InvoiceList', icon: 'AuditOutlined' },
    {
      id: 'logistics', title: '物流管理', path: '/logistics', component: 'RouteView', icon: 'CarOutlined',
      children: [
        { id: 'logistics-info', title: '物流信息', path: '/logistics/info', component: 'LogisticsInfo' },
        { id: 'logistics-transport', title: '运输信息', path: '/logistics/transport', component: 'TransportInfo' },
        { id: 'logistics-driverAudit', title: '司机审核', path: '/logistics/driverAudit', component: 'DriverAudit' },
        { id: 'logistics-freight', title: '运费结算', path: '/logistics/freight', component: 'FreightSettlement' },
        { id: 'logistics-freightSummary', title: '运费汇总', path: '/logistics/freightSummary', component: 'FreightSummary' },
        // the dispatch note (派车单, printable A5 with its QR code) and the mine gate's loading record it opens
        { id: 'logistics-dispatchNote', title: '派车单', path: '/logistics/dispatchNote', component: 'DispatchNote', hidden: true },
        { id: 'logistics-gate', title: '装车过磅', path: '/logistics/gate', component: 'GateLoading', hidden: true },
      ],
    },
    { id: 'longTermDeal', title: '长协交易', path: '/longTermDeal', component: 'LongTermDeal', icon: 'SolutionOutlined' },
    { id: 'longTermDeal-info', title: '长协详情', path: '/longTermDeal/info', component: 'LongTermInfo', hidden: true },
    {
      id: 'message', title: '消息中心', path: '/message', component: 'RouteView', icon: 'BellOutlined',
      children: [
        { id: 'message-list', title: '我的消息', path: '/message/list', component: 'MessageList' },
        { id: 'message-settings', title: '通知设置', path: '/message/settings', component: 'MessageSettings' },
        // an enterprise's systems (ERP, dispatch) hear its events by webhook: its admin registers the endpoints
        { id: 'message-webhook', title: '推送接口', path: '/message/webhook', component: 'WebhookManage' },
      ],
    },
    {
      id: 'ukey', title: '数字证书', path: '/ukeyManage', component: 'RouteView', icon: 'SafetyCertificateOutlined',
      children: [
        { id: 'ukey-info', title: '证书信息', path: '/ukeyManage/info', component: 'UkeyInfo' },
        { id: 'ukey-sign', title: '签章管理', path: '/ukeyManage/sign', component: 'UkeySign' },
      ],
    },
    {
      id: 'operation', title: '交易中心运营', path: '/operation', component: 'RouteView', icon: 'ControlOutlined',
      children: [
        { id: 'operation-enterpriseAudit', title: '企业审核', path: '/operation/enterpriseAudit', component: 'EnterpriseAudit' },
        { id: 'operation-tradeAudit', title: '交易审核', path: '/operation/tradeAudit', component: 'TradeAudit' },
        { id: 'operation-product', title: '产品维护', path: '/operation/product', component: 'ProductManage' },
        { id: 'operation-fundsAudit', title: '出入金审核', path: '/operation/fundsAudit', component: 'FundsAudit' },
        { id: 'operation-content', title: '内容管理', path: '/operation/content', component: 'ContentManage' },
        { id: 'operation-marketIndex', title: '指数发布', path: '/operation/marketIndex', component: 'MarketIndexManage' },
        { id: 'operation-smsOutbox', title: '短信发件箱', path: '/operation/smsOutbox', component: 'SmsOutbox' },
        // the centre's desk (issue 29): its market in figures, its daily report, live, its members and client funds
        { id: 'operation-statistics', title: '运营统计', path: '/operation/statistics', component: 'OperationStatistics' },
        { id: 'operation-dailyReport', title: '交易日报', path: '/operation/dailyReport', component: 'DailyReport' },
        { id: 'operation-monitor', title: '实时监控', path: '/operation/monitor', component: 'MarketMonitor' },
        { id: 'operation-enterprises', title: '企业名录', path: '/operation/enterprises', component: 'EnterpriseDirectory' },
        { id: 'operation-fundsOverview', title: '资金总览', path: '/operation/fundsOverview', component: 'FundsOverview' },
      ],
    },
    {
      id: 'system', title: '系统管理', path: '/system', component: 'RouteView', icon: 'SettingOutlined',
      children: [
        { id: 'system-user', title: '用户管理', path: '/system/user', component: 'SystemUser' },
        { id: 'system-role', title: '角色管理', path: '/system/role', component: 'SystemRole' },
        { id: 'system-dict', title: '数据字典', path: '/system/dict', component: 'SystemDict' },
        { id: 'system-switch', title: '系统开关', path: '/system/switch', component: 'SystemSwitch' },
        { id: 'system-template', title: '模板配置', path: '/system/template', component: 'SystemTemplate' },
        { id: 'system-param', title: '系统参数', path: '/system/param', component: 'SystemParam' },
        { id: 'system-auditLog', title: '操作日志', path: '/system/auditLog', component: 'AuditLog' },
      ],
    },
  ],
};

const TRADING_MENUS = [
  'workbench', 'companyInfo', 'listingTrade', 'listingTrade-start', 'listingTrade-query', 'listingTrade-confirm',
  'listingTrade-subscribe', 'listingTrade-deal', 'listingTrade-result', 'auctionTrade', 'auctionTrade-start',
  'auctionTrade-query', 'auctionTrade-sign', 'auctionTrade-deal', 'auctionTrade-result', 'contract', 'contract-list',
  'contract-sign', 'contract-info', 'order', 'order-info', 'settlement', 'settlement-balance', 'settlement-payment', 'settlement-logistics',
  'settlement-signFor', 'settlement-info', 'financial', 'financial-assets', 'financial-application', 'financial-payRecord', 'invoice',
  // 司机审核 is the trading centre's; an enterprise sees its drivers' audit state under 运输信息
  'logistics', 'logistics-info', 'logistics-transport', 'logistics-dispatchNote', 'logistics-gate', 'logistics-freight',
  'logistics-freightSummary', 'longTermDeal', 'longTermDeal-info',
];
/** Every signed-in user reads their own messages and sets how they are told (issue 28). */
const MESSAGE_MENUS = ['message', 'message-list', 'message-settings'];
const MESSAGE_GRANTS = MESSAGE_MENUS.map((id) => ({ permissionId: id, actions: ['edit', 'query', 'get'] as ActionKey[] }));
const TRADER_ACTIONS: ActionKey[] = ['add', 'edit', 'query', 'get', 'export'];

/** What each role may open (permission ids) and do there (action keys). */
export const ROLE_GRANTS: Record<RoleCode, { permissionId: string; actions: ActionKey[] }[]> = {
  trader: [
    ...['index', 'listing', WORKSPACE_ROOT_ID].map((id) => ({ permissionId: id, actions: ['query', 'get'] as ActionKey[] })),
    // a trader holds a key device of their own (证书信息); the enterprise admin approves it
    ...[...TRADING_MENUS, 'ukey', 'ukey-info'].map((id) => ({
      permissionId: id,
      // a trader reads the enterprise's data but only the enterprise admin edits it
      actions: id === 'companyInfo' || id === 'workbench' ? (['query', 'get'] as ActionKey[]) : TRADER_ACTIONS,
    })),
    ...MESSAGE_GRANTS,
  ],
  enterprise_admin: [
    ...['index', 'listing', WORKSPACE_ROOT_ID].map((id) => ({ permissionId: id, actions: ['query', 'get'] as ActionKey[] })),
    ...[...TRADING_MENUS, 'ukey', 'ukey-info', 'ukey-sign', 'message-webhook'].map((id) => ({
      permissionId: id,
      actions: ['add', 'delete', 'edit', 'query', 'get', 'export'] as ActionKey[],
    })),
    ...MESSAGE_GRANTS,
  ],
  operator: [
    ...['index', 'listing', WORKSPACE_ROOT_ID].map((id) => ({ permissionId: id, actions: ['query', 'get'] as ActionKey[] })),
    ...[
      'workbench', 'companyInfo', 'operation', 'operation-enterpriseAudit', 'operation-tradeAudit', 'operation-product', 'operation-fundsAudit',
      'operation-content', 'operation-marketIndex', 'operation-smsOutbox', 'logistics', 'logistics-driverAudit',
      'operation-statistics', 'operation-dailyReport', 'operation-monitor', 'operation-enterprises', 'operation-fundsOverview',
      // the trading centre sees every contract and rules on overdue ones and paper copies
      'contract', 'contract-list', 'contract-info',
      // every order and its trucks; terminates orders and rules sign-for disputes (收货签收)
      'order', 'order-info', 'logistics-info', 'logistics-transport', 'logistics-dispatchNote', 'settlement', 'settlement-signFor',
      // every settlement statement (rules disputed ones) and every invoice
      'settlement-balance', 'settlement-info', 'invoice',
      // every freight statement (物流结算, read only: the carrier is paid off the platform) and the freight summary
      'settlement-logistics', 'logistics-freightSummary',
      // every long-term deal with its fulfilment flag; terminates one in execution
      'longTermDeal', 'longTermDeal-info',
      // and reads the audit trail (操作日志) with the admin
      'system', 'system-auditLog',
    ].map((id) => ({ permissionId: id, actions: ALL_ACTIONS })),
    ...MESSAGE_GRANTS,
  ],
  admin: [
    ...['index', 'listing', WORKSPACE_ROOT_ID].map((id) => ({ permissionId: id, actions: ['query', 'get'] as ActionKey[] })),
    ...['workbench', 'companyInfo', 'system', 'system-user', 'system-role', 'system-dict', 'system-switch', 'system-template', 'system-param', 'system-auditLog'].map(
      (id) => ({ permissionId: id, actions: ALL_ACTIONS }),
    ),
    // the admin reads the market's figures and daily reports with the trading centre, and changes nothing there
    ...['operation', 'operation-statistics', 'operation-dailyReport'].map((id) => ({ permissionId: id, actions: ['query', 'get', 'export'] as ActionKey[] })),
    ...MESSAGE_GRANTS,
  ],
};

/** Flattens the menu tree, parents before children. */
export function flattenMenu(item: MenuDefinition, parentId: string | null = null, out: (MenuDefinition & { parentId: string | null; sort: number })[] = []) {
  out.push({ ...item, parentId, sort: out.length });
  for (const child of item.children ?? []) flattenMenu(child, item.id, out);
  return out;
}

/** `permissionId.action` check of spec §6 over a role's permission list. */
export function hasPermission(
  permissions: { permissionId: string; actionEntitySet: { action: string }[] }[],
  check: string,
): boolean {
  const dot = check.lastIndexOf('.');
  const permissionId = dot < 0 ? check : check.slice(0, dot);
  const action = dot < 0 ? null : check.slice(dot + 1);
  const permission = permissions.find((p) => p.permissionId === permissionId);
  if (!permission) return false;
  return action === null || permission.actionEntitySet.some((a) => a.action === action);
}
