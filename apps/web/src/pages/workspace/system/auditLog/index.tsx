import { useEffect, useRef, useState } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Tag, Typography } from 'antd';
import { AUDIT_RESULT, ROLES } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { cleanParams, enumOf } from '@/lib/pro-table';
import { AUDIT_EXPORT_PATH, getAuditChoices, listAuditLogs, type AuditChoices, type AuditLogFilter, type AuditLogRecord } from '@/services/audit';
import AuditDetailDrawer from './components/AuditDetailDrawer';
import './audit-log.css';

const roleName = (code: string) => ROLES[code as keyof typeof ROLES] ?? code;
const asOptions = (values: string[]) => values.map((value) => ({ label: value, value }));

/** Text that may be long: cut by CSS, the whole of it on hover. */
const Cell = ({ text }: { text: string }) => (
  <span className="coalx-audit-cell" title={text}>
    {text}
  </span>
);

/**
 * 操作日志 (workspace /system/auditLog, admin and operator): who did what, to which object, and how it ended, searched
 * by user, enterprise, action, object, time and result; a row opens its changes and request; Excel export.
 */
export default function AuditLogPage() {
  const filters = useRef<AuditLogFilter>({});
  const [choices, setChoices] = useState<AuditChoices>({ actions: [], objectTypes: [] });
  // the trail counts up to 10,000 rows (AUDIT_COUNT_LIMIT); more is said, not counted
  const [capped, setCapped] = useState(false);
  const [detail, setDetail] = useState<AuditLogRecord | null>(null);
  const { exporting, exportExcel } = useExcelExport(
    () => downloadWithToken(AUDIT_EXPORT_PATH, { ...(filters.current as Record<string, string | undefined>) }, '操作日志.xlsx'),
    '当前查询没有可导出的操作日志',
  );

  useEffect(() => {
    getAuditChoices()
      .then(setChoices)
      .catch(() => undefined);
  }, []);

  const columns: ProColumns<AuditLogRecord>[] = [
    {
      title: '时间',
      dataIndex: 'timeRange',
      valueType: 'dateRange',
      width: 165,
      fieldProps: { placeholder: ['开始日期', '结束日期'] },
      search: { transform: (value: [string, string]) => ({ dateFrom: value?.[0], dateTo: value?.[1] }) },
      render: (_, r) => r.at,
    },
    {
      title: '用户',
      dataIndex: 'username',
      width: 140,
      fieldProps: { placeholder: '用户名' },
      render: (_, r) => (
        <>
          <Cell text={r.username} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {roleName(r.role)}
          </Typography.Text>
        </>
      ),
    },
    {
      title: '企业',
      dataIndex: 'enterpriseName',
      width: 220,
      fieldProps: { placeholder: '企业名称' },
      render: (_, r) => (r.enterpriseName ? <Cell text={r.enterpriseName} /> : <Typography.Text type="secondary">交易中心</Typography.Text>),
    },
    {
      title: '操作',
      dataIndex: 'action',
      width: 150,
      valueType: 'select',
      fieldProps: { options: asOptions(choices.actions), showSearch: true, placeholder: '全部操作', allowClear: true },
      render: (_, r) => <Cell text={r.action} />,
    },
    {
      title: '对象类型',
      dataIndex: 'objectType',
      valueType: 'select',
      hideInTable: true,
      fieldProps: { options: asOptions(choices.objectTypes), showSearch: true, placeholder: '全部类型', allowClear: true },
    },
    {
      title: '对象',
      dataIndex: 'objectId',
      width: 190,
      fieldProps: { placeholder: '对象编号' },
      render: (_, r) => <Cell text={[r.objectType, r.objectId].filter(Boolean).join(' ') || '-'} />,
    },
    {
      title: '结果',
      dataIndex: 'result',
      width: 110,
      valueType: 'select',
      valueEnum: enumOf(AUDIT_RESULT),
      fieldProps: { placeholder: '全部结果', allowClear: true },
      render: (_, r) => (
        <>
          <Tag color={r.result === 'success' ? 'success' : 'error'}>{AUDIT_RESULT[r.result]}</Tag>
          {r.errorCode && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} title={r.errorCode}>
              {r.statusCode}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: '详情',
      valueType: 'option',
      width: 70,
      render: (_, r) => [
        <a key="detail" onClick={() => setDetail(r)}>
          查看
        </a>,
      ],
    },
  ];

  return (
    <>
      <ProTable<AuditLogRecord>
        rowKey="id"
        headerTitle="操作日志"
        tooltip="交易中心与管理员的每一次修改，以及所有用户的资金与交易操作，成功或被拒绝都会记录，记录不可修改或删除"
        columns={columns}
        cardBordered
        search={{ labelWidth: 'auto', defaultCollapsed: false, span: 6 }}
        options={{ reload: true, density: false, setting: false }}
        pagination={{ defaultPageSize: 20, showSizeChanger: false, showTotal: (total) => (capped ? `超过 ${total} 条，请缩小查询范围` : `共 ${total} 条`) }}
        tableLayout="fixed"
        locale={{ emptyText: '暂无操作日志' }}
        toolBarRender={() => [
          <Authorized key="export" action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出 Excel
            </Button>
          </Authorized>,
        ]}
        request={async (params) => {
          const { current = 1, pageSize = 20 } = params;
          filters.current = cleanParams(params) as AuditLogFilter;
          const page = await listAuditLogs({ pageNo: current, pageSize, ...filters.current });
          setCapped(page.totalCapped === true);
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <AuditDetailDrawer record={detail} onClose={() => setDetail(null)} />
    </>
  );
}
