import { useCallback, useEffect, useState } from 'react';
import { Button, Drawer, Popconfirm, Table, Tag, message } from 'antd';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import { endAllUserSessions, endUserSession, listUserSessions, type UserAdminRow, type UserSession } from '@/services/usersAdmin';

interface Props {
  user: UserAdminRow | null;
  onClose: () => void;
  /** the list's open-session counts changed */
  onChanged: () => void;
}

/** An account's open sessions (sign-in time, last activity, address, browser); end one or all of them. */
export default function SessionsDrawer({ user, onClose, onChanged }: Props) {
  const [sessions, setSessions] = useState<UserSession[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    if (!user) return;
    setLoading(true);
    try {
      setSessions(await listUserSessions(user.id));
    } catch (e) {
      message.error(errorMessage(e, '会话列表加载失败，请稍后重试'));
    } finally {
      setLoading(false);
    }
  }, [user]);

  useEffect(() => {
    setSessions([]);
    void load();
  }, [load]);

  const end = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      message.success(done);
      onChanged();
      await load();
    } catch (e) {
      message.error(errorMessage(e));
    }
  };

  const warning = (s: UserSession) => (s.current ? '这是你正在使用的会话，结束后你将退出登录。' : '该设备须重新登录。');

  return (
    <Drawer
      title={user ? `登录会话：${user.username}（${user.realname}）` : ''}
      open={user !== null}
      width={860}
      onClose={onClose}
      destroyOnHidden
      extra={
        user && sessions.length > 0 ? (
          <Authorized action="edit">
            <Popconfirm
              title="结束全部会话"
              description={`${user.username} 的全部 ${sessions.length} 个会话将立即结束，须重新登录。`}
              okText="全部结束"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() => end(() => endAllUserSessions(user.id), '已结束该账号的全部会话')}
            >
              <Button danger>结束全部会话</Button>
            </Popconfirm>
          </Authorized>
        ) : null
      }
    >
      <Table<UserSession>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={sessions}
        pagination={false}
        tableLayout="fixed"
        locale={{ emptyText: '该账号当前没有登录中的会话' }}
        columns={[
          {
            title: '登录时间',
            dataIndex: 'createdAt',
            width: 170,
            render: (_, s) => (
              <span>
                {s.createdAt}
                {s.current ? (
                  <Tag color="green" style={{ marginLeft: 6 }}>
                    当前
                  </Tag>
                ) : null}
              </span>
            ),
          },
          { title: '最近活动', dataIndex: 'lastSeenAt', width: 160 },
          { title: '登录地址', dataIndex: 'ip', width: 130, render: (_, s) => s.ip || '-' },
          {
            title: '浏览器',
            dataIndex: 'userAgent',
            render: (_, s) => (
              <span className="coalx-user-agent" title={s.userAgent}>
                {s.userAgent || '-'}
              </span>
            ),
          },
          {
            title: '操作',
            width: 80,
            render: (_, s) =>
              user ? (
                <Authorized action="edit">
                  <Popconfirm
                    title="结束会话"
                    description={warning(s)}
                    okText="结束"
                    okButtonProps={{ danger: true }}
                    cancelText="取消"
                    onConfirm={() => end(() => endUserSession(user.id, s.id), '会话已结束，该设备须重新登录')}
                  >
                    <Button type="link" size="small" danger>
                      结束
                    </Button>
                  </Popconfirm>
                </Authorized>
              ) : null,
          },
        ]}
      />
    </Drawer>
  );
}
