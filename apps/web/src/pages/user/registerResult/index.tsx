import { Button, Card, Result, Steps } from 'antd';
import { Link, useSearchParams } from 'react-router';

/** After registration (spec §2 /user/register-result): what happens next. */
export default function RegisterResultPage() {
  const [params] = useSearchParams();
  const organName = params.get('organName');
  const clientId = params.get('clientId');
  const resubmit = params.get('mode') === 'resubmit';

  return (
    <div className="coalx-register">
      <Card className="coalx-register-card" variant="borderless">
        <Result
          status="success"
          title={resubmit ? '资料已重新提交，等待交易中心审核' : '注册申请已提交，等待交易中心审核'}
          subTitle={
            organName ? (
              <span>
                企业「{organName}」{clientId ? `（企业编号 ${clientId}）` : ''}的注册资料已提交。
              </span>
            ) : (
              '企业注册资料已提交。'
            )
          }
          extra={[
            <Button type="primary" key="login">
              <Link to="/user/login">返回登录</Link>
            </Button>,
            <Button key="home">
              <Link to="/index">返回首页</Link>
            </Button>,
          ]}
        >
          <Steps
            direction="vertical"
            size="small"
            current={1}
            items={[
              { title: '提交注册资料', description: '账号、企业信息、结算账户与资质附件已提交' },
              { title: '交易中心审核', description: '交易中心将在 1 个工作日内审核；审核期间账号暂不能登录' },
              { title: '首次登录', description: '审核通过后，使用注册时的用户名和密码登录，首次登录须修改密码' },
              { title: '开始交易', description: '入金后即可参与挂牌与竞价交易；如被驳回，可在注册页「修改资料重新提交」' },
            ]}
          />
        </Result>
      </Card>
    </div>
  );
}
