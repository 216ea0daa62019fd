import { AUDIT_RESULT, ERRORS, ROLES } from '@coalx/shared';
import { Descriptions, Drawer, Empty, Table, Tag, Typography } from 'antd';
import type { AuditLogRecord } from '@/services/audit';

const roleName = (code: string) => ROLES[code as keyof typeof ROLES] ?? (code || '-');
/** The refusal's code with the catalogue's Chinese meaning, e.g. "funds_insufficient（可用余额不足）". */
const refusalText = (code: string) => {
  const meaning = ERRORS[code as keyof typeof ERRORS]?.message;
  return meaning ? `${code}（${meaning}）` : code;
};

/** A before or after value as the admin reads it: text as is, the rest as JSON, nothing as "（无）". */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '（无）';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

interface ChangeRow {
  field: string;
  before: unknown;
  after: unknown;
}

/** One audit row in full: who, what, on which object, the fields it changed and the request it sent. */
export default function AuditDetailDrawer({ record, onClose }: { record: AuditLogRecord | null; onClose: () => void }) {
  const changes: ChangeRow[] = Object.entries(record?.changes ?? {}).map(([field, [before, after]]) => ({ field, before, after }));
  return (
    <Drawer title="操作详情" width={640} open={record !== null} onClose={onClose} destroyOnHidden>
      {record && (
        <>
          <Descriptions
            size="small"
            column={2}
            bordered
            items={[
              { key: 'at', label: '时间', children: record.at, span: 2 },
              { key: 'user', label: '用户', children: record.username || '-' },
              { key: 'role', label: '角色', children: roleName(record.role) },
              { key: 'enterprise', label: '企业', children: record.enterpriseName || '交易中心', span: 2 },
              { key: 'action', label: '操作', children: record.action },
              {
                key: 'result',
                label: '结果',
                children: (
                  <>
                    <Tag color={record.result === 'success' ? 'success' : 'error'}>{AUDIT_RESULT[record.result]}</Tag>
                    {record.errorCode && <Typography.Text type="secondary">{refusalText(record.errorCode)}</Typography.Text>}
                  </>
                ),
              },
              { key: 'object', label: '对象', children: [record.objectType, record.objectId].filter(Boolean).join(' ') || '-', span: 2 },
              { key: 'request', label: '请求', children: <Typography.Text code>{`${record.method} ${record.route}`}</Typography.Text>, span: 2 },
              { key: 'status', label: '状态码', children: record.statusCode },
              { key: 'ip', label: 'IP 地址', children: record.ip || '-' },
              { key: 'requestId', label: '请求编号', children: <Typography.Text copyable>{record.requestId}</Typography.Text>, span: 2 },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            变更内容
          </Typography.Title>
          {changes.length ? (
            <Table<ChangeRow>
              size="small"
              rowKey="field"
              pagination={false}
              dataSource={changes}
              columns={[
                { title: '字段', dataIndex: 'field', width: 160 },
                { title: '变更前', dataIndex: 'before', render: (v: unknown) => valueText(v) },
                { title: '变更后', dataIndex: 'after', render: (v: unknown) => valueText(v) },
              ]}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="此操作未记录字段变更" />
          )}
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            请求内容
          </Typography.Title>
          {record.body === null || record.body === undefined ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="无请求内容" />
          ) : (
            <pre className="coalx-audit-body">{JSON.stringify(record.body, null, 2)}</pre>
          )}
          <Typography.Paragraph type="secondary">密码、支付密码、令牌与签名已隐去，显示为 ***。</Typography.Paragraph>
        </>
      )}
    </Drawer>
  );
}
