import { useState } from 'react';
import { BankOutlined, EditOutlined, FileProtectOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { ProCard, ProDescriptions, ProFormItem, ProFormText } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Empty, Space, Tabs, Tag, message } from 'antd';
import {
  BankFields,
  CreditCodeSchema,
  EmailSchema,
  EnterpriseUpdateSchema,
  LegalPersonSchema,
  MobileSchema,
  OrganNameSchema,
  PersonNameSchema,
  type EnterpriseChangeApplyInput,
  type EnterpriseDetail,
  type EnterpriseUpdateInput,
  type UserInfo,
} from '@coalx/shared';
import { useDict } from '@/app/dict';
import { errorMessage } from '@/app/request';
import { session, useSession } from '@/app/session';
import AreaCascader from '@/components/AreaCascader';
import EnterpriseAttachments from '@/components/EnterpriseAttachments';
import Upload from '@/components/Upload';
import { zodRule } from '@/lib/zod-rule';
import { getUserInfo } from '@/services/auth';
import { applyEnterpriseChange, getEnterpriseDetail, updateEnterprise } from '@/services/enterprise';
import Members from './Members';

const AUDIT_BADGE: Record<string, 'success' | 'processing' | 'error' | 'default'> = {
  approved: 'success',
  pending: 'processing',
  rejected: 'error',
};

const DETAIL_KEY = ['sys', 'enterprise', 'detail'];

function EditContact({ detail, onDone }: { detail: EnterpriseDetail; onDone: () => void }) {
  return (
    <GuardedModalForm<EnterpriseUpdateInput>
      title="修改联系信息"
      width={560}
      trigger={
        <Button icon={<EditOutlined />} size="small">
          修改联系信息
        </Button>
      }
      layout="horizontal"
      labelCol={{ span: 6 }}
      initialValues={{
        areaCode: detail.areaCode || undefined,
        addressDetail: detail.addressDetail,
        contactName: detail.contactName,
        contactMobile: detail.contactMobile,
        contactEmail: detail.contactEmail,
      }}
      modalProps={{ destroyOnHidden: true, okText: '保存', cancelText: '取消' }}
      onFinish={async (values) => {
        try {
          await updateEnterprise(values);
          message.success('联系信息已更新');
          onDone();
          return true;
        } catch (e) {
          message.error(errorMessage(e, '保存失败，请稍后重试'));
          return false;
        }
      }}
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="联系人与办公地址修改后立即生效，无需审核。" />
      <ProFormItem name="areaCode" label="所在地区" rules={[{ required: true, message: '请选择所在地区（选到区县）' }]}>
        <AreaCascader />
      </ProFormItem>
      <ProFormText name="addressDetail" label="详细地址" rules={[zodRule(EnterpriseUpdateSchema.shape.addressDetail)]} fieldProps={{ maxLength: 100 }} />
      <ProFormText name="contactName" label="联系人" rules={[zodRule(PersonNameSchema('联系人'))]} fieldProps={{ maxLength: 30 }} />
      <ProFormText name="contactMobile" label="联系电话" rules={[zodRule(MobileSchema)]} fieldProps={{ maxLength: 11 }} />
      <ProFormText name="contactEmail" label="电子邮箱" rules={[zodRule(EmailSchema)]} fieldProps={{ maxLength: 100 }} />
    </GuardedModalForm>
  );
}

function ApplyChange({ detail, onDone }: { detail: EnterpriseDetail; onDone: () => void }) {
  return (
    <GuardedModalForm<EnterpriseChangeApplyInput>
      title="申请变更法定信息"
      width={600}
      trigger={
        <Button icon={<FileProtectOutlined />} size="small" disabled={Boolean(detail.pendingChange) || detail.auditStatus !== 'approved'}>
          申请变更法定信息
        </Button>
      }
      layout="horizontal"
      labelCol={{ span: 7 }}
      initialValues={{
        organName: detail.organName,
        creditCode: detail.creditCode,
        legalPerson: detail.legalPerson,
        bankName: detail.bankName,
        bankBranch: detail.bankBranch,
        bankAccountNo: detail.bankAccountNo,
      }}
      modalProps={{ destroyOnHidden: true, okText: '提交审核', cancelText: '取消' }}
      onFinish={async (values) => {
        try {
          await applyEnterpriseChange({ ...values, licenceUrl: values.licenceUrl || undefined });
          message.success('变更申请已提交，审核通过前仍按原资料交易');
          onDone();
          return true;
        } catch (e) {
          message.error(errorMessage(e, '提交失败，请稍后重试'));
          return false;
        }
      }}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message="企业名称、信用代码、法定代表人和结算账户须经交易中心审核后生效；审核期间仍按原资料交易和出金。"
      />
      <ProFormText name="organName" label="企业名称" rules={[zodRule(OrganNameSchema)]} fieldProps={{ maxLength: 50 }} />
      <ProFormText name="creditCode" label="统一社会信用代码" rules={[zodRule(CreditCodeSchema)]} fieldProps={{ maxLength: 18 }} />
      <ProFormText name="legalPerson" label="法定代表人" rules={[zodRule(LegalPersonSchema)]} fieldProps={{ maxLength: 30 }} />
      <ProFormText name="bankName" label="开户银行" rules={[zodRule(BankFields.bankName)]} fieldProps={{ maxLength: 60 }} />
      <ProFormText name="bankBranch" label="开户支行" rules={[zodRule(BankFields.bankBranch)]} fieldProps={{ maxLength: 60 }} />
      <ProFormText name="bankAccountNo" label="银行账号" rules={[zodRule(BankFields.bankAccountNo)]} fieldProps={{ maxLength: 30 }} />
      <ProFormItem name="licenceUrl" label="新营业执照" extra="企业名称或信用代码变更时请上传新的营业执照">
        <Upload visibility="private" />
      </ProFormItem>
    </GuardedModalForm>
  );
}

function EnterpriseCard({ detail, isAdmin, onChanged }: { detail: EnterpriseDetail; isAdmin: boolean; onChanged: () => void }) {
  const enterpriseType = useDict('enterprise_type');
  const auditStatus = useDict('enterprise_audit_status');
  const change = detail.pendingChange;
  return (
    <>
      {detail.auditStatus === 'rejected' && detail.auditReason && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`企业审核未通过：${detail.auditReason}`} />
      )}
      {change && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={`资料变更审核中（${change.createdAt} 提交），审核通过前仍按下列已审核资料交易`}
          description={
            <Space direction="vertical" size={0}>
              <span>变更后名称：{change.organName}</span>
              <span>统一社会信用代码：{change.creditCode}</span>
              <span>法定代表人：{change.legalPerson}</span>
              <span>
                结算账户：{change.bankName} {change.bankBranch} {change.bankAccountNo}
              </span>
            </Space>
          }
        />
      )}
      <ProDescriptions<EnterpriseDetail>
        column={{ xs: 1, sm: 2, lg: 3 }}
        dataSource={detail}
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
          { title: '电子邮箱', dataIndex: 'contactEmail' },
          { title: '审核时间', dataIndex: 'auditedAt' },
          { title: '企业地址', dataIndex: 'address', span: 3 },
          { title: '结算账户', dataIndex: 'bankAccountNo', span: 3, render: (_, r) => (r.bankAccountNo ? `${r.bankName} ${r.bankBranch} ${r.bankAccountNo}` : '-') },
        ]}
      />
      {isAdmin && (
        <Space style={{ marginTop: 16 }}>
          <EditContact detail={detail} onDone={onChanged} />
          <ApplyChange detail={detail} onDone={onChanged} />
        </Space>
      )}
    </>
  );
}

/** Company info (workspace /companyInfo): account, enterprise data and audit state, attachments, members. */
export default function CompanyInfoPage() {
  const queryClient = useQueryClient();
  const { userInfo } = useSession();
  const roleCode = userInfo?.role?.code;
  const inEnterprise = roleCode === 'trader' || roleCode === 'enterprise_admin';
  const isAdmin = roleCode === 'enterprise_admin';
  const [tab, setTab] = useState('info');

  const user = useQuery({
    queryKey: ['sys', 'user', 'info'],
    queryFn: async () => {
      const info = await getUserInfo();
      session.setUserInfo(info);
      return info;
    },
  });
  const detail = useQuery({ queryKey: DETAIL_KEY, queryFn: getEnterpriseDetail, enabled: inEnterprise });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: DETAIL_KEY });

  const accountCard = (
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
  );

  const enterpriseCard = (
    <ProCard
      title={
        <span>
          <BankOutlined /> 企业信息
        </span>
      }
      headerBordered
      loading={inEnterprise && detail.isLoading}
      className="coalx-section-card"
    >
      {!inEnterprise ? (
        <Empty description="当前账号未关联企业（交易中心运营与系统管理账号不属于任何企业）" />
      ) : detail.isError || !detail.data ? (
        <Empty description="企业信息加载失败，请稍后重试" />
      ) : (
        <EnterpriseCard detail={detail.data} isAdmin={isAdmin} onChanged={refresh} />
      )}
    </ProCard>
  );

  const attachmentsCard = inEnterprise && detail.data && (
    <ProCard
      title={
        <span>
          <FileProtectOutlined /> 资质附件
        </span>
      }
      headerBordered
      className="coalx-section-card"
    >
      <EnterpriseAttachments attachments={detail.data.attachments} />
    </ProCard>
  );

  const info = (
    <div className="coalx-company-info">
      {accountCard}
      {enterpriseCard}
      {attachmentsCard}
    </div>
  );

  if (!isAdmin) return info;
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'info', label: '企业信息', icon: <BankOutlined />, children: info },
        { key: 'members', label: '成员管理', icon: <TeamOutlined />, children: <Members /> },
      ]}
    />
  );
}
