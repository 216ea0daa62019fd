/**
 * System parameters (DESIGN.md §8 "System parameters"): deadlines, tolerances and ranges the admin may change.
 * Each has a default, so an installation works before anyone edits them; a change applies to what is made after
 * it (a contract keeps the deadline and terms it was made with).
 */
export const SYSTEM_PARAMETERS = {
  contract_sign_working_days: { label: '合同签署期限', unit: '个工作日', default: 1, min: 1, max: 30 },
  contract_quantity_tolerance_pct: { label: '默认溢短装比例', unit: '%', default: 5, min: 0, max: 20 },
  contract_transit_loss_pct: { label: '默认合理途损', unit: '%', default: 0.2, min: 0, max: 5 },
  contract_prepayment_pct: { label: '默认预付比例', unit: '%', default: 100, min: 0, max: 100 },
  contract_payment_working_days: { label: '默认付款期限', unit: '个工作日', default: 3, min: 1, max: 60 },
} as const;
export type SystemParameterCode = keyof typeof SYSTEM_PARAMETERS;
