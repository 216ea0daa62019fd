import DetailLoadState from '@/components/DetailLoadState';
import { useState } from 'react';
import { AccountBookOutlined, DownloadOutlined } from '@ant-design/icons';
import { ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Modal, Result, message } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { StatementDisputeSchema, StatementRuleSchema, formatFen, formatTons } from '@coalx/shared';
import { errorMessage, isRequestError } from '@/app/request';
import GuardedModalForm from '@/components/GuardedModalForm';
import { yuan } from '@/components/Money';
import { confirmMoney, useMoneyAction } from '@/components/MoneyConfirm';
import { StatementMoney, StatementQuality, StatementStatusTag, StatementTrucks, statementMoneyRows } from '@/components/settlement/StatementParts';
import { getFundInfo } from '@/services/funds';
import { ORDER_KEYS } from '@/services/order';
import {
  SETTLEMENT_KEYS,
  confirmStatement,
  disputeStatement,
  downloadStatementPdf,
  getStatement,
  ruleStatement,
  type StatementView,
} from '@/services/settlement';

/** A refusal for lack of funds, kept apart so the shortfall dialog (with 去入金) shows instead of a bare message. */
const SHORT = Symbol('funds_insufficient');

/**
 * 结算单详情 (/settlement/info?id=): every truck and quality line with its source, the money (settled amount, escrow,
 * refund or still to pay, fee); the buyer confirms (money shown, then the pay password) or disputes with a reason;
 * the trading centre rules on a dispute; anyone who sees it downloads the PDF.
 */
export default function SettlementInfoPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SETTLEMENT_KEYS.detail(id ?? 0), queryFn: () => getStatement(id!), enabled: Boolean(id), retry: false });
  const { act, holder } = useMoneyAction();
  const [disputing, setDisputing] = useState(false);
  const [ruling, setRuling] = useState(false);
  const [downloading, setDownloading] = useState(false);

  const update = (next: StatementView) => {
    queryClient.setQueryData(SETTLEMENT_KEYS.detail(next.id), next);
    void queryClient.invalidateQueries({ queryKey: SETTLEMENT_KEYS.all, predicate: (q) => q.queryKey[1] !== 'detail' });
    void queryClient.invalidateQueries({ queryKey: ORDER_KEYS.all });
    void queryClient.invalidateQueries({ queryKey: ['funds'] });
  };

  const showShortfall = (s: StatementView, available: number | null) => {
    Modal.confirm({
      title: '可用资金不足',
      content: (
        <div data-testid="statement-shortfall">
          <p>
            结算单 {s.statementNo} 需补付 <b>{yuan(s.balanceFen)}</b>
            {available === null ? '' : `，当前可用资金 ${yuan(available)}`}。
          </p>
          <p>请先入金，交易中心确认到账后再确认结算。</p>
        </div>
      ),
      okText: '去入金',
      cancelText: '取消',
      onOk: () => navigate('/financial/application'),
    });
  };

  const confirm = async (s: StatementView) => {
    if (s.balanceFen > 0) {
      let available: number | null = null;
      try {
        available = (await getFundInfo()).available;
      } catch {
        // the server decides; the balance is only a hint here
      }
      if (available !== null && available < s.balanceFen) {
        showShortfall(s, available);
        return;
      }
    }
    const confirmation = {
      title: '确认结算',
      rows: statementMoneyRows(s),
      next:
        s.balanceFen > 0
          ? `确认后托管预付款 ${yuan(s.escrowFen)} 与补付 ${yuan(s.balanceFen)} 立即支付卖方，订单变为已结算，不可撤销。`
          : `确认后由托管预付款支付卖方 ${yuan(s.amountFen)}，余款 ${yuan(-s.balanceFen)} 解冻退回本企业可用资金，订单变为已结算，不可撤销。`,
      okText: '确认结算',
    };
    try {
      const result = await act<StatementView | typeof SHORT>(
        confirmation,
        async (auth) => {
          try {
            return await confirmStatement(s.id, auth);
          } catch (error) {
            if (isRequestError(error) && error.error === 'funds_insufficient') return SHORT;
            throw error;
          }
        },
        {
          action: 'statement_confirm',
          payload: { statementId: s.id },
          title: '确认结算：请输入支付密码',
          description: `结算单 ${s.statementNo}，结算金额 ${yuan(s.amountFen)}`,
        },
      );
      if (result === undefined) return;
      if (result === SHORT) {
        showShortfall(s, null);
        return;
      }
      message.success('结算完成');
      update(result);
    } catch (error) {
      message.error(errorMessage(error, '确认失败，请稍后重试'));
    }
  };

  const download = async (s: StatementView) => {
    setDownloading(true);
    try {
      await downloadStatementPdf(s.id, `结算单${s.statementNo}.pdf`);
    } catch (error) {
      message.error(errorMessage(error, '结算单下载失败，请稍后重试'));
    } finally {
      setDownloading(false);
    }
  };

  if (!id) return <Result status="warning" title="缺少结算单参数" subTitle="请从余额结算进入结算单详情。" extra={<Link to="/settlement/balance">返回余额结算</Link>} />;
  if (query.isError || !query.data) return <DetailLoadState query={query} noun="结算单" back={{ path: '/settlement/balance', title: '余额结算' }} />;

  const s = query.data;
  const sideText = s.side === 'seller' ? '卖方' : s.side === 'buyer' ? '买方' : null;
  return (
    <div data-testid="statement-info" data-status={s.status}>
      <Card>
        <div className="coalx-statement-head">
          <div>
            <div className="coalx-statement-head-title">
              <AccountBookOutlined />
              <span>结算单</span>
              <span className="coalx-num" data-testid="statement-no">
                {s.statementNo}
              </span>
              <StatementStatusTag status={s.status} text={s.statusText} />
            </div>
            <div className="coalx-statement-head-sub">
              订单 <Link to={`/order/info?id=${s.orderId}`}>{s.orderNo}</Link> · 合同 {s.contractNo} · {s.productName}
              {sideText ? ` · 我方为${sideText}` : ''}
            </div>
            <div className="coalx-statement-head-sub">
              卖方 <b>{s.sellerName}</b> · 买方 <b>{s.buyerName}</b> · {s.issuedByName} 开具于 {s.issuedAt}
              {s.confirmedAt ? ` · 结算于 ${s.confirmedAt}` : ''}
            </div>
          </div>
          <div style={{ display: 'flex', gap: 40 }}>
            <div>
              <div className="coalx-statement-figure-label">结算数量</div>
              <div className="coalx-statement-head-amount">{formatTons(s.settledKg)}</div>
            </div>
            <div>
              <div className="coalx-statement-figure-label">结算金额</div>
              <div className="coalx-statement-head-amount" data-testid="statement-head-amount">
                {yuan(s.amountFen)}
              </div>
            </div>
          </div>
        </div>
        {s.canConfirm ? (
          <Alert
            style={{ marginTop: 16 }}
            type="info"
            showIcon
            message={s.balanceFen > 0 ? `请核对后确认结算：确认时需补付 ${yuan(s.balanceFen)}` : `请核对后确认结算：确认后退还托管余款 ${yuan(-s.balanceFen)}`}
            description="对数量、质量或金额有异议的，请提出异议并说明原因，由交易中心裁定。"
          />
        ) : null}
        {s.status === 'pending' && s.side === 'seller' ? <Alert style={{ marginTop: 16 }} type="info" showIcon message="结算单已发送买方，等待买方确认" /> : null}
        {s.disputeReason ? (
          <Alert
            style={{ marginTop: 16 }}
            type={s.status === 'disputed' ? 'error' : 'warning'}
            showIcon
            data-testid="statement-dispute"
            message={s.status === 'disputed' ? '买方对本结算单有异议，等待交易中心裁定' : '买方曾对本结算单提出异议'}
            description={`异议原因：${s.disputeReason}`}
          />
        ) : null}
        {s.rulingNote ? (
          <Alert
            style={{ marginTop: 16 }}
            type={s.status === 'returned' ? 'warning' : 'success'}
            showIcon
            data-testid="statement-ruling"
            message={s.status === 'returned' ? '交易中心裁定：退回卖方重新开具' : '交易中心裁定：维持结算单并完成结算'}
            description={`裁定说明：${s.rulingNote}`}
          />
        ) : null}
        <div className="coalx-statement-actions">
          {s.canConfirm ? (
            <>
              <Button type="primary" onClick={() => void confirm(s)} data-testid="statement-confirm">
                确认结算
              </Button>
              <Button danger onClick={() => setDisputing(true)} data-testid="statement-dispute-open">
                提出异议
              </Button>
            </>
          ) : null}
          {s.canRule ? (
            <Button type="primary" onClick={() => setRuling(true)} data-testid="statement-rule-open">
              裁定异议
            </Button>
          ) : null}
          <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download(s)} data-testid="statement-pdf">
            下载结算单
          </Button>
        </div>
      </Card>

      <StatementMoney f={s} settled={s.status === 'confirmed'} />
      <StatementTrucks f={s} />
      <StatementQuality f={s} />

      <GuardedModalForm<{ reason: string }>
        title={`提出异议 · ${s.statementNo}`}
        open={disputing}
        onOpenChange={setDisputing}
        width={520}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '提交异议', resetText: '取消' } }}
        onFinish={async (values) => {
          const checked = StatementDisputeSchema.safeParse(values);
          if (!checked.success) {
            message.error(checked.error.issues[0]?.message ?? '填写有误');
            return false;
          }
          try {
            update(await disputeStatement(s.id, checked.data.reason));
            message.success('异议已提交，等待交易中心裁定');
            return true;
          } catch (error) {
            message.error(errorMessage(error, '提交失败，请稍后重试'));
            return false;
          }
        }}
      >
        <ProFormTextArea
          name="reason"
          label="异议原因"
          placeholder="如：第 3 车到货磅单净重与签收重量不符"
          fieldProps={{ maxLength: 300, showCount: true, rows: 4 }}
          rules={[{ required: true, message: '请输入异议原因' }, { min: 2, message: '异议原因至少 2 个字' }]}
        />
      </GuardedModalForm>

      <GuardedModalForm<{ uphold: 'yes' | 'no'; note: string }>
        title={`裁定异议 · ${s.statementNo}`}
        open={ruling}
        onOpenChange={setRuling}
        width={560}
        initialValues={{ uphold: 'yes' }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        submitter={{ searchConfig: { submitText: '提交裁定', resetText: '取消' } }}
        onFinish={async (values) => {
          const checked = StatementRuleSchema.safeParse({ uphold: values.uphold === 'yes', note: values.note });
          if (!checked.success) {
            message.error(checked.error.issues[0]?.message ?? '填写有误');
            return false;
          }
          if (checked.data.uphold) {
            const ok = await confirmMoney({
              title: '维持结算单并完成结算',
              rows: statementMoneyRows(s),
              next: `确认后按本结算单划转货款：卖方实收 ¥${formatFen(s.sellerReceivesFen)}，订单变为已结算，不可撤销。`,
              okText: '确认维持',
            });
            if (!ok) return false;
          }
          try {
            update(await ruleStatement(s.id, checked.data));
            message.success('裁定已保存');
            return true;
          } catch (error) {
            message.error(errorMessage(error, '裁定失败，请稍后重试'));
            return false;
          }
        }}
      >
        <Alert style={{ marginBottom: 16 }} type="warning" showIcon message={`买方异议：${s.disputeReason}`} />
        <ProFormRadio.Group
          name="uphold"
          label="裁定结果"
          options={[
            { label: '维持结算单（立即结算货款）', value: 'yes' },
            { label: '退回卖方重新开具', value: 'no' },
          ]}
        />
        <ProFormTextArea
          name="note"
          label="裁定说明"
          placeholder="如：经核对磅单，签收重量无误"
          fieldProps={{ maxLength: 300, showCount: true, rows: 3 }}
          rules={[{ required: true, message: '请输入裁定说明' }, { min: 2, message: '裁定说明至少 2 个字' }]}
        />
      </GuardedModalForm>
      {holder}
    </div>
  );
}
