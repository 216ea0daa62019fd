import { useSearchParams } from 'react-router';
import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Badge, Button, Descriptions, Divider, Drawer, Input, Modal, Popconfirm, Space, Tabs, Tag, Typography, message } from 'antd';
import { ELLIPSIS, ellipsis, type ChangeRequest, type EnterpriseDetail } from '@coalx/shared';
import { useDict } from '@/app/dict';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import EnterpriseAttachments from '@/components/EnterpriseAttachments';
import {
  approveChangeRequest,
  approveEnterprise,
  listChangeRequests,
  listEnterprisesForAudit,
  rejectChangeRequest,
  rejectEnterprise,
} from '@/services/enterprise';
import EnterpriseDescriptions, { AUDIT_BADGE } from './EnterpriseDescriptions';

const STATUS_TABS = [
  { key: 'pending', label: '待审核' },
  { key: 'approved', label: '已通过' },
  { key: 'rejected', label: '已驳回' },
  { key: 'all', label: '全部' },
];

/** The reject dialog: a reason of 2-200 characters is required. */
function useRejectDialog(onReject: (id: number, reason: string) => Promise<void>) {
  const [target, setTarget] = useState<{ id: number; name: string } | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const dialog = (
    <Modal
      title={`驳回：${target?.name ?? ''}`}
      open={target !== null}
      okText="确认驳回"
      okButtonProps={{ danger: true, loading: busy }}
      cancelText="取消"
      onCancel={() => setTarget(null)}
      onOk={async () => {
        if (!target) return;
        if (reason.trim().length < 2) {
          message.error('请填写驳回原因（至少 2 个字）');
          return;
        }
        setBusy(true);
        try {
          await onReject(target.id, reason.trim());
          setTarget(null);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Input.TextArea
        rows={4}
        maxLength={200}
        showCount
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder="请写明需要企业修改的内容，例如：营业执照照片不清晰，请重新上传"
      />
    </Modal>
  );
  return { dialog, open: (id: number, name: string) => (setReason(''), setTarget({ id, name })) };
}

function RegistrationAudit() {
  const action = useRef<ActionType>(null);
  const [status, setStatus] = useState('pending');
  const [viewing, setViewing] = useState<EnterpriseDetail | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const enterpriseType = useDict('enterprise_type');
  const auditStatus = useDict('enterprise_audit_status');

  const done = (text: string) => {
    message.success(text);
    setViewing(null);
    action.current?.reload();
  };
  const approve = async (r: EnterpriseDetail) => {
    setBusy(r.id);
    try {
      await approveEnterprise(r.id);
      done(`已通过「${r.organName}」的注册，注册账号首次登录须修改密码`);
    } catch (e) {
      message.error(errorMessage(e, '操作失败，请稍后重试'));
    } finally {
      setBusy(null);
    }
  };
  const reject = useRejectDialog(async (id, reason) => {
    try {
      await rejectEnterprise(id, reason);
      done('已驳回，企业可修改资料后重新提交');
    } catch (e) {
      message.error(errorMessage(e, '操作失败，请稍后重试'));
      throw e;
    }
  });

  const decisionButtons = (r: EnterpriseDetail, size: 'small' | 'middle' = 'small') =>
    r.auditStatus === 'pending' ? (
      <Authorized action="edit">
        <Popconfirm title="审核通过" description={`通过后「${ellipsis(r.organName, 16)}」即可登录交易`} okText="通过" cancelText="取消" onConfirm={() => approve(r)}>
          <Button type={size === 'middle' ? 'primary' : 'link'} size={size} loading={busy === r.id}>
            通过
          </Button>
        </Popconfirm>
        <Button type="link" size={size} danger onClick={() => reject.open(r.id, r.organName)}>
          驳回
        </Button>
      </Authorized>
    ) : null;

  const columns: ProColumns<EnterpriseDetail>[] = [
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '企业名称或信用代码', maxLength: 50 } },
    {
      title: '企业名称',
      dataIndex: 'organName',
      search: false,
      width: 220,
      render: (_, r) => (
        <a onClick={() => setViewing(r)} title={r.organName}>
          {ellipsis(r.organName, ELLIPSIS.name)}
        </a>
      ),
    },
    { title: '统一社会信用代码', dataIndex: 'creditCode', search: false, width: 190 },
    { title: '企业类型', dataIndex: 'enterpriseType', search: false, width: 90, render: (_, r) => enterpriseType.text(r.enterpriseType) },
    { title: '所在地区', dataIndex: 'areaName', search: false, width: 160, ellipsis: true, render: (_, r) => r.areaName.replace(/\//g, ' / ') || '-' },
    { title: '联系人', dataIndex: 'contactName', search: false, width: 140, render: (_, r) => `${r.contactName} ${r.contactMobile}` },
    {
      title: '状态',
      dataIndex: 'auditStatus',
      search: false,
      width: 90,
      render: (_, r) => <Badge status={AUDIT_BADGE[r.auditStatus] ?? 'default'} text={auditStatus.text(r.auditStatus)} />,
    },
    { title: '提交时间', dataIndex: 'submittedAt', search: false, width: 170 },
    {
      title: '操作',
      valueType: 'option',
      width: 160,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            详情
          </Button>
          {decisionButtons(r)}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<EnterpriseDetail>
        rowKey="id"
        actionRef={action}
        columns={columns}
        search={{ labelWidth: 'auto' }}
        scroll={{ x: 1150 }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true, showTotal: (total) => `共 ${total} 条` }}
        params={{ status }}
        toolbar={{
          menu: {
            type: 'tab',
            activeKey: status,
            items: STATUS_TABS,
            onChange: (key) => setStatus(String(key)),
          },
        }}
        request={async ({ current = 1, pageSize = 10, keyword }) => {
          const page = await listEnterprisesForAudit({
            pageNo: current,
            pageSize,
            auditStatus: status === 'all' ? undefined : status,
            keyword: keyword || undefined,
          });
          return { data: page.records, total: page.total, success: true };
        }}
        locale={{ emptyText: '暂无数据' }}
      />
      <Drawer
        width={760}
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? <span title={viewing.organName}>{ellipsis(viewing.organName, 24)}</span> : ''}
        extra={viewing ? <Space>{decisionButtons(viewing, 'middle')}</Space> : null}
        destroyOnHidden
      >
        {viewing && (
          <>
            <EnterpriseDescriptions detail={viewing} />
            <Divider orientation="left">资质附件</Divider>
            <EnterpriseAttachments attachments={viewing.attachments} />
            {viewing.pendingChange && (
              <>
                <Divider orientation="left">待审核的资料变更</Divider>
                <Tag color="orange">该企业有一条资料变更申请，请在「资料变更审核」中处理</Tag>
              </>
            )}
          </>
        )}
      </Drawer>
      {reject.dialog}
    </>
  );
}

const CHANGE_STATUS: Record<string, { text: string; status: 'processing' | 'success' | 'error' }> = {
  pending: { text: '待审核', status: 'processing' },
  approved: { text: '已通过', status: 'success' },
  rejected: { text: '已驳回', status: 'error' },
};

function ChangeAudit() {
  const action = useRef<ActionType>(null);
  const [viewing, setViewing] = useState<ChangeRequest | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const reject = useRejectDialog(async (id, reason) => {
    try {
      await rejectChangeRequest(id, reason);
      message.success('已驳回该变更申请');
      setViewing(null);
      action.current?.reload();
    } catch (e) {
      message.error(errorMessage(e, '操作失败，请稍后重试'));
      throw e;
    }
  });
  const approve = async (r: ChangeRequest) => {
    setBusy(r.id);
    try {
      await approveChangeRequest(r.id);
      message.success('变更已生效');
      setViewing(null);
      action.current?.reload();
    } catch (e) {
      message.error(errorMessage(e, '操作失败，请稍后重试'));
    } finally {
      setBusy(null);
    }
  };

  const columns: ProColumns<ChangeRequest>[] = [
    { title: '状态', dataIndex: 'status', hideInTable: true, valueType: 'select', valueEnum: { pending: '待审核', approved: '已通过', rejected: '已驳回' } },
    { title: '当前企业名称', dataIndex: 'enterpriseName', search: false, width: 200, render: (_, r) => <span title={r.enterpriseName}>{ellipsis(r.enterpriseName, ELLIPSIS.name)}</span> },
    { title: '变更后名称', dataIndex: 'organName', search: false, width: 200, render: (_, r) => <span title={r.organName}>{ellipsis(r.organName, ELLIPSIS.name)}</span> },
    { title: '信用代码', dataIndex: 'creditCode', search: false, width: 190 },
    { title: '法定代表人', dataIndex: 'legalPerson', search: false, width: 100 },
    { title: '结算账户', dataIndex: 'bankAccountNo', search: false, width: 220, render: (_, r) => `${r.bankName} ${r.bankAccountNo}` },
    { title: '申请人', dataIndex: 'appliedBy', search: false, width: 150 },
    {
      title: '状态',
      dataIndex: 'status',
      search: false,
      width: 90,
      render: (_, r) => <Badge status={CHANGE_STATUS[r.status]?.status ?? 'default'} text={CHANGE_STATUS[r.status]?.text ?? r.status} />,
    },
    { title: '申请时间', dataIndex: 'createdAt', search: false, width: 170 },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            详情
          </Button>
          {r.status === 'pending' && (
            <Authorized action="edit">
              <Popconfirm title="通过变更" description="通过后新资料立即生效" okText="通过" cancelText="取消" onConfirm={() => approve(r)}>
                <Button type="link" size="small" loading={busy === r.id}>
                  通过
                </Button>
              </Popconfirm>
              <Button type="link" size="small" danger onClick={() => reject.open(r.id, r.enterpriseName)}>
                驳回
              </Button>
            </Authorized>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<ChangeRequest>
        rowKey="id"
        actionRef={action}
        columns={columns}
        search={{ labelWidth: 'auto' }}
        scroll={{ x: 1300 }}
        form={{ initialValues: { status: 'pending' } }}
        pagination={{ defaultPageSize: 10, showTotal: (total) => `共 ${total} 条` }}
        request={async ({ current = 1, pageSize = 10, status }) => {
          const page = await listChangeRequests({ pageNo: current, pageSize, status: status || undefined });
          return { data: page.records, total: page.total, success: true };
        }}
        locale={{ emptyText: '暂无数据' }}
      />
      <Drawer width={640} open={viewing !== null} onClose={() => setViewing(null)} title="资料变更申请" destroyOnHidden>
        {viewing && (
          <>
            <Descriptions column={1} bordered size="small">
              <Descriptions.Item label="当前企业名称">{viewing.enterpriseName}</Descriptions.Item>
              <Descriptions.Item label="变更后名称">{viewing.organName}</Descriptions.Item>
              <Descriptions.Item label="统一社会信用代码">{viewing.creditCode}</Descriptions.Item>
              <Descriptions.Item label="法定代表人">{viewing.legalPerson}</Descriptions.Item>
              <Descriptions.Item label="开户银行">{`${viewing.bankName} ${viewing.bankBranch}`}</Descriptions.Item>
              <Descriptions.Item label="银行账号">{viewing.bankAccountNo}</Descriptions.Item>
              <Descriptions.Item label="申请人">{viewing.appliedBy}</Descriptions.Item>
              <Descriptions.Item label="申请时间">{viewing.createdAt}</Descriptions.Item>
              {viewing.reason && <Descriptions.Item label="驳回原因">{viewing.reason}</Descriptions.Item>}
            </Descriptions>
            {viewing.licenceUrl && (
              <>
                <Divider orientation="left">新营业执照</Divider>
                {/* shown through a signed link, as the registration's attachments (never the token in an address) */}
                <EnterpriseAttachments
                  attachments={[{ id: 0, kindText: '新营业执照', url: viewing.licenceUrl, name: viewing.licenceUrl.split('/').pop() ?? '', contentType: /\.pdf$/i.test(viewing.licenceUrl) ? 'application/pdf' : 'image/*' }]}
                />
              </>
            )}
          </>
        )}
      </Drawer>
      {reject.dialog}
    </>
  );
}

/** 企业审核 (operator): registrations pending, approved and rejected, and changes of the legal data. */
export default function EnterpriseAuditPage() {
  // the tab lives in the address: the 待办 待审核企业变更 links to ?tab=change
  const [search, setSearch] = useSearchParams();
  const activeKey = search.get('tab') === 'change' ? 'change' : 'registration';
  return (
    <div className="coalx-enterprise-audit">
      <Tabs
        type="card"
        activeKey={activeKey}
        onChange={(key) => setSearch(key === 'change' ? { tab: 'change' } : {}, { replace: true })}
        items={[
          { key: 'registration', label: '企业注册审核', children: <RegistrationAudit /> },
          { key: 'change', label: '资料变更审核', children: <ChangeAudit /> },
        ]}
      />
    </div>
  );
}
