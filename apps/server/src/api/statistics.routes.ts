import {
  DailyReportListQuerySchema,
  DailyReportMadeSchema,
  DailyReportMakeSchema,
  DailyReportSchema,
  envelopeSchema,
  pageSchema,
  StatisticsAnswerSchema,
  StatisticsQuerySchema,
} from '@coalx/shared';
import { z } from 'zod';
import { notFound } from '../errors';
import { ok } from '../lib/envelope';
import { sendExcel } from '../lib/excel';
import { fileHeaders } from '../lib/file-reply';
import type { ZodApp } from '../lib/route-types';
import { dailyReportTime, makeDailyReportOnDemand } from '../flows/make-daily-report';
import { statisticsFor } from '../queries/statistics/index';
import { listDailyReports } from '../queries/statistics/daily-report';
import { readGeneratedFile } from '../modules/files/files.service';
import { dailyReportById } from '../modules/statistics/daily-report.service';
import { statisticsWorkbook } from '../modules/statistics/statistics-documents';
import { statisticsPolicy } from '../modules/statistics/statistics.policy';
import { requireActor } from '../plugins/authenticate';

const BASE = '/api/statistics';
const IdParams = z.object({ id: z.coerce.number({ error: '日报编号无效' }).int().positive('日报编号无效').max(Number.MAX_SAFE_INTEGER) });
const DailyReportPageSchema = pageSchema(DailyReportSchema).extend({ reportTime: z.string() });

/** 运营统计 (figures, Excel) and 交易日报 (archive, on-demand make, files): the trading centre's, the admin reads. */
export default async function statisticsRoutes(app: ZodApp) {
  const tags = ['statistics'];

  app.get(
    `${BASE}/overview`,
    { config: { permission: 'operation-statistics.query' }, schema: { tags, summary: '运营统计: 区间内的成交、竞价、履约、争议与资金数字', querystring: StatisticsQuerySchema, response: { 200: envelopeSchema(StatisticsAnswerSchema) } } },
    async (request) => {
      statisticsPolicy.can(requireActor(request), 'read');
      return ok(await statisticsFor(app.db, request.query));
    },
  );

  app.get(
    `${BASE}/export`,
    { config: { permission: 'operation-statistics.export' }, schema: { tags, summary: '导出运营统计 (Excel)', querystring: StatisticsQuerySchema } },
    async (request, reply) => {
      statisticsPolicy.can(requireActor(request), 'read');
      const answer = await statisticsFor(app.db, request.query);
      return sendExcel(reply, await statisticsWorkbook(answer), `运营统计_${answer.from}_${answer.to}.xlsx`);
    },
  );

  app.get(
    `${BASE}/daily-reports`,
    { config: { permission: 'operation-dailyReport.query' }, schema: { tags, summary: '交易日报归档 (按日期倒序)', querystring: DailyReportListQuerySchema, response: { 200: envelopeSchema(DailyReportPageSchema) } } },
    async (request) => {
      statisticsPolicy.can(requireActor(request), 'read');
      const [page, reportTime] = await Promise.all([listDailyReports(app.db, request.query), dailyReportTime(app.db)]);
      return ok({ ...page, reportTime });
    },
  );

  app.post(
    `${BASE}/daily-reports`,
    {
      config: { permission: statisticsPolicy.grantOf('make'), audit: '生成交易日报' },
      schema: { tags, summary: '生成某一过去日期的交易日报 (已生成的返回归档，不重新生成)', body: DailyReportMakeSchema, response: { 200: envelopeSchema(DailyReportMadeSchema) } },
    },
    async (request) => {
      const made = await makeDailyReportOnDemand(app.db, app.storage, app.clock, requireActor(request), request.body.reportDate);
      return ok(made, made.alreadyMade ? `${made.report.reportDate} 的日报已生成过，返回归档的日报` : '日报已生成并归档');
    },
  );

  for (const kind of ['pdf', 'xlsx'] as const) {
    app.get(
      `${BASE}/daily-reports/:id/${kind}`,
      { config: { permission: 'operation-dailyReport.export' }, schema: { tags, summary: kind === 'pdf' ? '下载交易日报 PDF' : '下载交易日报 Excel', params: IdParams } },
      async (request, reply) => {
        statisticsPolicy.can(requireActor(request), 'read');
        const report = await dailyReportById(app.db, request.params.id);
        if (!report) throw notFound('日报不存在');
        const { file, stream } = await readGeneratedFile(app.db, app.storage, kind === 'pdf' ? report.pdfFileId : report.xlsxFileId);
        return fileHeaders(reply, { contentType: file.contentType, fileName: file.originalName, size: file.size }).send(stream);
      },
    );
  }
}
