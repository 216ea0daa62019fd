import { useEffect, useRef, useState } from 'react';
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { ProFormSelect, ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Badge, Button, Dropdown, Modal, Popconfirm, Space, Tag, Typography, message } from 'antd';
import { MobileSchema, PersonNameSchema, USER_STATES, UsernameSchema, type RoleScope } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import GuardedModalForm from '@/components/GuardedModalForm';
import { rowDetails } from '@/components/RowDetails';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import { zodRule } from '@/lib/zod-rule';
import {
  changeUserRole,
  createStaff,
  listRoleOptions,
  listUsers,
  resetUserPassword,
  setUserDisabled,
  unlockUser,
  type InitialPasswordResult,
  type RoleOption,
  type StaffCreateInput,
  type UserAdminFilters,
  type UserAdminRow,
} from '@/services/usersAdmin';
import SessionsDrawer from './components/SessionsDrawer';
import './user.css';

const STATE_BADGE = { normal: 'success', disabled: 'default', locked: 'error' } as const;
const ROLE_COLOR: Record<string, string> = { admin: 'red', operator: 'purple', enterprise_admin: 'gold', trader: 'blue' };

/** The first-login password, once: the server keeps only its hash. */
function showInitialPassword(title: string, result: InitialPasswordResult) {
  Modal.success({
    title,
    width: 480,
    content: (
      <div>
        <p>请将以下初始密码告知 {result.username}。该密码只显示这一次，关闭后无法再次查看；首次登录须修改密码。</p>
        <Typography.Paragraph copyable={{ text: result.initialPassword, tooltips: ['复制', '已复制'] }} code style={{ fontSize: 18 }}>
          {result.initialPassword}
        </Typography.Paragraph>
      </div>
    ),
    okText: '我已记下',
  });
}

const scopeOf = (user: UserAdminRow): RoleScope => (user.enterpriseId === null ? 'staff' : 'enterprise');

/**
 * 用户管理 (system administrator): every account, staff and enterprise members, with its state, last sign-in and
 * open sessions; create staff accounts, stop and restart, unlock, reset passwords, change roles, end sessions.
 */
export default function SystemUserPage() {
  const action = useRef<ActionType>(undefined);
  const [roles, setRoles] = useState<RoleOption[]>([]);
  const [roleTarget, setRoleTarget] = useState<UserAdminRow | null>(null);
  const [sessionsOf, setSessionsOf] = useState<UserAdminRow | null>(null);

  useEffect(() => {
    listRoleOptions()
      .then(setRoles)
      .catch((e) => message.error(errorMessage(e, '角色列表加载失败，请刷新重试')));
  }, []);

  const roleChoices = (scope: RoleScope) => roles.filter((r) => r.scope === scope).map((r) => ({ label: r.name, value: r.id }));

  /** Runs a row action and says what happened in the server's words. */
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      action.current?.reload();
    } catch (e) {
      message.error(errorMessage(e));
    }
  };

  const resetPassword = async (u: UserAdminRow) => {
    try {
      const result = await resetUserPassword(u.id);
      action.current?.reload();
      showInitialPassword('密码已重置', result);
    } catch (e) {
      message.error(errorMessage(e));
    }
  };

  const confirmReset = (u: UserAdminRow) =>
    Modal.confirm({
      title: `重置 ${u.username} 的密码`,
      content: '将生成新的初始密码，原密码立即失效，该账号的登录会话全部结束，下次登录须修改密码。',
      okText: '重置密码',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => resetPassword(u),
    });

  const columns: ProColumns<UserAdminRow>[] = [
    { title: '姓名', dataIndex: 'realname', hideInTable: true, fieldProps: { placeholder: '姓名中的字', maxLength: 30 } },
    {
      title: '用户名',
      dataIndex: 'username',
      width: 130,
      fieldProps: { placeholder: '用户名中的字符', maxLength: 32 },
      render: (_, u) => (
        <span className="coalx-user-cell" title={u.username}>
          {u.username}
        </span>
      ),
    },
    {
      title: '姓名 / 手机',
      dataIndex: 'realnameMobile',
      search: false,
      width: 110,
      render: (_, u) => (
        <div>
          <div className="coalx-user-cell">{u.realname}</div>
          <div className="coalx-user-sub">{u.mobile || '-'}</div>
        </div>
      ),
    },
    {
      title: '所属企业',
      dataIndex: 'enterprise',
      width: 165,
      fieldProps: { placeholder: '企业名称；交易中心人员填“交易中心”', maxLength: 60 },
      render: (_, u) =>
        u.enterpriseName ? (
          <span className="coalx-user-cell" title={u.enterpriseName}>
            {u.enterpriseName}
          </span>
        ) : (
          <Tag color="geekblue">交易中心</Tag>
        ),
    },
    {
      title: '角色',
      dataIndex: 'roleId',
      width: 110,
      valueType: 'select',
      fieldProps: { options: roles.map((r) => ({ label: r.name, value: r.id })), placeholder: '全部角色' },
      render: (_, u) => <Tag color={ROLE_COLOR[u.roleBase] ?? 'default'}>{u.roleName}</Tag>,
    },
    {
      title: '状态',
      dataIndex: 'state',
      width: 150,
      valueType: 'select',
      valueEnum: enumOf(USER_STATES),
      fieldProps: { placeholder: '全部状态' },
      render: (_, u) => (
        <div>
          <Badge status={STATE_BADGE[u.state]} text={USER_STATES[u.state]} />
          {u.lockedUntil ? (
            // month, day and minute fit the column; the full time is on hover
            <div className="coalx-user-sub" title={`锁定至 ${u.lockedUntil}`}>
              锁定至 {u.lockedUntil.slice(5, 16)}
            </div>
          ) : null}
          {u.isFirstLogin ? (
            <div>
              <Tag color="orange" className="coalx-user-tag">
                未改初始密码
              </Tag>
            </div>
          ) : null}
        </div>
      ),
    },
    {
      title: '最近登录',
      dataIndex: 'lastLoginAt',
      search: false,
      width: 150,
      render: (_, u) =>
        u.lastLoginAt ? (
          <div>
            <div>{u.lastLoginAt}</div>
            <div className="coalx-user-sub">{u.lastLoginIp ?? ''}</div>
          </div>
        ) : (
          <span className="coalx-user-sub">从未登录</span>
        ),
    },
    {
      title: '在线会话',
      dataIndex: 'openSessions',
      search: false,
      width: 80,
      align: 'right',
      render: (_, u) => (u.openSessions > 0 ? <a onClick={() => setSessionsOf(u)}>{u.openSessions} 个</a> : <span className="coalx-user-sub">0</span>),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      fixed: 'right',
      render: (_, u) => (
        <Space size={0}>
          {u.state === 'disabled' ? (
            <Authorized action="enable">
              <Popconfirm
                title="启用账号"
                description={`启用后 ${u.username} 可再次登录`}
                okText="启用"
                cancelText="取消"
                onConfirm={() => run(() => setUserDisabled(u.id, false), `账号 ${u.username} 已启用`)}
              >
                <Button type="link" size="small">
                  启用
                </Button>
              </Popconfirm>
            </Authorized>
          ) : (
            <Authorized action="disable">
              <Popconfirm
                title="停用账号"
                description={`停用后 ${u.username} 立即退出登录，且不能再登录`}
                okText="停用"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={() => run(() => setUserDisabled(u.id, true), `账号 ${u.username} 已停用，登录会话已全部结束`)}
              >
                <Button type="link" size="small" danger>
                  停用
                </Button>
              </Popconfirm>
            </Authorized>
          )}
          {u.lockedUntil ? (
            <Authorized action="edit">
              <Button type="link" size="small" onClick={() => run(() => unlockUser(u.id), `账号 ${u.username} 已解锁，可以立即登录`)}>
                解锁
              </Button>
            </Authorized>
          ) : null}
          <Authorized action="edit">
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: 'role', label: '修改角色' },
                  { key: 'reset', label: '重置密码', danger: true },
                  { key: 'sessions', label: '登录会话' },
                ],
                onClick: ({ key }) => {
                  if (key === 'role') setRoleTarget(u);
                  if (key === 'reset') confirmReset(u);
                  if (key === 'sessions') setSessionsOf(u);
                },
              }}
            >
              <Button type="link" size="small">
                更多 <DownOutlined />
              </Button>
            </Dropdown>
          </Authorized>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<UserAdminRow>
        rowKey="id"
        headerTitle="用户管理"
        actionRef={action}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        expandable={rowDetails<UserAdminRow>((u) => [
          { label: '手机号码', value: u.mobile || '-' },
          { label: '创建时间', value: u.createdAt },
          { label: '连续密码错误', value: `${u.failedLoginCount} 次` },
          { label: '最近登录地址', value: u.lastLoginIp ?? '-' },
          { label: '账号类型', value: u.enterpriseId === null ? '交易中心人员' : '企业用户' },
          { label: '初始密码', value: u.isFirstLogin ? '未修改（首次登录须修改）' : '已修改' },
        ])}
        locale={{ emptyText: '没有符合条件的账号' }}
        request={async (p) => {
          const filters = cleanParams(p, ['roleId']) as UserAdminFilters;
          const page = await listUsers({ ...filters, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
        toolBarRender={() => [
          <Authorized key="add" action="add">
            <GuardedModalForm<StaffCreateInput>
              title="新建交易中心账号"
              // its own field ids: the search form above has a 用户名 field too, and a label must point at its own input
              name="staffCreate"
              width={500}
              layout="horizontal"
              labelCol={{ span: 6 }}
              trigger={
                <Button type="primary" icon={<PlusOutlined />}>
                  新建账号
                </Button>
              }
              modalProps={{ destroyOnHidden: true, okText: '创建', cancelText: '取消' }}
              onFinish={async (values) => {
                try {
                  const result = await createStaff(values);
                  action.current?.reload();
                  showInitialPassword('账号已创建', result);
                  return true;
                } catch (e) {
                  message.error(errorMessage(e, '创建失败，请稍后重试'));
                  return false;
                }
              }}
            >
              <p className="coalx-user-hint">企业用户由企业管理员在“企业信息 / 成员管理”中添加；这里创建交易中心的运营和系统管理员账号。</p>
              <ProFormText name="username" label="用户名" placeholder="字母开头，4-32 位" rules={[zodRule(UsernameSchema)]} fieldProps={{ maxLength: 32 }} />
              <ProFormText name="realname" label="姓名" rules={[zodRule(PersonNameSchema('姓名'))]} fieldProps={{ maxLength: 30 }} />
              <ProFormText name="mobile" label="手机号码" rules={[zodRule(MobileSchema)]} fieldProps={{ maxLength: 11 }} />
              <ProFormSelect name="roleId" label="角色" options={roleChoices('staff')} rules={[{ required: true, message: '请选择角色' }]} placeholder="请选择角色" />
            </GuardedModalForm>
          </Authorized>,
        ]}
      />
      {roleTarget ? (
        <GuardedModalForm<{ roleId: number }>
          key={roleTarget.id}
          name="roleChange"
          title={`修改角色：${roleTarget.username}`}
          width={460}
          open
          onOpenChange={(open) => !open && setRoleTarget(null)}
          initialValues={{ roleId: roleTarget.roleId }}
          layout="horizontal"
          labelCol={{ span: 5 }}
          modalProps={{ destroyOnHidden: true, okText: '保存', cancelText: '取消' }}
          onFinish={async ({ roleId }) => {
            if (!roleTarget) return true;
            try {
              await changeUserRole(roleTarget.id, roleId);
              const name = roles.find((r) => r.id === roleId)?.name ?? '';
              message.success(`账号 ${roleTarget.username} 的角色已改为「${name}」`);
              setRoleTarget(null);
              action.current?.reload();
              return true;
            } catch (e) {
              message.error(errorMessage(e));
              return false;
            }
          }}
        >
          <p className="coalx-user-hint">
            {roleTarget && scopeOf(roleTarget) === 'staff' ? '交易中心人员可分配运营或系统管理员类角色。' : '企业用户可分配交易员或企业管理员类角色。'}
            新角色在该账号的下一次操作时生效。
          </p>
          <ProFormSelect
            name="roleId"
            label="角色"
            options={roleTarget ? roleChoices(scopeOf(roleTarget)) : []}
            rules={[{ required: true, message: '请选择角色' }]}
          />
        </GuardedModalForm>
      ) : null}
      <SessionsDrawer user={sessionsOf} onClose={() => setSessionsOf(null)} onChanged={() => action.current?.reload()} />
    </>
  );
}
