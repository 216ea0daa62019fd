import { useState } from 'react';
import { KeyOutlined, LockOutlined } from '@ant-design/icons';
import { ProCard } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, List, message, Popconfirm, Skeleton, Switch, Tag } from 'antd';
import { SWITCH_CODES, type SwitchCode } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { SWITCHES_QUERY_KEY, useSwitches } from '@/components/PayAuth';
import { updateSwitch } from '@/services/funds';

const DESCRIPTIONS: Record<SwitchCode, { icon: React.ReactNode; on: string; off: string; text: string }> = {
  PayPassword: {
    icon: <LockOutlined />,
    text: '开启后，出金、缴纳保证金、摘牌等资金操作须输入企业的 6 位支付密码。',
    on: '开启后，尚未设置支付密码的企业将无法动用资金，请提前通知企业管理员设置。确定开启？',
    off: '关闭后，资金操作不再验证支付密码。确定关闭？',
  },
  UkeySwitch: {
    icon: <KeyOutlined />,
    text: '开启后，资金操作须使用企业的 UKey 数字证书签章确认（优先于支付密码）。',
    on: 'UKey 设备签章尚未接入，开启后所有企业的资金操作都将无法完成。确定开启？',
    off: '关闭后，资金操作不再要求 UKey 签章。确定关闭？',
  },
};

/** The two payment-auth switches of spec §4, for the operator and the admin (PUT /sys/switch/update). */
export default function SwitchPanel() {
  const switches = useSwitches();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<string | null>(null);

  const toggle = async (code: SwitchCode, on: boolean) => {
    setSaving(code);
    try {
      const list = await updateSwitch(code, on ? '1' : '0');
      queryClient.setQueryData(SWITCHES_QUERY_KEY, list);
      message.success(`「${SWITCH_CODES[code]}」已${on ? '开启' : '关闭'}`);
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(null);
    }
  };

  const rows = (Object.keys(SWITCH_CODES) as SwitchCode[]).map((code) => ({
    code,
    on: switches.data?.find((s) => s.code === code)?.content === '1',
  }));

  return (
    <ProCard title="支付验证开关" headerBordered className="coalx-section-card">
      {switches.isError ? <Alert type="error" showIcon message={errorMessage(switches.error, '开关加载失败')} /> : null}
      {switches.isLoading ? (
        <Skeleton active />
      ) : (
        <List
          itemLayout="horizontal"
          dataSource={rows}
          renderItem={({ code, on }) => {
            const d = DESCRIPTIONS[code];
            return (
              <List.Item
                actions={[
                  <Popconfirm
                    key="toggle"
                    title={on ? `关闭「${SWITCH_CODES[code]}」` : `开启「${SWITCH_CODES[code]}」`}
                    description={<div style={{ maxWidth: 300 }}>{on ? d.off : d.on}</div>}
                    okText="确定"
                    cancelText="取消"
                    onConfirm={() => toggle(code, !on)}
                  >
                    <Switch checked={on} loading={saving === code} checkedChildren="开" unCheckedChildren="关" aria-label={SWITCH_CODES[code]} />
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  avatar={<span style={{ fontSize: 20, color: 'var(--coalx-primary)' }}>{d.icon}</span>}
                  title={
                    <span>
                      {SWITCH_CODES[code]}{' '}
                      {on ? <Tag color="success">已开启</Tag> : <Tag>已关闭</Tag>}
                    </span>
                  }
                  description={d.text}
                />
              </List.Item>
            );
          }}
        />
      )}
    </ProCard>
  );
}
