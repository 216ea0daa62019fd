import { Steps, Typography } from 'antd';

/** What a newcomer needs to know: the key is made here, never leaves, and a certificate takes under a minute. */
export default function Intro({ isAdmin, hasLocalKey }: { isAdmin: boolean; hasLocalKey: boolean }) {
  return (
    <div className="coalx-ukey-intro">
      <Typography.Paragraph>
        数字证书无需购买 U 盾、无需安装驱动：点击「申请数字证书」，本浏览器当场生成签名密钥，私钥保存在本机且无法导出；
        平台 CA 为它签发一年期证书（含企业名称、统一社会信用代码和使用人）。整个过程不到一分钟。
        {hasLocalKey ? ' 本机已安装您的数字证书。' : ''}
      </Typography.Paragraph>
      <Steps
        size="small"
        current={-1}
        items={[
          { title: '填写设备名称', description: '如「财务室电脑」，便于区分' },
          { title: '本机生成密钥', description: '私钥不离开本浏览器' },
          {
            title: isAdmin ? '输入支付密码' : '企业管理员审批',
            description: isAdmin ? '企业管理员本人申请，即时签发' : '交易员的申请由企业管理员批准',
          },
          { title: '签名确认', description: '出金、报名、摘牌时用证书签名' },
        ]}
      />
    </div>
  );
}
