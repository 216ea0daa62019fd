import { BankOutlined, DownOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { confirmSignOut } from '@/app/logout';
import { useSession } from '@/app/session';
import { staticUrl } from '@/services/file';

/** Avatar menu of spec §2: 企业信息, 修改密码, 退出登录 (with confirm). */
export default function AvatarDropdown({ theme = 'light' }: { theme?: 'light' | 'dark' }) {
  const navigate = useNavigate();
  const { userInfo } = useSession();
  const name = userInfo?.realname || userInfo?.name || userInfo?.username || '用户';
  const items: MenuProps['items'] = [
    { key: 'companyInfo', icon: <BankOutlined />, label: '企业信息' },
    { key: 'changePassword', icon: <LockOutlined />, label: '修改密码' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'companyInfo') navigate('/companyInfo');
    else if (key === 'changePassword') navigate('/user/changePassword');
    else if (key === 'logout') confirmSignOut(navigate);
  };
  return (
    <Dropdown menu={{ items, onClick, className: "coalx-avatar-menu" }} placement="bottomRight" trigger={["hover"]}>
      <span className={`coalx-avatar coalx-avatar-${theme}`} data-testid="avatar-dropdown">
        <Avatar
          size="small"
          src={userInfo?.avatar ? staticUrl(userInfo.avatar) : undefined}
          icon={<UserOutlined />}
          className="coalx-avatar-img"
        />
        <span className="coalx-avatar-name">{name}</span>
        <DownOutlined className="coalx-avatar-arrow" />
      </span>
    </Dropdown>
  );
}
