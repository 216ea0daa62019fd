/**
 * System parameters (DESIGN.md §8 "System parameters", spec §7 "common param"): deadlines, tolerances, fees and
 * ranges the admin may change. Each has a default, so an installation works before anyone edits them; a change
 * applies to what is made after it (a contract keeps the deadline and terms it was made with).
 *
 * kind: 'integer' whole numbers; 'decimal' up to `decimals` places; 'fen' money in integer fen, shown and typed in 元
 * (the unit says per what). min, max and default are in the stored unit (fen for 'fen').
 */
export type SystemParameterKind = 'integer' | 'decimal' | 'fen';

export interface SystemParameterDefinition {
  label: string;
  group: SystemParameterGroup;
  unit: string;
  kind: SystemParameterKind;
  default: number;
  min: number;
  max: number;
  /** places after the point for 'decimal' */
  decimals?: number;
  /** what it governs, shown under the table row */
  remark: string;
  /** readable without signing in (GET /sys/common/param), for pages that warn before the server refuses */
  public?: boolean;
}

export const SYSTEM_PARAMETER_GROUPS = ['合同', '履约', '交易', '账号安全'] as const;
export type SystemParameterGroup = (typeof SYSTEM_PARAMETER_GROUPS)[number];

export const SYSTEM_PARAMETERS = {
  contract_sign_working_days: {
    label: '合同签署期限',
    group: '合同',
    unit: '个工作日',
    kind: 'integer',
    default: 1,
    min: 1,
    max: 30,
    remark: '成交后双方签署合同的期限，按工作日计（跳过节假日，调休上班日计入）',
  },
  contract_quantity_tolerance_pct: {
    label: '默认溢短装比例',
    group: '合同',
    unit: '%',
    kind: 'decimal',
    decimals: 1,
    default: 5,
    min: 0,
    max: 20,
    remark: '新合同的默认溢短装比例',
  },
  contract_transit_loss_pct: {
    label: '默认合理途损',
    group: '合同',
    unit: '%',
    kind: 'decimal',
    decimals: 2,
    default: 0.2,
    min: 0,
    max: 5,
    remark: '新合同的默认合理途损比例',
  },
  contract_prepayment_pct: {
    label: '默认预付比例',
    group: '合同',
    unit: '%',
    kind: 'integer',
    default: 100,
    min: 0,
    max: 100,
    remark: '新合同的默认预付款比例',
  },
  contract_payment_working_days: {
    label: '默认付款期限',
    group: '合同',
    unit: '个工作日',
    kind: 'integer',
    default: 3,
    min: 1,
    max: 60,
    remark: '合同生效后买方付款的默认期限',
  },
  auto_sign_for_days: {
    label: '自动签收期限',
    group: '履约',
    unit: '个工作日',
    kind: 'integer',
    default: 3,
    min: 1,
    max: 30,
    remark: '货物到达后买方未签收也未提出异议的，期满自动视为签收',
  },
  weigh_overload_pct: {
    label: '超载容差',
    group: '履约',
    unit: '%',
    kind: 'integer',
    default: 10,
    min: 0,
    max: 50,
    remark: '磅单净重超过车辆核定载重（装车时为计划装车量）该比例的，拒绝录入',
  },
  gate_pass_days: {
    label: '派车单二维码有效期',
    group: '履约',
    unit: '天',
    kind: 'integer',
    default: 7,
    min: 1,
    max: 30,
    remark: '过磅员凭派车单二维码（无需账号）录入磅单的有效期：装车二维码自派车起算，到货二维码自装车起算；录入磅单或取消派车即失效',
  },
  fulfilment_threshold_pct: {
    label: '履约完成比例',
    group: '履约',
    unit: '%',
    kind: 'integer',
    default: 90,
    min: 50,
    max: 100,
    remark: '实际交收量达到合同数量的该比例即视为履约完成',
    public: true,
  },
  long_term_fulfilment_warn_pct: {
    label: '长协履约预警线',
    group: '履约',
    unit: '%',
    kind: 'integer',
    default: 90,
    min: 50,
    max: 100,
    remark: '长协月度或累计履约率（签收量与计划量之比）低于该比例的，向双方和交易中心提示',
    public: true,
  },
  fee_per_ton_fen: {
    label: '交易手续费',
    group: '交易',
    unit: '元/吨',
    kind: 'fen',
    // charged once per settled ton, to the seller out of the settled amount (余额结算), so the buyer's bill is the
    // statement's amount; 0 until the trading centre decides to charge
    default: 0,
    min: 0,
    max: 10_000,
    remark: '按结算吨数收取，由卖方从结算货款中支付给平台',
    public: true,
  },
  price_range_5500_min_fen: {
    label: '合理价格下限（5500 大卡）',
    group: '交易',
    unit: '元/吨',
    kind: 'fen',
    default: 57_000,
    min: 10_000,
    max: 500_000,
    remark: '挂牌或竞价价格低于下限时提示价格异常',
    public: true,
  },
  price_range_5500_max_fen: {
    label: '合理价格上限（5500 大卡）',
    group: '交易',
    unit: '元/吨',
    kind: 'fen',
    default: 77_000,
    min: 10_000,
    max: 500_000,
    remark: '挂牌或竞价价格高于上限时提示价格异常',
    public: true,
  },
  bid_rate_limit_per_second: {
    label: '出价频率上限',
    group: '交易',
    unit: '次/秒',
    kind: 'integer',
    default: 10,
    min: 1,
    max: 100,
    remark: '每个账号每秒最多出价次数',
  },
  daily_report_time: {
    label: '交易日报生成时间',
    group: '交易',
    unit: '时分',
    kind: 'integer',
    // HHMM in Asia/Shanghai: 1730 is 17:30
    default: 1730,
    min: 0,
    max: 2359,
    remark: '每天到该时刻（北京时间，四位数字，如 1730 即 17:30）自动生成当日交易日报并归档',
  },
  login_lock_failures: {
    label: '登录失败锁定次数',
    group: '账号安全',
    unit: '次',
    kind: 'integer',
    default: 5,
    min: 3,
    max: 20,
    remark: '连续输错密码达到该次数后锁定账号',
  },
  login_lock_minutes: {
    label: '登录锁定时长',
    group: '账号安全',
    unit: '分钟',
    kind: 'integer',
    default: 15,
    min: 1,
    max: 1440,
    remark: '账号锁定后多久自动解锁',
  },
} as const satisfies Record<string, SystemParameterDefinition>;
export type SystemParameterCode = keyof typeof SYSTEM_PARAMETERS;

export const SYSTEM_PARAMETER_CODES = Object.keys(SYSTEM_PARAMETERS) as SystemParameterCode[];

export function isSystemParameterCode(code: string): code is SystemParameterCode {
  return Object.hasOwn(SYSTEM_PARAMETERS, code);
}

/** Pairs that must stay ordered: [lower, upper]. */
export const SYSTEM_PARAMETER_ORDER: readonly (readonly [SystemParameterCode, SystemParameterCode])[] = [
  ['price_range_5500_min_fen', 'price_range_5500_max_fen'],
];

/** HHMM (1730) as the time of day it means: 17:30. */
export function clockTimeOf(hhmm: number): string {
  return `${String(Math.floor(hhmm / 100)).padStart(2, '0')}:${String(hhmm % 100).padStart(2, '0')}`;
}

/** How a value of the parameter reads, with its unit: 570.00 元/吨, 0.2 %, 3 个工作日. */
export function formatParameterValue(code: SystemParameterCode, value: number): string {
  const definition: SystemParameterDefinition = SYSTEM_PARAMETERS[code];
  if (code === 'daily_report_time') return clockTimeOf(value);
  const shown = definition.kind === 'fen' ? (value / 100).toFixed(2) : String(value);
  return definition.unit === '%' ? `${shown}%` : `${shown} ${definition.unit}`;
}

/**
 * Why a value is refused for the parameter (out of range, not whole, too many places), or null when it is fine.
 * The server checks with it before saving, and the page before sending.
 */
export function parameterValueProblem(code: SystemParameterCode, value: number): string | null {
  const definition: SystemParameterDefinition = SYSTEM_PARAMETERS[code];
  if (!Number.isFinite(value)) return `${definition.label}须为数字`;
  if (value < definition.min || value > definition.max) {
    return `${definition.label}须在 ${formatParameterValue(code, definition.min)} 至 ${formatParameterValue(code, definition.max)} 之间`;
  }
  if (definition.kind === 'fen' && !Number.isInteger(value)) return `${definition.label}最多保留两位小数（精确到分）`;
  if (definition.kind === 'integer' && !Number.isInteger(value)) return `${definition.label}须为整数`;
  if (code === 'daily_report_time' && value % 100 >= 60) return `${definition.label}须为有效的时刻，如 1730 即 17:30`;
  if (definition.kind === 'decimal') {
    const places = definition.decimals ?? 0;
    if (Math.abs(Math.round(value * 10 ** places) - value * 10 ** places) > 1e-9) return `${definition.label}最多保留 ${places} 位小数`;
  }
  return null;
}
