import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Modal, Select, Steps, Typography } from 'antd';
import { Link } from 'react-router';
import { CONTRACT_SIDES, formatTons } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { yuan } from '@/components/Money';
import { usePaymentAuth, type PaymentAuth } from '@/components/PayAuth';
import { signWithDevice, UKEY_NO_LOCAL_KEY, usableLocalDevices } from '@/lib/ukey';
import { counterpartyOf } from '@/lib/contract';
import { completeContractSign, CONTRACT_KEYS, prepareContractSign, type ContractDetail, type ContractSummary } from '@/services/contract';
import './contract.css';

const STEPS = ['生成待签文件', '数字证书签名', '提交签章'];

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const toBase64 = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)));

export interface SignContractModalProps {
  /** The contract to sign; null keeps the dialog closed. */
  contract: ContractSummary | null;
  onClose: () => void;
  onSigned?: (detail: ContractDetail) => void;
}

/**
 * 签署合同 with this browser's key device: the dialog names the contract, the counterparty and the amount, the
 * trader picks a device and confirms; the pay password (支付密码) is asked first when that switch is on, and goes
 * with the first step; then the server prepares the PDF (seal, signature field, digest), the key signs the signed
 * attributes, and the server adds the signature. The certificate's signature is the key proof itself, so the key
 * switch asks nothing more here.
 */
export default function SignContractModal({ contract, onClose, onSigned }: SignContractModalProps) {
  const queryClient = useQueryClient();
  const { run, holder } = usePaymentAuth();
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [step, setStep] = useState(-1);
  const [error, setError] = useState<string | null>(null);
  const open = contract !== null;
  const devices = useQuery({ queryKey: ['ukey', 'usable-local'], queryFn: usableLocalDevices, enabled: open, staleTime: 0 });
  const usable = devices.data ?? [];
  const chosen = usable.find((d) => d.id === deviceId) ?? usable[0];
  const busy = step >= 0;

  const close = () => {
    if (busy) return;
    setStep(-1);
    setError(null);
    onClose();
  };

  const sign = async () => {
    if (!contract || !chosen || busy) return;
    setError(null);
    try {
      setStep(0);
      // the pay password, when asked, goes with the first step (and again with the last, which checks it too)
      let auth: PaymentAuth = {};
      const prepared = await run(
        (given) => {
          auth = given;
          return prepareContractSign(contract.id, chosen.id, given);
        },
        {
          passwordOnly: true,
          title: '签署合同：请输入支付密码',
          description: (
            <span>
              合同 <b>{contract.contractNo}</b>，金额 <b>{yuan(contract.amount)}</b>
            </span>
          ),
        },
      );
      if (!prepared) {
        setStep(-1);
        setError('已取消签署，合同未签署');
        return;
      }
      setStep(1);
      const signature = toBase64(await signWithDevice(chosen.id, fromBase64(prepared.signedAttributes)));
      setStep(2);
      const detail = await completeContractSign(contract.id, { sessionId: prepared.sessionId, signature, ...auth });
      setStep(-1);
      void queryClient.invalidateQueries({ queryKey: CONTRACT_KEYS.all });
      Modal.success({
        title: '签署成功',
        content: detail.status === 'effective' ? `合同 ${detail.contractNo} 双方均已签署，合同已生效。` : `合同 ${detail.contractNo} 我方已签署，等待对方签署。`,
        okText: '知道了',
      });
      onSigned?.(detail);
      onClose();
    } catch (failure) {
      setStep(-1);
      setError(failure instanceof Error && failure.message === UKEY_NO_LOCAL_KEY ? UKEY_NO_LOCAL_KEY : errorMessage(failure, '签署失败，请重试'));
    }
  };

  const counterparty = contract ? counterpartyOf(contract) : null;

  return (
    <>
      <Modal
        open={open}
        title="签署合同"
        width={560}
        okText="确认签署"
        cancelText="取消"
        maskClosable={false}
        closable={!busy}
        destroyOnHidden
        okButtonProps={{ loading: busy, disabled: !chosen }}
        cancelButtonProps={{ disabled: busy }}
        onOk={() => void sign()}
        onCancel={close}
        className="coalx-contract-sign-modal"
      >
        {contract ? (
          <div data-testid="contract-sign-confirm">
            <dl className="coalx-contract-sign-rows">
              <div>
                <dt>合同编号</dt>
                <dd>{contract.contractNo}</dd>
              </div>
              <div>
                <dt>我方</dt>
                <dd>{contract.mySide ? `${CONTRACT_SIDES[contract.mySide]}（${contract.mySide === 'seller' ? contract.sellerName : contract.buyerName}）` : '-'}</dd>
              </div>
              <div>
                <dt>对方企业</dt>
                <dd>{counterparty ?? '-'}</dd>
              </div>
              <div>
                <dt>产品 / 数量</dt>
                <dd>
                  {contract.productName} / {formatTons(contract.quantity)}
                </dd>
              </div>
              <div className="strong">
                <dt>合同金额</dt>
                <dd data-testid="contract-sign-amount">{yuan(contract.amount)}</dd>
              </div>
            </dl>
            {!devices.isLoading && usable.length === 0 ? (
              <Alert
                type="warning"
                showIcon
                message={UKEY_NO_LOCAL_KEY}
                description={
                  <span>
                    前往 <Link to="/ukey/index">数字证书</Link> 申请，本浏览器当场生成密钥；也可以改为上传签字盖章的纸质合同。
                  </span>
                }
              />
            ) : (
              <Form layout="vertical">
                <Form.Item label="数字证书" required style={{ marginBottom: 8 }}>
                  <Select
                    className="coalx-contract-sign-device"
                    loading={devices.isLoading}
                    value={chosen?.id}
                    placeholder="本机没有可用的数字证书"
                    disabled={busy}
                    options={usable.map((d) => ({ value: d.id, label: `${d.name}（${d.userName}）` }))}
                    onChange={setDeviceId}
                  />
                </Form.Item>
              </Form>
            )}
            <Typography.Text type="secondary">
              确认后以本企业的数字证书在合同 PDF 上加盖电子印章，与实物公章具有同等法律效力；双方签署后合同生效。
            </Typography.Text>
            {busy ? <Steps className="coalx-contract-sign-steps" size="small" current={step} items={STEPS.map((title) => ({ title }))} /> : null}
            {error ? <Alert style={{ marginTop: 12 }} type="error" showIcon message={error} role="alert" /> : null}
          </div>
        ) : null}
      </Modal>
      {holder}
    </>
  );
}
