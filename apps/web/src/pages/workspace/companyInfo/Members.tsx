import { useRef } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Badge, Button, Modal, Popconfirm, Tag, Typography, message } from 'antd';
import { MobileSchema, PersonNameSchema, UsernameSchema, type Member, type MemberAddInput } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import { zodRule } from '@/lib/zod-rule';
import { addMember, listMembers, setMemberDisabled } from '@/services/enterprise';

/** 成员管理 (enterprise admin): add traders with a first-login password shown once, stop and restart them. */
export default function Members() {
  const action = useRef<ActionType>(null);

  const toggle = async (m: Member) => {
    try {
      await setMemberDisabled(m.id, !m.disabled);
      message.success(m.disabled ? '账号已启用' : '账号已停用');
      action.current?.reload();
    } catch (e) {
      message.error(errorMessage(e, '操作失败，请稍后重试'));
    }
  };

  const columns: ProColumns<Member>[] = [
    { title: '用户名', dataIndex: 'username', width: 160 },
    { title: '姓名', dataIndex: 'realname', width: 120 },
    { title: '手机号码', dataIndex: 'mobile', width: 140 },
    { title: '角色', dataIndex: 'roleName', width: 120, render: (_, m) => <Tag color={m.role === 'enterprise_admin' ? 'gold' : 'blue'}>{m.roleName}</Tag> },
    {
      title: '状态',
      dataIndex: 'disabled',
      width: 140,
      render: (_, m) =>
        m.disabled ? <Badge status="default" text="已停用" /> : <Badge status="success" text={m.isFirstLogin === '1' ? '正常（未修改初始密码）' : '正常'} />,
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 170 },
    {
      title: '操作',
      valueType: 'option',
      width: 100,
      render: (_, m) =>
        m.role === 'trader' ? (
          <Popconfirm
            title={m.disabled ? '启用账号' : '停用账号'}
            description={m.disabled ? `启用后 ${m.username} 可再次登录` : `停用后 ${m.username} 将立即退出登录且不能再登录`}
            okText="确定"
            cancelText="取消"
            onConfirm={() => toggle(m)}
          >
            <Button type="link" size="small" danger={!m.disabled}>
              {m.disabled ? '启用' : '停用'}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <ProTable<Member>
      rowKey="id"
      actionRef={action}
      columns={columns}
      search={false}
      pagination={false}
      headerTitle="企业成员"
      request={async () => {
        const data = await listMembers();
        return { data, total: data.length, success: true };
      }}
      locale={{ emptyText: '暂无数据' }}
      toolBarRender={() => [
        <GuardedModalForm<MemberAddInput>
          key="add"
          title="添加交易员"
          width={480}
          layout="horizontal"
          labelCol={{ span: 6 }}
          trigger={
            <Button type="primary" icon={<PlusOutlined />}>
              添加交易员
            </Button>
          }
          modalProps={{ destroyOnHidden: true, okText: '添加', cancelText: '取消' }}
          onFinish={async (values) => {
            try {
              const result = await addMember(values);
              action.current?.reload();
              Modal.success({
                title: '交易员已添加',
                width: 460,
                content: (
                  <div>
                    <p>请将以下初始密码告知 {result.username}，该密码只显示这一次，首次登录须修改密码。</p>
                    <Typography.Paragraph copyable={{ text: result.initialPassword }} code style={{ fontSize: 18 }}>
                      {result.initialPassword}
                    </Typography.Paragraph>
                  </div>
                ),
                okText: '我已记下',
              });
              return true;
            } catch (e) {
              message.error(errorMessage(e, '添加失败，请稍后重试'));
              return false;
            }
          }}
        >
          <ProFormText name="username" label="用户名" placeholder="字母开头，4-32 位" rules={[zodRule(UsernameSchema)]} fieldProps={{ maxLength: 32 }} />
          <ProFormText name="realname" label="姓名" rules={[zodRule(PersonNameSchema('姓名'))]} fieldProps={{ maxLength: 30 }} />
          <ProFormText name="mobile" label="手机号码" rules={[zodRule(MobileSchema)]} fieldProps={{ maxLength: 11 }} />
        </GuardedModalForm>,
      ]}
    />
  );
}
