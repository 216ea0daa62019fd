/** Dictionaries of spec §3, served by GET /sys/dict/getAllDictItems and cached by the web as all_dict. */
export interface DictItem {
  value: string;
  text: string;
  /** set by the admin (数据字典): still names the records holding it, no longer offered for new ones */
  disabled?: boolean;
}
export type DictMap = Record<string, DictItem[]>;

export const DICTIONARIES: { code: string; name: string; items: DictItem[] }[] = [
  {
    code: 'trade_type',
    name: '交易类型',
    items: [
      { value: '0', text: '挂牌销售' },
      { value: '1', text: '挂牌采购' },
      { value: '2', text: '竞价销售' },
      { value: '3', text: '竞价采购' },
    ],
  },
  {
    code: 'bid_hang_state_hp',
    name: '竞价状态',
    items: [
      { value: '0', text: '报名中' },
      { value: '1', text: '待竞价' },
      { value: '2', text: '竞价中' },
      { value: '3', text: '已结束' },
      { value: '4', text: '暂停' },
      { value: '5', text: '已撤销' },
    ],
  },
  {
    code: 'hang_state_total_trans',
    name: '挂牌状态',
    items: [
      { value: '0', text: '未开始' },
      { value: '1', text: '挂牌中' },
      { value: '2', text: '已结束' },
    ],
  },
  {
    code: 'hang_state_total_select',
    name: '交易状态筛选',
    items: [
      { value: '0', text: '报名中' },
      { value: '1', text: '进行中' },
      { value: '2', text: '已结束' },
    ],
  },
  {
    code: 'enterprise_type',
    name: '企业类型',
    items: [
      { value: 'mine', text: '煤矿' },
      { value: 'trader', text: '贸易商' },
      { value: 'power_plant', text: '电厂' },
      { value: 'other', text: '其他' },
    ],
  },
  {
    code: 'enterprise_audit_status',
    name: '企业审核状态',
    items: [
      { value: 'pending', text: '待审核' },
      { value: 'approved', text: '已通过' },
      { value: 'rejected', text: '已驳回' },
    ],
  },
];

export function dictText(dicts: DictMap, code: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return dicts[code]?.find((item) => item.value === String(value))?.text ?? String(value);
}
