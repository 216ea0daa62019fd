import { useRef, useState } from 'react';
import {
  ProFormCheckbox,
  ProFormItem,
  ProFormSelect,
  ProFormText,
  StepsForm,
  type ProFormInstance,
} from '@ant-design/pro-components';
import { Alert, Button, Card, message } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  BankFields,
  CreditCodeSchema,
  EmailSchema,
  EnterpriseUpdateSchema,
  LegalPersonSchema,
  MobileSchema,
  NewPasswordSchema,
  OrganNameSchema,
  PASSWORD_MISMATCH_TEXT,
  PersonNameSchema,
  SmsCodeSchema,
  UsernameSchema,
  type EnterpriseDetail,
  type EnterpriseRegisterInput,
} from '@coalx/shared';
import { useDict } from '@/app/dict';
import { errorMessage } from '@/app/request';
import AreaCascader from '@/components/AreaCascader';
import Upload from '@/components/Upload';
import { zodRule } from '@/lib/zod-rule';
import {
  checkEnterpriseExist,
  getRejectedRegistration,
  registerEnterprise,
  resubmitRegistration,
} from '@/services/enterprise';
import SmsCodeInput from './SmsCodeInput';
import './register.css';

type Values = EnterpriseRegisterInput & { agree?: boolean };

/** Stops a name, code or username already taken before the form is sent (the server checks again). */
async function assertFree(field: 'organName' | 'creditCode' | 'username', value: string | undefined) {
  if (!value) return;
  const result = await checkEnterpriseExist({ [field]: value.trim() });
  if (result.exists) throw new Error(result.message);
}

const existRule = (field: 'organName' | 'creditCode' | 'username') => ({
  validator: async (_: unknown, value: string | undefined) => {
    try {
      await assertFree(field, value);
    } catch (e) {
      throw new Error(errorMessage(e, '校验失败，请稍后重试'));
    }
  },
  validateTrigger: 'onBlur',
});

const ENTERPRISE_FIELDS = [
  'organName', 'creditCode', 'legalPerson', 'enterpriseType', 'areaCode', 'addressDetail', 'contactName', 'contactMobile',
  'contactEmail', 'bankName', 'bankBranch', 'bankAccountNo',
] as const;

/**
 * Enterprise registration (spec §2 /user/register, issue 3): account with SMS code, enterprise, contact and
 * settlement account, attachments; sent once as pending audit. `?mode=resubmit`: a rejected registrant signs
 * in with the account chosen at registration, corrects the data and sends it again.
 */
export default function RegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const resubmit = params.get('mode') === 'resubmit';
  const formMapRef = useRef<React.MutableRefObject<ProFormInstance<Values> | undefined>[]>([]);
  const submitting = useRef(false);
  const [sending, setSending] = useState(false);
  const [rejected, setRejected] = useState<EnterpriseDetail | null>(null);
  const [credentials, setCredentials] = useState<{ username: string; password: string } | null>(null);
  const enterpriseType = useDict('enterprise_type');

  const accountForm = () => formMapRef.current[0]?.current;

  const submit = async (values: Values) => {
    if (submitting.current) return false; // a double click sends once
    submitting.current = true;
    setSending(true);
    try {
      const { agree: _agree, ...data } = values;
      const result =
        resubmit && credentials
          ? await resubmitRegistration({
              ...credentials,
              ...Object.fromEntries(ENTERPRISE_FIELDS.map((k) => [k, data[k]])),
              licenceUrl: data.licenceUrl,
              authorizationUrl: data.authorizationUrl,
            } as never)
          : await registerEnterprise(data);
      navigate(`/user/register-result?organName=${encodeURIComponent(result.organName)}&clientId=${encodeURIComponent(result.clientId)}${resubmit ? '&mode=resubmit' : ''}`, {
        replace: true,
      });
      return true;
    } catch (e) {
      message.error(errorMessage(e, '提交失败，请稍后重试'));
      return false;
    } finally {
      submitting.current = false;
      setSending(false);
    }
  };

  const accountStep = resubmit ? (
    <StepsForm.StepForm<{ username: string; password: string }>
      name="verify"
      title="验证账号"
      onFinish={async (values) => {
        try {
          const detail = await getRejectedRegistration(values);
          setCredentials(values);
          setRejected(detail);
          const fill = {
            ...Object.fromEntries(ENTERPRISE_FIELDS.map((k) => [k, detail[k]])),
            licenceUrl: detail.attachments.find((a) => a.kind === 'licence')?.url,
            authorizationUrl: detail.attachments.find((a) => a.kind === 'authorization')?.url,
          };
          // the later steps mount after this one: fill them once they exist
          setTimeout(() => formMapRef.current.slice(1).forEach((f) => f.current?.setFieldsValue(fill as never)), 0);
          return true;
        } catch (e) {
          message.error(errorMessage(e, '验证失败，请稍后重试'));
          return false;
        }
      }}
    >
      <Alert type="info" showIcon style={{ marginBottom: 24 }} message="请使用注册时设置的用户名和密码验证身份，然后修改被驳回的资料并重新提交审核。" />
      <ProFormText name="username" label="用户名" placeholder="注册时设置的用户名" rules={[{ required: true, message: '请输入用户名' }]} fieldProps={{ maxLength: 64 }} />
      <ProFormText.Password name="password" label="密码" placeholder="注册时设置的密码" rules={[{ required: true, message: '请输入密码' }]} fieldProps={{ maxLength: 128 }} />
    </StepsForm.StepForm>
  ) : (
    <StepsForm.StepForm<Values> name="account" title="账号信息">
      <ProFormText
        name="username"
        label="用户名"
        placeholder="字母开头，4-32 位字母、数字或下划线"
        rules={[zodRule(UsernameSchema), existRule('username')]}
        fieldProps={{ maxLength: 32, autoComplete: 'username' }}
      />
      <ProFormText name="realname" label="姓名" placeholder="账号使用人姓名" rules={[zodRule(PersonNameSchema('姓名'))]} fieldProps={{ maxLength: 30 }} />
      <ProFormText name="mobile" label="手机号码" placeholder="用于接收短信验证码" rules={[zodRule(MobileSchema)]} fieldProps={{ maxLength: 11, inputMode: 'tel' }} />
      <ProFormItem name="smsCode" label="短信验证码" rules={[zodRule(SmsCodeSchema)]}>
        <SmsCodeInput getMobile={() => accountForm()?.getFieldValue('mobile')} />
      </ProFormItem>
      <ProFormText.Password
        name="password"
        label="登录密码"
        placeholder="至少 8 位，须同时包含字母和数字"
        rules={[zodRule(NewPasswordSchema)]}
        fieldProps={{ maxLength: 64, autoComplete: 'new-password' }}
      />
      <ProFormText.Password
        name="confirmPassword"
        label="确认密码"
        placeholder="请再次输入密码"
        dependencies={['password']}
        rules={[
          { required: true, message: '请再次输入密码' },
          ({ getFieldValue }) => ({
            validator: async (_, value) => {
              if (value && value !== getFieldValue('password')) throw new Error(PASSWORD_MISMATCH_TEXT);
            },
          }),
        ]}
        fieldProps={{ maxLength: 64, autoComplete: 'new-password' }}
      />
    </StepsForm.StepForm>
  );

  return (
    <div className="coalx-register">
      <Card className="coalx-register-card" variant="borderless" title={resubmit ? '修改注册资料并重新提交' : '企业注册'}>
        {rejected?.auditReason && <Alert type="error" showIcon style={{ marginBottom: 24 }} message={`驳回原因：${rejected.auditReason}`} />}
        <StepsForm<Values>
          formMapRef={formMapRef}
          onFinish={submit}
          stepsProps={{ size: 'small' }}
          formProps={{ layout: 'horizontal', labelCol: { flex: '150px' }, wrapperCol: { flex: 'auto' }, validateTrigger: ['onBlur', 'onChange'] }}
          submitter={{
            render: (props) => {
              const step = (props as { step: number }).step;
              const last = step === 3;
              return (
                <div className="coalx-register-actions">
                  {step > 0 && <Button onClick={() => (props as { onPre: () => void }).onPre()}>上一步</Button>}
                  <Button type="primary" loading={last && sending} onClick={() => props.onSubmit?.()}>
                    {last ? (resubmit ? '重新提交审核' : '提交注册') : '下一步'}
                  </Button>
                </div>
              );
            },
          }}
        >
          {accountStep}
          <StepsForm.StepForm<Values> name="enterprise" title="企业信息">
            <ProFormText
              name="organName"
              label="企业名称"
              placeholder="与营业执照一致的企业全称"
              rules={[zodRule(OrganNameSchema), ...(resubmit ? [] : [existRule('organName')])]}
              fieldProps={{ maxLength: 50, showCount: true }}
            />
            <ProFormText
              name="creditCode"
              label="统一社会信用代码"
              placeholder="18 位，见营业执照"
              rules={[zodRule(CreditCodeSchema), ...(resubmit ? [] : [existRule('creditCode')])]}
              fieldProps={{ maxLength: 18, style: { textTransform: 'uppercase' } }}
              transform={(v: string) => ({ creditCode: v?.trim().toUpperCase() })}
            />
            <ProFormText name="legalPerson" label="法定代表人" rules={[zodRule(LegalPersonSchema)]} fieldProps={{ maxLength: 30 }} />
            <ProFormSelect
              name="enterpriseType"
              label="企业类型"
              options={enterpriseType.items.map((i) => ({ value: i.value, label: i.text }))}
              rules={[{ required: true, message: '请选择企业类型' }]}
              placeholder="煤矿 / 贸易商 / 电厂 / 其他"
            />
            <ProFormItem name="areaCode" label="注册地址" rules={[{ required: true, message: '请选择所在地区（选到区县）' }]}>
              <AreaCascader />
            </ProFormItem>
            <ProFormText name="addressDetail" label="详细地址" placeholder="街道、门牌号" rules={[zodRule(EnterpriseUpdateSchema.shape.addressDetail)]} fieldProps={{ maxLength: 100 }} />
          </StepsForm.StepForm>
          <StepsForm.StepForm<Values> name="contact" title="联系人与结算账户">
            <ProFormText name="contactName" label="联系人" rules={[zodRule(PersonNameSchema('联系人'))]} fieldProps={{ maxLength: 30 }} />
            <ProFormText name="contactMobile" label="联系电话" rules={[zodRule(MobileSchema)]} fieldProps={{ maxLength: 11 }} />
            <ProFormText name="contactEmail" label="电子邮箱" rules={[zodRule(EmailSchema)]} fieldProps={{ maxLength: 100 }} />
            <ProFormText name="bankName" label="开户银行" placeholder="如：中国工商银行" rules={[zodRule(BankFields.bankName)]} fieldProps={{ maxLength: 60 }} />
            <ProFormText name="bankBranch" label="开户支行" placeholder="如：朔州开发区支行" rules={[zodRule(BankFields.bankBranch)]} fieldProps={{ maxLength: 60 }} />
            <ProFormText
              name="bankAccountNo"
              label="银行账号"
              placeholder="企业对公结算账户，出金只付至此账户"
              rules={[zodRule(BankFields.bankAccountNo)]}
              fieldProps={{ maxLength: 30, inputMode: 'numeric' }}
            />
          </StepsForm.StepForm>
          <StepsForm.StepForm<Values> name="attachments" title="资质附件">
            <Alert type="info" showIcon style={{ marginBottom: 24 }} message="请上传清晰的彩色扫描件或照片，仅支持 .jpg .jpeg .png 格式，单个文件不超过 10 MB。" />
            <ProFormItem name="licenceUrl" label="营业执照" rules={[{ required: true, message: '请上传营业执照' }]}>
              <Upload visibility="private" scene="register" />
            </ProFormItem>
            <ProFormItem name="authorizationUrl" label="授权委托书" rules={[{ required: true, message: '请上传授权委托书' }]} extra="加盖公章的法定代表人授权委托书">
              <Upload visibility="private" scene="register" />
            </ProFormItem>
            <ProFormCheckbox
              name="agree"
              label=" "
              colon={false}
              rules={[{ validator: async (_, v) => { if (!v) throw new Error('请阅读并同意交易规则'); } }]}
            >
              我已阅读并同意《煤炭现货交易规则》与《交易商管理办法》
            </ProFormCheckbox>
          </StepsForm.StepForm>
        </StepsForm>
        <div className="coalx-register-links">
          {resubmit ? (
            <Link to="/user/register">新企业注册</Link>
          ) : (
            <Link to="/user/register?mode=resubmit">审核被驳回？修改资料重新提交</Link>
          )}
          <span>
            已有账号？<Link to="/user/login">立即登录</Link>
          </span>
        </div>
      </Card>
    </div>
  );
}
