/**
 * The error catalogue shared by server and web: stable codes, HTTP statuses and the Chinese message a trader reads.
 * The server throws these through apps/server/src/errors.ts; the web can act on `error` codes.
 */
export const ERRORS = {
  validation_failed: { status: 400, message: '请求参数有误' },
  invalid_json: { status: 400, message: '请求内容不是有效的 JSON' },
  body_too_large: { status: 413, message: '请求内容过大' },
  unsupported_media_type: { status: 415, message: '不支持的请求内容类型' },
  not_signed_in: { status: 401, message: '未登录或登录已过期 (token invalid)，请重新登录' },
  token_invalid: { status: 401, message: '登录已失效 (token invalid)，请重新登录' },
  forbidden: { status: 403, message: '没有权限执行此操作' },
  not_found: { status: 404, message: '请求的资源不存在' },
  route_not_found: { status: 404, message: '接口不存在' },
  conflict: { status: 409, message: '数据已被修改，请刷新后重试' },
  /** A status move refused by its transition table, or lost to a move made at the same moment. */
  state_changed: { status: 409, message: '状态已变化，请刷新后重试' },
  business_rule: { status: 422, message: '操作不符合业务规则' },
  too_many_requests: { status: 429, message: '请求过于频繁，请稍后再试' },
  internal: { status: 500, message: '服务器开小差了，请稍后再试' },
  unavailable: { status: 503, message: '服务暂不可用，请稍后再试' },
  /** The database is away (a restart, a failover): nothing was done, the same request may be sent again (Retry-After). */
  busy_retry: { status: 503, message: '系统繁忙，请稍后重试' },
  /** The database went away while a bid was being written and could not be asked since: it may or may not stand. */
  bid_outcome_unknown: { status: 503, message: '出价结果待确认，请在出价记录中查看后再出价' },
  // sign-in and account
  bad_credentials: { status: 401, message: '用户名或密码错误' },
  account_locked: { status: 423, message: '账号已锁定' },
  // sign-in refusals are not 403: the web treats every 403 as a lost session (spec §8)
  account_disabled: { status: 423, message: '账号已停用，请联系交易中心' },
  enterprise_not_audited: { status: 422, message: '企业资料正在审核中，审核通过后即可登录' },
  wrong_old_password: { status: 422, message: '原密码错误' },
  password_same_as_old: { status: 422, message: '新密码不能与原密码相同' },
  // files
  file_missing: { status: 400, message: '请选择要上传的文件' },
  file_type_not_allowed: { status: 400, message: '文件类型不支持' },
  file_too_large: { status: 413, message: '文件过大' },
  bad_file_path: { status: 400, message: '文件路径不合法' },
  /** A signed file link (apps/server/src/lib/file-links.ts) tampered with, past its five minutes, or of an ended session. */
  file_link_refused: { status: 403, message: '文件链接无效，请返回页面重新打开' },
  // the weighbridge by QR code (issue 32)
  gate_pass_invalid: { status: 404, message: '二维码无效，请核对派车单上的二维码' },
  gate_pass_closed: { status: 410, message: '该二维码已失效' },
  // onboarding
  enterprise_exists: { status: 409, message: '该企业已注册' },
  username_exists: { status: 409, message: '用户名已被使用' },
  sms_code_invalid: { status: 422, message: '短信验证码错误' },
  sms_too_frequent: { status: 429, message: '短信发送过于频繁，请稍后再试' },
  audit_state: { status: 409, message: '审核状态已变化，请刷新后重试' },
  attachment_invalid: { status: 422, message: '附件无效，请重新上传' },
  // hardening
  password_change_required: { status: 403, message: '请先修改初始密码' },
  // PDF signatures
  pdf_invalid: { status: 422, message: '文件不是有效的 PDF，或已加密无法签章' },
  signing_session_invalid: { status: 422, message: '签章会话不存在、已使用或已过期，请重新签章' },
  signature_invalid: { status: 422, message: '签名验证未通过，文件未签章' },
  no_signing_certificate: { status: 422, message: '本机未安装数字证书，请先申请或在已安装证书的电脑上操作' },
  // contracts
  contract_already_signed: { status: 409, message: '本方已签署该合同，无需重复签署' },
  contract_not_signable: { status: 409, message: '合同当前状态不能签署' },
  contract_changed: { status: 409, message: '合同文件已更新（对方已签署或条款已修改），请重新签署' },
  contract_upload_pending: { status: 409, message: '已有纸质合同待审核，请等待交易中心处理' },
  contract_already_extended: { status: 422, message: '该合同已延期过一次，不能再次延期' },
  // expected trading refusals, each with its own code so a page can act on it (e.g. offer 去入金 on funds_insufficient)
  funds_insufficient: { status: 422, message: '可用资金不足' },
  frozen_insufficient: { status: 422, message: '冻结资金不足，无法完成操作' },
  enterprise_not_approved: { status: 422, message: '企业未通过交易中心审核' },
  trading_suspended: { status: 422, message: '贵企业已被暂停交易' },
  own_trade: { status: 422, message: '不能参与本企业发布的交易' },
  listing_not_open: { status: 422, message: '挂牌尚未开始' },
  listing_ended: { status: 422, message: '挂牌已结束' },
  listing_sold_out: { status: 422, message: '该挂牌已全部摘完' },
  subscribe_quantity_invalid: { status: 422, message: '摘牌数量不符合规则' },
  enrolment_closed: { status: 422, message: '报名已截止' },
  already_enrolled: { status: 409, message: '本企业已报名该竞价，无需重复报名' },
  not_enrolled: { status: 422, message: '本企业未报名或保证金未冻结，不能出价' },
  auction_not_started: { status: 422, message: '竞价尚未开始' },
  auction_ended: { status: 422, message: '竞价已结束' },
  auction_paused: { status: 422, message: '竞价已暂停，恢复后可继续出价' },
  auction_cancelled: { status: 422, message: '竞价已撤销' },
  already_leading: { status: 422, message: '您当前已是最优出价，无需重复出价' },
  bid_too_low: { status: 422, message: '出价不符合加价规则' },
  bid_too_high: { status: 422, message: '出价超出允许范围' },
  call_off_exceeds_plan: { status: 422, message: '调运数量超出本月计划量' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** Refusal codes the web may act on: every API refusal carries one as `error` beside the Chinese `message`. */
export const TRADING_REFUSALS = [
  'funds_insufficient',
  'frozen_insufficient',
  'enterprise_not_approved',
  'trading_suspended',
  'own_trade',
  'listing_not_open',
  'listing_ended',
  'listing_sold_out',
  'subscribe_quantity_invalid',
  'enrolment_closed',
  'already_enrolled',
  'not_enrolled',
  'auction_not_started',
  'auction_ended',
  'auction_paused',
  'auction_cancelled',
  'already_leading',
  'bid_too_low',
  'bid_too_high',
  'call_off_exceeds_plan',
  'state_changed',
] as const satisfies readonly ErrorCode[];
