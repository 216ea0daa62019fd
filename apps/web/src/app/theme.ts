import type { ThemeConfig } from 'antd';

export const BRAND = { navy: '#0b2545', primary: '#1a56db', amber: '#f5a623', rise: '#e5383b', fall: '#10a36b' } as const;

export const theme: ThemeConfig = {
  token: {
    colorPrimary: BRAND.primary,
    colorLink: BRAND.primary,
    colorSuccess: '#10a36b',
    colorError: '#e5383b',
    borderRadius: 6,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', bodyBg: '#f2f4f8' },
  },
};
