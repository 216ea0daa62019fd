import type { ComponentType } from 'react';
import { lazyPage, type LazyPage } from './lazy';

/** Static routes of spec §2 (the workspace routes come from the server's menu, see menu.ts and registry.ts). */

export type LayoutName = 'user' | 'public' | 'blank';

export interface StaticRoute {
  path: string;
  title: string;
  layout: LayoutName;
  /** Visitors may open it (spec §2 public routes). */
  public?: boolean;
  /** Permission a signed-in role needs: 'index' for the main layout, 'listing' for ukey/sign. */
  permission?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  page: LazyPage<ComponentType<any>>;
}

/** Paths of the public layout that show the banner and the market-index strip above their content. */
export const HERO_PATHS: ReadonlySet<string> = new Set(['/index']);

export const STATIC_ROUTES: StaticRoute[] = [
  // login/register layout
  { path: '/user/login', title: '登录', layout: 'user', public: true, page: lazyPage(() => import('@/pages/user/login')) },
  {
    path: '/user/changePassword',
    title: '修改密码',
    layout: 'user',
    page: lazyPage(() => import('@/pages/user/changePassword')),
  },
  { path: '/user/register', title: '企业注册', layout: 'user', public: true, page: lazyPage(() => import('@/pages/user/register')) },
  {
    path: '/user/register-result',
    title: '注册结果',
    layout: 'user',
    public: true,
    page: lazyPage(() => import('@/pages/user/registerResult')),
  },
  { path: '/ukey/index', title: '数字证书', layout: 'user', public: true, permission: 'listing', page: lazyPage(() => import('@/pages/ukey')) },
  { path: '/sign/index', title: '签章管理', layout: 'user', public: true, permission: 'listing', page: lazyPage(() => import('@/pages/sign')) },

  // public common layout
  { path: '/index', title: '首页', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/home')) },
  // 行情 and the index method: public market data, no sign-in
  { path: '/market', title: '行情', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/market')) },
  { path: '/marketIndex/method', title: '指数编制方法', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/marketIndexMethod')) },
  { path: '/recommend/recommendList', title: '推荐交易', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/recommend/recommendList')) },
  { path: '/deal/biddRegistration', title: '竞价报名', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/deal/biddRegistration')) },
  { path: '/deal/bidding', title: '参与竞价', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/deal/bidding')) },
  { path: '/moreAnnouncements', title: '公告列表', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/moreAnnouncements')) },
  { path: '/pdfDetails', title: '文档详情', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/pdfDetails')) },
  { path: '/listingResult', title: '挂牌结果公告', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/listing/result')) },
  { path: '/biddingResults', title: '竞价结果公告', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/auction/results')) },
  // anyone may recompute an ended auction's bid log (its data is public: GET /api/bidRecord/log)
  { path: '/bidLog/verify', title: '公开出价记录验证', layout: 'public', public: true, permission: 'index', page: lazyPage(() => import('@/pages/auction/bidLogVerify')) },
  { path: '/waitingAuction', title: '待竞价详情', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/auction/waiting')) },
  { path: '/biddingDetails', title: '竞价销售详情', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/auction/details')) },
  { path: '/listingSalesDetails', title: '挂牌销售详情', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/listing/salesDetails')) },
  { path: '/hang/hangSale', title: '挂牌摘牌', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/listing/hangSale')) },
  { path: '/moreListings', title: '更多挂牌', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/listing/moreListings')) },
  { path: '/moreBidding', title: '更多竞价', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/auction/more')) },
  { path: '/listingTrade/Bidding', title: '发布竞价', layout: 'public', permission: 'index', page: lazyPage(() => import('@/pages/auction/publish')) },
  {
    path: '/listingTrade/tradeStart',
    title: '发起挂牌',
    layout: 'public',
    permission: 'index',
    page: lazyPage(() => import('@/pages/listing/tradeStart')),
  },

  // the weighbridge by QR code: a truck's pass is the permission, no account (issue 32)
  { path: '/weighbridge', title: '扫码过磅', layout: 'blank', public: true, page: lazyPage(() => import('@/pages/weighbridge')) },

  // exceptions
  { path: '/403', title: '无权访问', layout: 'blank', public: true, page: lazyPage(() => import('@/pages/exception/403')) },
  { path: '/404', title: '页面不存在', layout: 'blank', public: true, page: lazyPage(() => import('@/pages/exception/404')) },
  { path: '/500', title: '服务器错误', layout: 'blank', public: true, page: lazyPage(() => import('@/pages/exception/500')) },
];

/** Redirects of spec §2. */
export const STATIC_REDIRECTS: Record<string, string> = {
  '/': '/index',
  '/user': '/user/login',
};

export const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  ...STATIC_ROUTES.filter((r) => r.public).map((r) => r.path),
  ...Object.keys(STATIC_REDIRECTS),
]);

export const PROTECTED_PATHS: ReadonlySet<string> = new Set([
  ...STATIC_ROUTES.filter((r) => !r.public).map((r) => r.path),
  '/workspace',
]);
