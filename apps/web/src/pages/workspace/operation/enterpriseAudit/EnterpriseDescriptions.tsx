import { ProDescriptions } from '@ant-design/pro-components';
import { Badge } from 'antd';
import type { EnterpriseDetail } from '@coalx/shared';
import { useDict } from '@/app/dict';

export const AUDIT_BADGE: Record<string, 'success' | 'processing' | 'error' | 'default'> = {
  approved: 'success',
  pending: 'processing',
  rejected: 'error',
};

/** Every field the audit looks at; all text is rendered as text (React escapes it). */
export default function EnterpriseDescriptions({ detail }: { detail: EnterpriseDetail }) {
  const enterpriseType = useDict('enterprise_type');
  const auditStatus = useDict('enterprise_audit_status');
  return (
    <ProDescriptions<EnterpriseDetail>
      column={2}
      dataSource={detail}
      emptyText="-"
      bordered
      size="small"
      columns={[
        { title: '企业名称', dataIndex: 'organName', span: 2 },
        { title: '统一社会信用代码', dataIndex: 'creditCode', copyable: true },
        { title: '企业类型', dataIndex: 'enterpriseType', render: (_, r) => enterpriseType.text(r.enterpriseType) || '-' },
        { title: '法定代表人', dataIndex: 'legalPerson' },
        { title: '企业编号', dataIndex: 'clientId' },
        { title: '注册地址', dataIndex: 'address', span: 2 },
        { title: '联系人', dataIndex: 'contactName' },
        { title: '联系电话', dataIndex: 'contactMobile' },
        { title: '电子邮箱', dataIndex: 'contactEmail', span: 2 },
        { title: '开户银行', dataIndex: 'bankName' },
        { title: '开户支行', dataIndex: 'bankBranch' },
        { title: '银行账号', dataIndex: 'bankAccountNo', span: 2, copyable: true },
        {
          title: '注册账号',
          dataIndex: ['registrant', 'username'],
          span: 2,
          render: (_, r) => (r.registrant ? `${r.registrant.username}（${r.registrant.realname}，${r.registrant.mobile}）` : '-'),
        },
        {
          title: '审核状态',
          dataIndex: 'auditStatus',
          render: (_, r) => <Badge status={AUDIT_BADGE[r.auditStatus] ?? 'default'} text={auditStatus.text(r.auditStatus) || '-'} />,
        },
        { title: '提交时间', dataIndex: 'submittedAt' },
        { title: '审核时间', dataIndex: 'auditedAt' },
        { title: '驳回原因', dataIndex: 'auditReason', render: (_, r) => r.auditReason || '-' },
      ]}
    />
  );
}
