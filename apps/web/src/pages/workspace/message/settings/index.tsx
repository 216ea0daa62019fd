import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Result, Switch, Table, Tag, Typography, message as toast } from 'antd';
import { MessageSettingsInputSchema, type MessagePreference } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { zodRule } from '@/lib/zod-rule';
import { getMessageSettings, saveMessageSettings } from '@/services/message';
import { preferenceRows, settingsInput, settingsProblem, toggle } from './preferences';
import './message-settings.css';

const SETTINGS_KEY = ['message', 'settings'] as const;
const emailRule = zodRule(MessageSettingsInputSchema.shape.email, { required: false });

/**
 * 通知设置 (workspace /message/settings, issue 28): where e-mail goes, and per category whether SMS and e-mail
 * carry the messages (站内消息 always). SMS goes to the account's mobile and carries only the urgent ones.
 */
export default function MessageSettingsPage() {
  const client = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: getMessageSettings, staleTime: 0 });
  const [form] = Form.useForm<{ email: string }>();
  const [rows, setRows] = useState<MessagePreference[]>([]);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!settings.data) return;
    form.setFieldsValue({ email: settings.data.email });
    setRows(preferenceRows(settings.data.preferences));
  }, [settings.data, form]);

  if (settings.isError) return <Result status="warning" title="通知设置加载失败" subTitle={errorMessage(settings.error, '请稍后重试')} />;
  if (!settings.data) return <Card loading className="coalx-msg-settings" />;

  const named = preferenceRows(rows);

  const save = async () => {
    const { email } = await form.validateFields();
    const why = settingsProblem(email ?? '', rows);
    setProblem(why);
    if (why) return;
    setSaving(true);
    try {
      const saved = await saveMessageSettings(settingsInput(email ?? '', rows));
      client.setQueryData(SETTINGS_KEY, saved);
      toast.success('保存成功');
    } catch (error) {
      toast.error(errorMessage(error, '保存失败，请稍后重试'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="通知设置" className="coalx-msg-settings" data-testid="message-settings">
      <Form form={form} layout="vertical" requiredMark={false} className="coalx-msg-settings-form" onValuesChange={() => setProblem(null)}>
        <div className="coalx-msg-settings-contacts">
          <Form.Item label="接收邮箱" name="email" rules={[emailRule]} extra="开启邮件通知的类别，消息会同时发送到此邮箱">
            <Input placeholder="如：zhangsan@example.com" maxLength={254} autoComplete="email" />
          </Form.Item>
          <Form.Item label="短信接收手机号" extra="短信发送到账号绑定的手机号，如需更换请联系企业管理员">
            <Input value={settings.data.mobile || '未绑定手机号'} readOnly disabled />
          </Form.Item>
        </div>
      </Form>
      <Alert
        type="info"
        showIcon
        className="coalx-msg-settings-note"
        message="站内消息始终开启；短信只发送紧急消息（待签合同及截止、付款到期、竞价开始、竞价结果、争议）；邮件发送所开启类别的全部消息。"
      />
      <Table<MessagePreference & { name: string }>
        rowKey="category"
        size="middle"
        pagination={false}
        dataSource={named}
        className="coalx-msg-settings-table"
        columns={[
          { title: '消息类别', dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
          {
            title: '站内消息',
            key: 'inApp',
            align: 'center',
            render: () => (
              <Tag color="blue" bordered={false} style={{ marginInlineEnd: 0 }}>
                始终开启
              </Tag>
            ),
          },
          {
            title: '短信',
            dataIndex: 'sms',
            align: 'center',
            render: (on: boolean, r) => (
              <Switch size="small" checked={on} aria-label={`${r.name}短信`} onChange={(v) => setRows((rs) => toggle(rs, r.category, 'sms', v))} />
            ),
          },
          {
            title: '邮件',
            dataIndex: 'email',
            align: 'center',
            render: (on: boolean, r) => (
              <Switch
                size="small"
                checked={on}
                aria-label={`${r.name}邮件`}
                onChange={(v) => {
                  setProblem(null);
                  setRows((rs) => toggle(rs, r.category, 'email', v));
                }}
              />
            ),
          },
        ]}
      />
      {problem && <Alert type="error" showIcon message={problem} className="coalx-msg-settings-problem" />}
      <div className="coalx-msg-settings-actions">
        <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
          保存
        </Button>
      </div>
    </Card>
  );
}
