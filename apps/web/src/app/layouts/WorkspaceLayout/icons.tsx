import {
  AccountBookOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BankOutlined,
  BellOutlined,
  CarOutlined,
  ControlOutlined,
  DashboardOutlined,
  FileTextOutlined,
  ProfileOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  ShopOutlined,
  SolutionOutlined,
  ThunderboltOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * The menu's icon names (antd icon names from the server) → icons. A fixed map keeps the 800-odd antd icons out
 * of the bundle; an unknown name shows a neutral icon.
 */
const ICONS: Record<string, ReactNode> = {
  AccountBookOutlined: <AccountBookOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  AuditOutlined: <AuditOutlined />,
  BankOutlined: <BankOutlined />,
  BellOutlined: <BellOutlined />,
  CarOutlined: <CarOutlined />,
  ControlOutlined: <ControlOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  SafetyCertificateOutlined: <SafetyCertificateOutlined />,
  SettingOutlined: <SettingOutlined />,
  ShopOutlined: <ShopOutlined />,
  SolutionOutlined: <SolutionOutlined />,
  ThunderboltOutlined: <ThunderboltOutlined />,
  WalletOutlined: <WalletOutlined />,
};

export function menuIcon(name: string | null | undefined): ReactNode {
  if (!name) return undefined;
  return ICONS[name] ?? <AppstoreOutlined />;
}
