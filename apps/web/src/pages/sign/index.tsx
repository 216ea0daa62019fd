import { useEffect } from 'react';
import { Alert, Button, Tabs } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { isSignedIn, useSession } from '@/app/session';
import SealCard from './components/SealCard';
import SignedTable from './components/SignedTable';
import SignPanel from './components/SignPanel';
import VerifyPanel from './components/VerifyPanel';
import '../../styles/certificates.css';
import './sign.css';

/**
 * 签章管理 (/sign/index and the workspace 数字证书 → 签章管理): an enterprise signs any PDF with its key device and
 * seal and keeps the record; anyone verifies a signed PDF (the public part of the page).
 */
export default function SignPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const enterpriseName = session.companyInfo?.organName ?? null;
  const canSign = isSignedIn(session) && enterpriseName !== null;
  const tab = params.get('tab') ?? (canSign ? 'sign' : 'verify');
  useEffect(() => {
    document.title = '签章管理 - CoalX';
  }, []);

  const signTab = canSign ? (
    <div className="coalx-sign-grid">
      <SignPanel enterpriseName={enterpriseName} />
      <SealCard enterpriseName={enterpriseName} />
    </div>
  ) : (
    <Alert
      type="info"
      showIcon
      message="企业用户登录后可以使用数字证书签署 PDF 文件"
      action={
        <Button type="primary" size="small" onClick={() => navigate(`/user/login?redirect=${encodeURIComponent('/sign/index')}`)}>
          去登录
        </Button>
      }
    />
  );

  return (
    <div className="coalx-ukey-page coalx-sign-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          { key: 'sign', label: '签署文件', children: signTab },
          ...(canSign ? [{ key: 'records', label: '签章记录', children: <SignedTable /> }] : []),
          { key: 'verify', label: '签章验证', children: <VerifyPanel /> },
        ]}
      />
    </div>
  );
}
