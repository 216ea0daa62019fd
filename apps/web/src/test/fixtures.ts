import type { UserInfo } from '@coalx/shared';

/** A user whose role holds the given permissions and actions. */
export function userWith(permissions: Record<string, string[]>): UserInfo {
  return {
    id: '1',
    username: 'seller01',
    realname: '张三',
    name: '张三',
    avatar: '',
    mobile: '13800000000',
    isFirstLogin: '0',
    role: {
      id: 'r',
      code: 'trader',
      name: '交易员',
      permissions: Object.entries(permissions).map(([permissionId, actions]) => ({
        permissionId,
        permissionName: permissionId,
        actionEntitySet: actions.map((action) => ({ action, describe: action, defaultCheck: false })),
      })),
    },
  };
}
