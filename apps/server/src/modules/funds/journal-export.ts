import { JOURNAL_KIND, JOURNAL_REF_TYPE, formatFen } from '@coalx/shared';
import { excelWorkbook } from '../../lib/excel';
import type { presentJournal } from './funds.service';

/** The pay records as an Excel workbook: amounts in yuan with 2 decimals, times in Asia/Shanghai. */
export async function journalWorkbook(rows: ReturnType<typeof presentJournal>[]): Promise<Buffer> {
  const columns = [
    { header: '流水号', key: 'id', width: 10 },
    { header: '时间', key: 'createdAt', width: 20 },
    { header: '类型', key: 'kind', width: 16 },
    { header: '业务', key: 'refType', width: 12 },
    { header: '业务编号', key: 'refId', width: 12 },
    { header: '金额(元)', key: 'amount', width: 18 },
    { header: '可用余额(元)', key: 'availableAfter', width: 18 },
    { header: '冻结金额(元)', key: 'frozenAfter', width: 18 },
    { header: '摘要', key: 'remark', width: 40 },
  ];
  return excelWorkbook(
    '支付记录',
    columns,
    rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      kind: JOURNAL_KIND[r.kind as keyof typeof JOURNAL_KIND] ?? r.kind,
      refType: JOURNAL_REF_TYPE[r.refType as keyof typeof JOURNAL_REF_TYPE] ?? r.refType,
      refId: r.refId,
      amount: formatFen(r.amount),
      availableAfter: formatFen(r.availableAfter),
      frozenAfter: formatFen(r.frozenAfter),
      remark: r.remark,
    })),
  );
}
