import { useState } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Input, message, Modal, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { UKEY_CERT_STATES, UKEY_DEVICE_STATES, UKEY_REVOKE_REASONS, type UkeyDevice, type UkeyRevokeReason } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { approveDevice, rejectDevice, revokeDevice } from '@/services/ukey';
import ApplyModal from './ApplyModal';
import CertificateDrawer from './CertificateDrawer';

const STATE_COLORS: Record<UkeyDevice['status'], string> = { pending: 'gold', active: 'green', renewing: 'blue', rejected: 'default', revoked: 'red' };
const CERT_COLORS = { valid: 'green', expired: 'orange', revoked: 'red' } as const;

interface Props {
  loading: boolean;
  records: UkeyDevice[];
  local: Set<number>;
  canApprove: boolean;
  onChanged: () => void;
}

/** The enterprise's key devices with their current certificates, and what the caller may do with each. */
export default function DeviceTable({ loading, records, local, canApprove, onChanged }: Props) {
  const [renewing, setRenewing] = useState<UkeyDevice | null>(null);
  const [detail, setDetail] = useState<UkeyDevice | null>(null);
  const [rejecting, setRejecting] = useState<UkeyDevice | null>(null);
  const [revoking, setRevoking] = useState<UkeyDevice | null>(null);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      onChanged();
      return true;
    } catch (failure) {
      message.error(errorMessage(failure));
      return false;
    }
  };

  const columns: ProColumns<UkeyDevice>[] = [
    {
      title: '设备名称',
      dataIndex: 'name',
      width: 170,
      render: (_, d) => (
        <Space size={4} wrap>
          <Typography.Text strong>{d.name}</Typography.Text>
          {local.has(d.id) ? <Tag color="cyan">本机</Tag> : null}
        </Space>
      ),
    },
    { title: '使用人', dataIndex: 'userName', width: 140 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 110,
      render: (_, d) => <Tag color={STATE_COLORS[d.status]}>{UKEY_DEVICE_STATES[d.status]}</Tag>,
    },
    {
      title: '证书',
      key: 'certificate',
      width: 320,
      render: (_, d) =>
        d.certificate ? (
          <Space direction="vertical" size={0}>
            <Space size={4}>
              <Tag color={CERT_COLORS[d.certificate.status]}>{UKEY_CERT_STATES[d.certificate.status]}</Tag>
              <Tooltip title={`序列号 ${d.certificate.serialNumber}`}>
                <Typography.Text className="coalx-ukey-mono">{d.certificate.serialNumber.slice(0, 16)}…</Typography.Text>
              </Tooltip>
            </Space>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {d.certificate.notBefore} 至 {d.certificate.notAfter}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">{d.status === 'rejected' ? `已驳回：${d.rejectReason ?? ''}` : '待签发'}</Typography.Text>
        ),
    },
    { title: '申请时间', dataIndex: 'requestedAt', width: 110 },
    { title: '最近使用', dataIndex: 'lastUsedAt', width: 110, render: (_, d) => d.lastUsedAt ?? '-' },
    {
      title: '操作',
      key: 'actions',
      width: 190,
      render: (_, d) => {
        const waiting = d.status === 'pending' || d.status === 'renewing';
        const live = waiting || d.status === 'active';
        return (
          <Space size={0} wrap>
            {d.certificate ? (
              <Button type="link" size="small" onClick={() => setDetail(d)}>
                证书详情
              </Button>
            ) : null}
            {canApprove && waiting ? (
              <>
                <Popconfirm title={`批准「${d.name}」的证书申请？`} description="平台 CA 将为该设备签发一年期证书" okText="批准" cancelText="取消" onConfirm={() => act(() => approveDevice(d.id), '证书已签发')}>
                  <Button type="link" size="small">
                    批准
                  </Button>
                </Popconfirm>
                <Button type="link" size="small" onClick={() => setRejecting(d)}>
                  驳回
                </Button>
              </>
            ) : null}
            {d.mine && d.status === 'active' ? (
              <Button type="link" size="small" onClick={() => setRenewing(d)}>
                更新
              </Button>
            ) : null}
            {live && (d.mine || canApprove) ? (
              <Button type="link" size="small" danger onClick={() => setRevoking(d)}>
                {d.status === 'pending' ? '撤回' : '注销'}
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <ProTable<UkeyDevice>
        headerTitle="本企业数字证书"
        rowKey="id"
        loading={loading}
        dataSource={records}
        columns={columns}
        search={false}
        options={false}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: '本企业尚无数字证书，点击上方「申请数字证书」' }}
      />
      {renewing ? <ApplyModal isAdmin={canApprove} renew={renewing} onClose={() => setRenewing(null)} onDone={onChanged} /> : null}
      {detail ? <CertificateDrawer device={detail} onClose={() => setDetail(null)} /> : null}
      {rejecting ? <RejectModal device={rejecting} onClose={() => setRejecting(null)} onSubmit={(reason) => act(() => rejectDevice(rejecting.id, reason), '申请已驳回')} /> : null}
      {revoking ? <RevokeModal device={revoking} onClose={() => setRevoking(null)} onSubmit={(reason) => act(() => revokeDevice(revoking.id, reason), '数字证书已注销')} /> : null}
    </>
  );
}

function RejectModal({ device, onClose, onSubmit }: { device: UkeyDevice; onClose: () => void; onSubmit: (reason: string) => Promise<boolean> }) {
  const [reason, setReason] = useState('');
  return (
    <Modal
      open
      title={`驳回「${device.name}」的证书申请`}
      okText="驳回"
      cancelText="取消"
      okButtonProps={{ danger: true, disabled: reason.trim().length < 2 }}
      onCancel={onClose}
      onOk={async () => (await onSubmit(reason.trim())) && onClose()}
    >
      <Input.TextArea rows={3} maxLength={100} showCount placeholder="请填写驳回原因" value={reason} onChange={(e) => setReason(e.target.value)} />
    </Modal>
  );
}

function RevokeModal({ device, onClose, onSubmit }: { device: UkeyDevice; onClose: () => void; onSubmit: (reason: UkeyRevokeReason) => Promise<boolean> }) {
  const [reason, setReason] = useState<UkeyRevokeReason>('cessationOfOperation');
  const options = (Object.keys(UKEY_REVOKE_REASONS) as UkeyRevokeReason[]).filter((r) => r !== 'superseded');
  return (
    <Modal
      open
      title={device.status === 'pending' ? `撤回「${device.name}」的申请` : `注销「${device.name}」的数字证书`}
      okText="确认注销"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onCancel={onClose}
      onOk={async () => (await onSubmit(reason)) && onClose()}
    >
      <Typography.Paragraph>注销后该证书立即列入证书吊销列表 (CRL)，不能再用于签名，此操作不可撤销。</Typography.Paragraph>
      <Select style={{ width: '100%' }} value={reason} onChange={setReason} options={options.map((r) => ({ value: r, label: UKEY_REVOKE_REASONS[r] }))} />
    </Modal>
  );
}
