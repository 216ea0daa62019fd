import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileExcelOutlined, FilePdfOutlined, PlusOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { Alert, Button, DatePicker, Modal, Space, Table, Typography, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { formatDateTime, formatTons } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import { errorMessage } from '@/app/request';
import { downloadWithToken } from '@/lib/download';
import { dailyReportFilePath, listDailyReports, makeDailyReport, STATISTICS_KEYS, type DailyReport } from '@/services/statistics';

const PAGE_SIZE = 20;

function FileLink({ report, kind }: { report: DailyReport; kind: 'pdf' | 'xlsx' }) {
  const [loading, setLoading] = useState(false);
  const name = kind === 'pdf' ? report.pdfName : report.xlsxName;
  const open = async () => {
    setLoading(true);
    try {
      await downloadWithToken(dailyReportFilePath(report.id, kind), {}, name);
    } catch (error) {
      message.error(errorMessage(error, '下载失败，请稍后重试'));
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button type="link" size="small" loading={loading} icon={kind === 'pdf' ? <FilePdfOutlined /> : <FileExcelOutlined />} onClick={() => void open()} data-testid={`daily-report-${kind}-${report.reportDate}`}>
      {kind === 'pdf' ? 'PDF' : 'Excel'}
    </Button>
  );
}

/**
 * 交易日报: the archive of the daily reports (made every day at the set time, or on demand for a past day), each
 * with its PDF and Excel. A day is made once: making a day already made shows the archived report.
 */
export default function DailyReportPage() {
  const queryClient = useQueryClient();
  const [pageNo, setPageNo] = useState(1);
  const [day, setDay] = useState<Dayjs | null>(dayjs().subtract(1, 'day'));
  const [notice, setNotice] = useState<{ type: 'success' | 'info'; text: string } | null>(null);
  const reports = useQuery({ queryKey: STATISTICS_KEYS.dailyReports(pageNo, PAGE_SIZE), queryFn: () => listDailyReports(pageNo, PAGE_SIZE) });
  const make = useMutation({
    mutationFn: (reportDate: string) => makeDailyReport(reportDate),
    onSuccess: (made) => {
      setNotice(
        made.alreadyMade
          ? { type: 'info', text: `${made.report.reportDate} 的日报已于 ${formatDateTime(made.report.madeAt)} 生成并归档，日报生成后不再重新生成，以下为归档的日报。` }
          : { type: 'success', text: `${made.report.reportDate} 的日报已生成并归档。` },
      );
      void queryClient.invalidateQueries({ queryKey: STATISTICS_KEYS.allDailyReports });
    },
    onError: (error) => message.error(errorMessage(error, '生成失败，请稍后重试')),
  });
  const confirmMake = () => {
    if (!day) return;
    const reportDate = day.format('YYYY-MM-DD');
    Modal.confirm({
      title: `生成 ${reportDate} 的交易日报`,
      content: '日报按该日（北京时间）全天数据生成 PDF 和 Excel 并归档；已生成过的日期不会重新生成。',
      okText: '生成',
      cancelText: '取消',
      onOk: () => make.mutateAsync(reportDate).catch(() => undefined),
    });
  };
  const reportTime = reports.data?.reportTime ?? '';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProCard>
        <Space wrap size={16}>
          <Typography.Text>每日 {reportTime || '--:--'}（北京时间）自动生成当日日报并归档。</Typography.Text>
          <Authorized action="add">
            <Space>
              <Typography.Text type="secondary">补生成过去日期的日报：</Typography.Text>
              <DatePicker value={day} onChange={setDay} allowClear={false} disabledDate={(d) => !d.isBefore(dayjs(), 'day')} placeholder="日报日期" data-testid="daily-report-date" />
              <Button type="primary" icon={<PlusOutlined />} loading={make.isPending} disabled={!day} onClick={confirmMake}>
                生成日报
              </Button>
            </Space>
          </Authorized>
        </Space>
        {notice && <Alert style={{ marginTop: 12 }} type={notice.type} showIcon message={notice.text} closable onClose={() => setNotice(null)} data-testid="daily-report-notice" />}
      </ProCard>
      <ProCard title="日报归档">
        <Table<DailyReport>
          rowKey="id"
          loading={reports.isLoading}
          size="middle"
          tableLayout="fixed"
          dataSource={reports.data?.records ?? []}
          locale={{ emptyText: '暂无日报' }}
          pagination={{ current: pageNo, pageSize: PAGE_SIZE, total: reports.data?.total ?? 0, onChange: setPageNo, showSizeChanger: false, showTotal: (n) => `共 ${n} 份` }}
          columns={[
            { title: '日报日期', dataIndex: 'reportDate', width: 120 },
            { title: '成交笔数', dataIndex: 'dealCount', width: 90, align: 'right' },
            { title: '成交量 (吨)', dataIndex: 'quantityKg', width: 130, align: 'right', render: (v: number) => formatTons(v, false) },
            { title: '成交金额', dataIndex: 'amountFen', width: 160, align: 'right', render: (v: number) => <Money fen={v} /> },
            { title: '生成方式', dataIndex: 'madeBy', width: 130, ellipsis: true },
            { title: '生成时间', dataIndex: 'madeAt', width: 170, render: (v: string) => formatDateTime(v) },
            {
              title: '文件',
              key: 'files',
              width: 180,
              render: (_: unknown, r: DailyReport) => (
                <Space size={0}>
                  <FileLink report={r} kind="pdf" />
                  <FileLink report={r} kind="xlsx" />
                </Space>
              ),
            },
          ]}
        />
      </ProCard>
    </Space>
  );
}
