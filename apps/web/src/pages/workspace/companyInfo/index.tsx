import { BankOutlined, UserOutlined } from '@ant-design/icons';
import { ProCard, ProDescriptions } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Badge, Empty, Tag } from 'antd';
import type { EnterpriseInfo, UserInfo } from '@coalx/shared';
import { useDict } from '@/app/dict';
import { session } from '@/app/session';
import { getEnterpriseInfo } from '@/services/enterprise';
import { getUserInfo } from '@/services/auth';

const AUDIT_BADGE: Record<string, 'success' | 'processing' | 'error' | 'default'> = {
  approved: 'success',
  pending: 'processing',
  rejected: 'error',
};

/** Company info (workspace /companyInfo): read-only account and enterprise basics. */
export default function CompanyInfoPage() {
  const user = useQuery({
    queryKey: ['sys', 'user', 'info'],
    queryFn: async () => {
      const info = await getUserInfo();
      session.setUserInfo(info);
      return info;
    },
  });
  const enterprise = useQuery({
    queryKey: ['sys', 'enterprise', 'info'],
    queryFn: async () => {
      const info = await getEnterpriseInfo();
      session.setCompanyInfo(info);
      return info;
    },
  });
  const enterpriseType = useDict('enterprise_type');
  const auditStatus = useDict('enterprise_audit_status');

  return (
    <div className="coalx-company-info">
      <ProCard
        title={
          <span>
            <UserOutlined /> 账号信息
          </span>
        }
        headerBordered
        loading={user.isLoading}
        className="coalx-section-card"
      >
        <ProDescriptions<UserInfo>
          column={{ xs: 1, sm: 2, lg: 3 }}
          dataSource={user.data}
          emptyText="-"
          columns={[
            { title: '用户名', dataIndex: 'username' },
            { title: '姓名', dataIndex: 'realname' },
            { title: '手机号', dataIndex: 'mobile' },
            { title: '角色', dataIndex: ['role', 'name'], render: (_, r) => (r.role?.name ? <Tag color="blue">{r.role.name}</Tag> : '-') },
          ]}
        />
      </ProCard>
      <ProCard
        title={
          <span>
            <BankOutlined /> 企业信息
          </span>
        }
        headerBordered
        loading={enterprise.isLoading}
        className="coalx-section-card"
      >
        {enterprise.isError ? (
          <Empty description="企业信息加载失败，请稍后重试" />
        ) : !enterprise.isLoading && !enterprise.data ? (
          <Empty description="当前账号未关联企业（交易中心运营与系统管理账号不属于任何企业）" />
        ) : (
          <ProDescriptions<NonNullable<EnterpriseInfo>>
            column={{ xs: 1, sm: 2, lg: 3 }}
            dataSource={enterprise.data ?? undefined}
            emptyText="-"
            columns={[
              { title: '企业名称', dataIndex: 'organName', span: 2 },
              { title: '企业编号', dataIndex: 'clientId' },
              { title: '统一社会信用代码', dataIndex: 'creditCode', copyable: true },
              { title: '企业类型', dataIndex: 'enterpriseType', render: (_, r) => enterpriseType.text(r.enterpriseType) || '-' },
              {
                title: '审核状态',
                dataIndex: 'auditStatus',
                render: (_, r) => <Badge status={AUDIT_BADGE[r.auditStatus] ?? 'default'} text={auditStatus.text(r.auditStatus) || '-'} />,
              },
              { title: '法定代表人', dataIndex: 'legalPerson' },
              { title: '联系人', dataIndex: 'contactName' },
              { title: '联系电话', dataIndex: 'contactMobile' },
              { title: '企业地址', dataIndex: 'address', span: 3 },
            ]}
          />
        )}
      </ProCard>
    </div>
  );
}
