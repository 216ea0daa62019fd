import { useState } from 'react';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import type { UkeyDevice } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { session } from '@/app/session';
import { hashPayPassword, isPayPasswordDigits, SixDigitInput } from '@/components/PayAuth';
import { createDeviceRequest, discardDeviceRequest } from '@/lib/ukey';
import { applyDevice, renewDevice } from '@/services/ukey';

/**
 * 申请 (a new device) or 更新 (`renew`: a new key for an existing device). The key is made in this browser when the
 * form is sent; the enterprise admin's own request carries the pay password and is issued at once.
 */
export default function ApplyModal({ isAdmin, renew, onClose, onDone }: { isAdmin: boolean; renew?: UkeyDevice; onClose: () => void; onDone: () => void }) {
  const [deviceName, setDeviceName] = useState(renew?.name ?? '');
  const [digits, setDigits] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const send = async () => {
    if (sending) return;
    const name = deviceName.trim();
    if (name.length < 2 || name.length > 30) return setError('设备名称须为 2-30 个字');
    if (isAdmin && !isPayPasswordDigits(digits)) return setError('请输入 6 位数字支付密码');
    setSending(true);
    setError(null);
    try {
      const payPassword = isAdmin ? await hashPayPassword(session.get().companyInfo?.clientId ?? '', digits) : undefined;
      const { csr, keyId } = await createDeviceRequest(name);
      const result = await (renew ? renewDevice({ deviceId: renew.id, csr, payPassword }) : applyDevice({ deviceName: name, csr, payPassword })).catch(async (refused) => {
        await discardDeviceRequest(keyId);
        throw refused;
      });
      setDone(result.status === 'active' ? '数字证书已签发并安装在本机，现在即可用于签名确认。' : '申请已提交，企业管理员批准后证书即在本机生效。');
      onDone();
    } catch (failure) {
      setError(errorMessage(failure, '申请失败，请稍后重试'));
      setDigits('');
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <Modal open title={renew ? '更新数字证书' : '申请数字证书'} okText="完成" cancelButtonProps={{ style: { display: 'none' } }} onOk={onClose} onCancel={onClose}>
        <Alert type="success" showIcon message={done} />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={renew ? `更新数字证书：${renew.name}` : '申请数字证书'}
      okText={isAdmin ? '生成密钥并签发' : '生成密钥并提交申请'}
      cancelText="取消"
      width={520}
      maskClosable={false}
      closable={!sending}
      okButtonProps={{ loading: sending }}
      cancelButtonProps={{ disabled: sending }}
      onOk={() => void send()}
      onCancel={() => !sending && onClose()}
    >
      <Form layout="vertical" onFinish={() => void send()}>
        <Typography.Paragraph type="secondary">
          {renew
            ? '将在本浏览器生成新的密钥；新证书签发后，旧证书自动作废。'
            : '将在本浏览器生成签名密钥（私钥无法导出），并向平台 CA 申请一年期证书。请在您日常办理业务的电脑上申请。'}
        </Typography.Paragraph>
        <Form.Item label="设备名称" required>
          <Input
            value={deviceName}
            maxLength={30}
            disabled={Boolean(renew) || sending}
            placeholder="如：财务室电脑、张经理笔记本"
            onChange={(e) => setDeviceName(e.target.value)}
          />
        </Form.Item>
        {isAdmin ? (
          <Form.Item label="支付密码（企业管理员本人申请，验证后即时签发）" required>
            <SixDigitInput value={digits} onChange={setDigits} disabled={sending} onEnter={() => void send()} aria-label="支付密码" />
          </Form.Item>
        ) : (
          <Alert type="info" showIcon message="提交后由企业管理员审批，批准后证书即在本机生效" />
        )}
        {error ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} role="alert" /> : null}
      </Form>
    </Modal>
  );
}
