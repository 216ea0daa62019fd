import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Radio, Space, Spin, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { isUkeyAction, UKEY_ACTIONS } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import type { Pending } from './pending';
import { signWithUkey, UKEY_NO_LOCAL_KEY, usableUkeyDevices } from './ukey';

/**
 * UkeySwitch on: shows what is about to happen (the amount), then signs a single-use challenge for it with a key
 * device of this browser and submits. Without a usable key it says so and points to the certificate page.
 */
export default function UkeySignModal({ pending, onFinish }: { pending: Pending; onFinish: (value: unknown) => void }) {
  const devices = useQuery({ queryKey: ['ukey', 'usable-local'], queryFn: usableUkeyDevices, staleTime: 0, gcTime: 0, retry: false });
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const action = pending.options.action ?? '';
  const label = isUkeyAction(action) ? UKEY_ACTIONS[action].label : '操作';
  const list = devices.data ?? [];
  const device = list.find((d) => d.id === chosen) ?? list[0];
  const noKey = devices.isSuccess && list.length === 0;

  const confirm = async () => {
    if (!device || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      const ukeySignature = await signWithUkey(action, pending.options.payload ?? {}, device);
      onFinish(await pending.submit({ ukeySignature }));
    } catch (failure) {
      setError(errorMessage(failure, '数字证书签名失败'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      open
      title={
        <Space>
          <SafetyCertificateOutlined />
          {`${label} · 数字证书签名确认`}
        </Space>
      }
      okText="签名并确认"
      cancelText="取消"
      width={480}
      maskClosable={false}
      closable={!submitting}
      destroyOnHidden
      okButtonProps={{ loading: submitting, disabled: !device }}
      cancelButtonProps={{ disabled: submitting }}
      onOk={() => void confirm()}
      onCancel={() => !submitting && onFinish(undefined)}
    >
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16, padding: '8px 0' }}>
        {pending.options.description ? <div>{pending.options.description}</div> : null}
        {devices.isLoading ? <Spin tip="正在查找本机数字证书…"><div style={{ height: 40 }} /></Spin> : null}
        {devices.isError ? <Alert type="error" showIcon message={errorMessage(devices.error, '查询数字证书失败')} /> : null}
        {noKey ? (
          <Alert
            type="warning"
            showIcon
            message={UKEY_NO_LOCAL_KEY}
            action={
              <Button size="small" type="link" href="/ukey/index" target="_blank">
                申请数字证书
              </Button>
            }
          />
        ) : null}
        {list.length > 0 ? (
          <div>
            <Typography.Text type="secondary">签名证书</Typography.Text>
            <Radio.Group value={device?.id} onChange={(e) => setChosen(e.target.value as number)} style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 4 }}>
              {list.map((d) => (
                <Radio key={d.id} value={d.id}>
                  {d.name}（序列号 {d.certificate?.serialNumber.slice(0, 12)}…，有效期至 {d.certificate?.notAfter.slice(0, 10)}）
                </Radio>
              ))}
            </Radio.Group>
          </div>
        ) : null}
        <Typography.Text type="secondary">签名由本机数字证书完成，私钥不离开本机；每次签名只能使用一次，5 分钟内有效。</Typography.Text>
        {error ? <Alert type="error" showIcon message={error} role="alert" /> : null}
      </div>
    </Modal>
  );
}
