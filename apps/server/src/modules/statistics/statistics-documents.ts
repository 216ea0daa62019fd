import { formatFen, formatTons, STATISTICS_GRANULARITIES, type DailyReportFigures, type DealFigures, type StatisticsAnswer } from '@coalx/shared';
import { excelWorkbookOfSheets, type ExcelSheet } from '../../lib/excel';
import { renderDocumentPdf } from '../../lib/pdf/document-pdf';

/**
 * The files made from the figures (queries/statistics): the statistics export and the daily report's PDF and
 * workbook. Every cell of money is in 元 and every tonnage in 吨 as a number, so the sheet sums them.
 */
const MONEY = '#,##0.00';
const TONS = '#,##0.00';

const yuan = (fen: number) => fen / 100;
const tons = (kg: number) => Math.round(kg / 10) / 100;

function dealSheet(name: string, keyHeader: string, rows: DealFigures[]): ExcelSheet {
  return {
    name,
    columns: [
      { header: keyHeader, key: 'label', width: 22 },
      { header: '成交笔数', key: 'dealCount', width: 12 },
      { header: '成交量(吨)', key: 'tons', width: 16, numFmt: TONS },
      { header: '成交金额(元)', key: 'amount', width: 20, numFmt: MONEY },
      { header: '均价(元/吨)', key: 'avgPrice', width: 16, numFmt: MONEY },
    ],
    rows: rows.map((r) => ({ label: r.label, dealCount: r.dealCount, tons: tons(r.quantityKg), amount: yuan(r.amountFen), avgPrice: yuan(r.avgPriceFen) })),
  };
}

/** Label and value (a number in its unit, or a text) of every summary figure. */
export function summaryLines(answer: StatisticsAnswer): [string, number | string, string][] {
  const s = answer.summary;
  return [
    ['成交笔数', s.dealCount, '笔'],
    ['成交量', tons(s.quantityKg), '吨'],
    ['成交金额', yuan(s.amountFen), '元'],
    ['成交均价', yuan(s.avgPriceFen), '元/吨'],
    ['活跃企业', s.activeEnterprises, '家'],
    ['竞价场次', s.auctionsHeld, '场'],
    ['流拍场次', s.auctionsFailed, '场'],
    ['竞价平均溢价率', s.auctionPremiumPct ?? '-', s.auctionPremiumPct === null ? '' : '%'],
    ['竞价平均溢价', s.auctionPremiumFen === null ? '-' : yuan(s.auctionPremiumFen), s.auctionPremiumFen === null ? '' : '元/吨'],
    ['合同签署', s.contractsSigned, '份'],
    ['按期签署', s.contractsSignedOnTime, '份'],
    ['签署逾期', s.contractsOverdue, '份'],
    ['订单交付', s.ordersDelivered, '单'],
    ['按期交付', s.ordersDeliveredInWindow, '单'],
    ['签收车数', s.trucksSigned, '车'],
    ['签收量', tons(s.trucksSignedKg), '吨'],
    ['新增争议', s.disputesOpened, '起'],
    ['裁定争议', s.disputesRuled, '起'],
    ['冻结保证金', yuan(s.depositsFrozenFen), '元'],
    ['释放保证金', yuan(s.depositsReleasedFen), '元'],
    ['入金', yuan(s.fundsInFen), '元'],
    ['出金', yuan(s.fundsOutFen), '元'],
  ];
}

function summarySheet(answer: StatisticsAnswer): ExcelSheet {
  return {
    name: '汇总',
    columns: [
      { header: '指标', key: 'label', width: 20 },
      { header: '数值', key: 'value', width: 20, numFmt: '#,##0.00' },
      { header: '单位', key: 'unit', width: 10 },
    ],
    rows: [
      { label: '统计区间', value: `${answer.from} 至 ${answer.to}`, unit: '' },
      ...summaryLines(answer).map(([label, value, unit]) => ({ label, value, unit })),
    ],
  };
}

function disputeSheet(answer: StatisticsAnswer): ExcelSheet {
  return {
    name: '争议',
    columns: [
      { header: '争议类型', key: 'label', width: 16 },
      { header: '新增', key: 'opened', width: 10 },
      { header: '裁定', key: 'ruled', width: 10 },
    ],
    rows: answer.disputes.map((d) => ({ label: d.label, opened: d.opened, ruled: d.ruled })),
  };
}

/** 运营统计's export: the summary, the trend by period, and the deals by kind, product, province and price type. */
export function statisticsWorkbook(answer: StatisticsAnswer): Promise<Buffer> {
  return excelWorkbookOfSheets([
    summarySheet(answer),
    dealSheet(`趋势(${STATISTICS_GRANULARITIES[answer.granularity]})`, '期间', answer.trend),
    dealSheet('按交易方式', '交易方式', answer.byKind),
    dealSheet('按品名', '品名', answer.byProduct),
    dealSheet('按交收省份', '交收省份', answer.byProvince),
    dealSheet('按价格类型', '价格类型', answer.byPriceType),
    disputeSheet(answer),
  ]);
}

/** 交易日报's workbook: the same figures as its PDF. */
export function dailyReportWorkbook(figures: DailyReportFigures): Promise<Buffer> {
  const byKindProduct: ExcelSheet = {
    name: '成交明细',
    columns: [
      { header: '交易方式', key: 'kindLabel', width: 12 },
      { header: '品名', key: 'productName', width: 22 },
      { header: '成交笔数', key: 'dealCount', width: 12 },
      { header: '成交量(吨)', key: 'tons', width: 16, numFmt: TONS },
      { header: '成交金额(元)', key: 'amount', width: 20, numFmt: MONEY },
      { header: '均价(元/吨)', key: 'avgPrice', width: 16, numFmt: MONEY },
    ],
    rows: figures.byKindProduct.map((r) => ({
      kindLabel: r.kindLabel,
      productName: r.productName,
      dealCount: r.dealCount,
      tons: tons(r.quantityKg),
      amount: yuan(r.amountFen),
      avgPrice: yuan(r.avgPriceFen),
    })),
  };
  const index: ExcelSheet = {
    name: '市场指数',
    columns: [
      { header: '期数', key: 'term', width: 24 },
      { header: '指数(元/吨)', key: 'price', width: 16, numFmt: MONEY },
      { header: '涨跌(元/吨)', key: 'rise', width: 16, numFmt: MONEY },
    ],
    rows: figures.marketIndex ? [{ term: figures.marketIndex.term, price: yuan(figures.marketIndex.priceFen), rise: yuan(figures.marketIndex.riseFen) }] : [],
  };
  return excelWorkbookOfSheets([summarySheet(figures), byKindProduct, dealSheet('按交易方式', '交易方式', figures.byKind), disputeSheet(figures), index]);
}

const money = (fen: number) => `¥${formatFen(fen)}`;

/** 交易日报's PDF: A4 in the platform's document layout, one heading a part. */
export function dailyReportPdf(figures: DailyReportFigures, madeAt: Date): Promise<Uint8Array> {
  const s = figures.summary;
  const day = figures.from;
  const title = `交易日报（${day}）`;
  const paragraphs = [
    `# ${title}`,
    `本日报统计 ${day}（北京时间）全天的交易、履约与资金情况，数据与运营统计一致，生成后归档，不再改动。`,
    '## 一、成交概况',
    `成交 ${s.dealCount} 笔，成交量 ${formatTons(s.quantityKg)}，成交金额 ${money(s.amountFen)}，成交均价 ${s.quantityKg > 0 ? `${money(s.avgPriceFen)}/吨` : '-'}；参与成交企业 ${s.activeEnterprises} 家。`,
    ...figures.byKind.map((k) => `${k.label}：${k.dealCount} 笔，${formatTons(k.quantityKg)}，${money(k.amountFen)}${k.quantityKg > 0 ? `，均价 ${money(k.avgPriceFen)}/吨` : ''}。`),
    '## 二、分品名成交',
    ...(figures.byKindProduct.length === 0
      ? ['当日无成交。']
      : figures.byKindProduct.map((r) => `${r.kindLabel} · ${r.productName}：${r.dealCount} 笔，${formatTons(r.quantityKg)}，${money(r.amountFen)}，均价 ${money(r.avgPriceFen)}/吨。`)),
    '## 三、竞价',
    `结束竞价 ${s.auctionsHeld} 场，其中成交 ${s.auctionsHeld - s.auctionsFailed} 场、流拍 ${s.auctionsFailed} 场；成交场次较起拍价平均溢价 ${s.auctionPremiumPct === null ? '-' : `${s.auctionPremiumPct.toFixed(2)}%（${money(s.auctionPremiumFen ?? 0)}/吨）`}。`,
    '## 四、资金',
    `冻结保证金 ${money(s.depositsFrozenFen)}，释放保证金 ${money(s.depositsReleasedFen)}；入金 ${money(s.fundsInFen)}，出金 ${money(s.fundsOutFen)}。`,
    '## 五、合同与履约',
    `双方签署生效合同 ${s.contractsSigned} 份（按期 ${s.contractsSignedOnTime} 份），签署逾期 ${s.contractsOverdue} 份；交付完成订单 ${s.ordersDelivered} 单（按期 ${s.ordersDeliveredInWindow} 单）；签收车辆 ${s.trucksSigned} 车，签收量 ${formatTons(s.trucksSignedKg)}。`,
    '## 六、争议',
    ...figures.disputes.map((d) => `${d.label}：新增 ${d.opened} 起，裁定 ${d.ruled} 起。`),
    '## 七、市场指数',
    figures.marketIndex
      ? `${figures.marketIndex.term}：${money(figures.marketIndex.priceFen)}/吨，涨跌 ${figures.marketIndex.riseFen >= 0 ? '+' : ''}${formatFen(figures.marketIndex.riseFen)} 元/吨。`
      : '当日未发布市场指数。',
  ];
  return renderDocumentPdf({ title, header: '交易中心', paragraphs, createdAt: madeAt });
}
