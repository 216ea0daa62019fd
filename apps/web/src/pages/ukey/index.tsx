import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/app/request';
import { isSignedIn, useSession } from '@/app/session';
import { keyDevicesSupported, localDeviceIds, syncDeviceKeys } from '@/lib/ukey';
import { queryDevices, UKEY_DEVICES_QUERY_KEY } from '@/services/ukey';
import ApplyModal from './components/ApplyModal';
import DeviceTable from './components/DeviceTable';
import Intro from './components/Intro';
import '../../styles/certificates.css';

/**
 * 证书信息 (/ukey/index and the workspace 数字证书 → 证书信息): apply for a key device made in this browser, the
 * enterprise admin's approvals, the enterprise's devices and certificates, renew and revoke.
 */
export default function UkeyPage() {
  const session = useSession();
  const navigate = useNavigate();
  const signedIn = isSignedIn(session);
  const queryClient = useQueryClient();
  const [applying, setApplying] = useState(false);
  const devices = useQuery({
    queryKey: UKEY_DEVICES_QUERY_KEY,
    enabled: signedIn,
    queryFn: async () => {
      const result = await queryDevices();
      await syncDeviceKeys(result.records);
      return { ...result, local: new Set(await localDeviceIds()) };
    },
  });
  const [supported] = useState(keyDevicesSupported);
  useEffect(() => {
    document.title = '数字证书 - CoalX';
  }, []);

  const refresh = () => queryClient.invalidateQueries({ queryKey: UKEY_DEVICES_QUERY_KEY });
  const records = devices.data?.records ?? [];
  const myUsable = records.some((d) => d.mine && devices.data?.local.has(d.id) && d.certificate?.status === 'valid');
  const waiting = records.filter((d) => d.status === 'pending' || d.status === 'renewing').length;

  return (
    <div className="coalx-ukey-page">
      <Card
        title={
          <Space>
            <SafetyCertificateOutlined />
            证书信息
          </Space>
        }
        extra={
          signedIn ? (
            <Button type="primary" icon={<PlusOutlined />} disabled={!supported} onClick={() => setApplying(true)}>
              申请数字证书
            </Button>
          ) : null
        }
      >
        <Intro isAdmin={devices.data?.canApprove ?? false} hasLocalKey={myUsable} />
        {!supported ? <Alert type="error" showIcon message="当前浏览器不支持数字证书，请使用新版 Chrome、Edge 或 360 极速浏览器" /> : null}
        {!signedIn ? (
          <Alert
            type="info"
            showIcon
            message="登录后即可申请和管理本企业的数字证书"
            action={
              <Button type="primary" size="small" onClick={() => navigate(`/user/login?redirect=${encodeURIComponent('/ukey/index')}`)}>
                去登录
              </Button>
            }
          />
        ) : null}
        {devices.isError ? <Alert type="error" showIcon message={errorMessage(devices.error, '数字证书加载失败，请稍后重试')} /> : null}
        {signedIn && waiting > 0 && devices.data?.canApprove ? (
          <Alert className="coalx-ukey-waiting" type="warning" showIcon message={`有 ${waiting} 个数字证书申请等待您审批`} />
        ) : null}
      </Card>
      {signedIn ? (
        <DeviceTable
          loading={devices.isLoading}
          records={records}
          local={devices.data?.local ?? new Set()}
          canApprove={devices.data?.canApprove ?? false}
          onChanged={refresh}
        />
      ) : null}
      {applying ? (
        <ApplyModal
          isAdmin={devices.data?.canApprove ?? false}
          onClose={() => setApplying(false)}
          onDone={() => void refresh()}
        />
      ) : null}
    </div>
  );
}
