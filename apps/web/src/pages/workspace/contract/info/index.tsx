import DetailLoadState from '@/components/DetailLoadState';
import { useState } from 'react';
import { ProDescriptions } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Result, Row, Space, Table, Tag, Timeline, Typography, message } from 'antd';
import { DownloadOutlined, EditOutlined, FileProtectOutlined, UploadOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import {
  BREACH_RULINGS,
  CONTRACT_KINDS,
  CONTRACT_SIDES,
  formatPrice,
  formatTons,
  TESTING_BASES,
  TRANSPORT_ARRANGERS,
  WEIGHING_BASES,
  type BreachRuling,
  type ContractSide,
} from '@coalx/shared';
import Money, { yuan } from '@/components/Money';
import PdfViewer from '@/components/PdfViewer';
import { ContractStatusTag, DeadlineCountdown, UploadStatusTag } from '@/components/contract/ContractParts';
import SignContractModal from '@/components/contract/SignContractModal';
import ContractOrderLink from '@/components/order/ContractOrderLink';
import UploadPaperModal from '@/components/contract/UploadPaperModal';
import '@/components/contract/contract.css';
import {
  CONTRACT_KEYS,
  contractPdfSource,
  downloadContractPdf,
  getContract,
  getContractByDeal,
  openUploadFile,
  type ContractDetail,
  type ContractSignature,
  type ContractUpload,
} from '@/services/contract';
import ReviewModal from './components/ReviewModal';
import { ExtendModal, VoidModal } from './components/RulingModals';
import TermsModal from './components/TermsModal';
import './contract-info.css';

const yuanPerTon = (fen: number) => `${(fen / 100).toFixed(2)} 元/吨`;

/** The terms as the contract states them, one line each. */
function TermsDescriptions({ detail }: { detail: ContractDetail }) {
  const t = detail.terms;
  const q = t.qualityAdjustments;
  return (
    <ProDescriptions column={3} size="small" className="coalx-contract-terms" data-testid="contract-terms">
      <ProDescriptions.Item label="产品">{detail.productName}</ProDescriptions.Item>
      <ProDescriptions.Item label="数量">{formatTons(detail.quantity)}（溢短装 ±{t.quantityTolerancePct}%）</ProDescriptions.Item>
      <ProDescriptions.Item label="单价">{formatPrice(detail.price)}</ProDescriptions.Item>
      <ProDescriptions.Item label="合同金额">
        <Money fen={detail.amount} strong />
      </ProDescriptions.Item>
      <ProDescriptions.Item label="履约保证金">
        <Money fen={detail.depositFen} />
      </ProDescriptions.Item>
      <ProDescriptions.Item label="合理途损">{t.transitLossPct}%</ProDescriptions.Item>
      <ProDescriptions.Item label="交收地点">{t.deliveryPlace}</ProDescriptions.Item>
      <ProDescriptions.Item label="交收日期">
        {t.deliveryDateStart} 至 {t.deliveryDateEnd}
      </ProDescriptions.Item>
      <ProDescriptions.Item label="运输">{TRANSPORT_ARRANGERS[t.transportArranger]}</ProDescriptions.Item>
      <ProDescriptions.Item label="计量依据">{WEIGHING_BASES[t.weighingBasis]}</ProDescriptions.Item>
      <ProDescriptions.Item label="化验依据">{TESTING_BASES[t.testingBasis]}</ProDescriptions.Item>
      <ProDescriptions.Item label="付款">
        预付 {t.prepaymentPct}%，签订后 {t.paymentWorkingDays} 个工作日内
      </ProDescriptions.Item>
      <ProDescriptions.Item label="发热量调整" span={3}>
        基准 {q.basisQnet} kcal/kg；
        {q.qnetTiers.length === 0
          ? '不按发热量调价'
          : q.qnetTiers.map((tier) => `${tier.from}–${tier.to} kcal/kg 每 100 kcal ±${yuanPerTon(tier.fenPer100Kcal)}`).join('；')}
        ；低于 {q.rejectBelowQnet} kcal/kg 买方可拒收
      </ProDescriptions.Item>
      <ProDescriptions.Item label="硫分 / 灰分 / 水分" span={3}>
        全硫基准 {q.basisSt}%，每超 0.1% 扣 {yuanPerTon(q.fenPerStStep)}；灰分基准 {q.basisAd}%，每超 1% 扣 {yuanPerTon(q.fenPerAdStep)}；全水分超过计价水分 {q.pricingMt}% 的部分扣减重量
      </ProDescriptions.Item>
      <ProDescriptions.Item label="补充约定" span={3}>
        {t.remark || '无'}
      </ProDescriptions.Item>
    </ProDescriptions>
  );
}

function PartyCard({ detail, side }: { detail: ContractDetail; side: ContractSide }) {
  const name = side === 'seller' ? detail.sellerName : detail.buyerName;
  const code = side === 'seller' ? detail.sellerCreditCode : detail.buyerCreditCode;
  const signedAt = side === 'seller' ? detail.sellerSignedAt : detail.buyerSignedAt;
  const mine = detail.mySide === side;
  return (
    <Card size="small" className="coalx-contract-party" data-testid={`party-${side}`}>
      <div className="coalx-contract-party-head">
        <Tag color={side === 'seller' ? 'volcano' : 'geekblue'}>{CONTRACT_SIDES[side]}</Tag>
        <span className="coalx-contract-party-name">{name}</span>
        {mine ? <Tag>我方</Tag> : null}
      </div>
      <div className="coalx-contract-party-line">统一社会信用代码：{code}</div>
      <div className="coalx-contract-party-line">{signedAt ? <Typography.Text type="success">已于 {signedAt} 签署</Typography.Text> : <Typography.Text type="secondary">尚未签署</Typography.Text>}</div>
    </Card>
  );
}

function SignatureList({ signatures }: { signatures: ContractSignature[] }) {
  if (signatures.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="双方均未签署" />;
  return (
    <div className="coalx-contract-signatures">
      {signatures.map((s) => (
        <Descriptions
          key={`${s.side}-${s.signedAt}`}
          className="coalx-contract-signature"
          data-testid="contract-signature"
          size="small"
          column={1}
          title={
            <Space>
              <Tag color={s.side === 'seller' ? 'volcano' : 'geekblue'}>{CONTRACT_SIDES[s.side]}</Tag>
              {s.enterpriseName}
            </Space>
          }
          items={[
            { key: 'method', label: '签署方式', children: s.method === 'certificate' ? '数字证书' : '纸质合同' },
            { key: 'signer', label: '签署人', children: `${s.signerName}（${s.signerUsername}）` },
            ...(s.method === 'certificate'
              ? [
                  { key: 'serial', label: '证书序列号', children: <span className="coalx-contract-serial">{s.certificateSerial ?? '-'}</span> },
                  { key: 'summary', label: '证书信息', children: s.certificateSummary ?? '-' },
                ]
              : []),
            { key: 'at', label: '签署时间', children: s.signedAt },
          ]}
        />
      ))}
    </div>
  );
}

/**
 * 合同详情 (/contract/info?id= or ?dealNo=): the contract's head (number, state, deadline, amount), both parties,
 * the terms, the PDF, signatures, paper copies and the history; the parties sign, upload a paper copy or edit the
 * terms here, the trading centre reviews paper copies, voids with a breach ruling or extends the deadline once.
 */
export default function ContractInfoPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const dealNo = params.get('dealNo')?.trim() || null;
  const key = id ? `id:${id}` : `deal:${dealNo ?? ''}`;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: CONTRACT_KEYS.detail(key),
    queryFn: () => (id ? getContract(id) : getContractByDeal(dealNo!)),
    enabled: Boolean(id || dealNo),
    retry: false,
  });
  const [dialog, setDialog] = useState<'sign' | 'upload' | 'terms' | 'void' | 'extend' | null>(null);
  const [reviewing, setReviewing] = useState<ContractUpload | null>(null);

  const update = (next: ContractDetail) => {
    queryClient.setQueryData(CONTRACT_KEYS.detail(key), next);
    void queryClient.invalidateQueries({ queryKey: CONTRACT_KEYS.all, predicate: (q) => q.queryKey[1] !== 'detail' });
  };

  if (!id && !dealNo) return <Result status="warning" title="缺少合同参数" subTitle="请从合同列表或成交记录进入合同详情。" extra={<Link to="/contract/list">返回合同列表</Link>} />;
  if (query.isError || !query.data) {
    const missing = { title: dealNo ? '该成交尚未生成合同' : '合同不存在', subTitle: '合同在成交后自动生成；如刚成交，请稍后刷新。' };
    return <DetailLoadState query={query} noun="合同" back={{ path: '/contract/list', title: '合同列表' }} notFound={missing} />;
  }

  const detail = query.data;
  // the buttons are the server's verdicts for this viewer (role, grants, side and state): the page adds no rule of its own
  const { can } = detail;
  const party = detail.mySide !== null;
  const myUploadPending = detail.uploads.some((u) => u.side === detail.mySide && u.status === 'submitted');
  const pdf = contractPdfSource(detail.id);

  return (
    <div className="coalx-contract-info" data-testid="contract-info" data-status={detail.status}>
      <Card className="coalx-contract-head">
        <div className="coalx-contract-head-main">
          <div>
            <div className="coalx-contract-head-title">
              <FileProtectOutlined />
              <span className="coalx-contract-no" data-testid="contract-no">
                {detail.contractNo}
              </span>
              <ContractStatusTag status={detail.status} />
              {detail.extended ? <Tag color="gold">已延期</Tag> : null}
              {detail.uploadPending ? <Tag color="processing">纸质合同待审核</Tag> : null}
            </div>
            <div className="coalx-contract-head-sub">
              {(CONTRACT_KINDS as Record<string, string>)[detail.kind] ?? detail.kind} · 成交编号 {detail.dealNo} · 交易编号 {detail.tradeNo} · 生成于 {detail.createdAt}
            </div>
          </div>
          <div className="coalx-contract-head-figures">
            <div>
              <div className="coalx-contract-head-label">签署截止</div>
              <DeadlineCountdown deadline={detail.signDeadline} status={detail.status} showTime />
            </div>
            <div>
              <div className="coalx-contract-head-label">合同金额</div>
              <div className="coalx-contract-head-amount" data-testid="contract-amount">
                {yuan(detail.amount)}
              </div>
            </div>
          </div>
        </div>
        {detail.status === 'voided' ? (
          <Alert
            className="coalx-contract-head-alert"
            type="warning"
            showIcon
            message={`合同已作废：${detail.voidReason ?? '-'}`}
            description={detail.breachBy ? `违约认定：${BREACH_RULINGS[detail.breachBy as BreachRuling] ?? detail.breachBy}` : undefined}
          />
        ) : null}
        <div className="coalx-contract-actions">
          {can.sign ? (
            <Button type="primary" onClick={() => setDialog('sign')}>
              签署
            </Button>
          ) : null}
          {can.uploadPaper ? (
            <Button icon={<UploadOutlined />} onClick={() => setDialog('upload')}>
              上传纸质合同
            </Button>
          ) : null}
          {can.editTerms ? (
            <Button icon={<EditOutlined />} onClick={() => setDialog('terms')}>
              编辑条款
            </Button>
          ) : null}
          <ContractOrderLink contractNo={detail.contractNo} status={detail.status} />
          {can.extend ? <Button onClick={() => setDialog('extend')}>延期</Button> : null}
          {can.void ? (
            <Button danger onClick={() => setDialog('void')}>
              作废并认定违约
            </Button>
          ) : null}
          {party && myUploadPending ? <Typography.Text type="secondary">我方纸质合同已提交，等待交易中心审核</Typography.Text> : null}
        </div>
      </Card>

      <Row gutter={16} className="coalx-contract-row">
        <Col span={12}>
          <PartyCard detail={detail} side="seller" />
        </Col>
        <Col span={12}>
          <PartyCard detail={detail} side="buyer" />
        </Col>
      </Row>

      <Card title="合同条款" size="small" className="coalx-contract-row" extra={detail.editable ? <Typography.Text type="secondary">生效前双方均可修改，修改将清除已有签署</Typography.Text> : null}>
        <TermsDescriptions detail={detail} />
      </Card>

      <Row gutter={16} className="coalx-contract-row">
        <Col span={15}>
          <PdfViewer
            url={pdf.url}
            httpHeaders={pdf.httpHeaders}
            version={detail.pdfSha256}
            minHeight={560}
            title={<span className="coalx-contract-pdf-title">合同文件{detail.signatures.length > 0 ? `（已签 ${detail.signatures.length} 方）` : ''}</span>}
            extra={
              <Button
                icon={<DownloadOutlined />}
                onClick={() => downloadContractPdf(detail.id, `${detail.contractNo}.pdf`).catch((e: Error) => message.error(e.message))}
              >
                下载
              </Button>
            }
          />
        </Col>
        <Col span={9}>
          <Card title={`签署记录（${detail.signatures.length}）`} size="small">
            <SignatureList signatures={detail.signatures} />
          </Card>
          <Card title="纸质合同" size="small" className="coalx-contract-row">
            <Table<ContractUpload>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={detail.uploads}
              locale={{ emptyText: '未上传纸质合同' }}
              columns={[
                { title: '一方', dataIndex: 'side', width: 52, render: (side: ContractSide) => CONTRACT_SIDES[side] },
                {
                  title: '文件',
                  dataIndex: 'fileName',
                  ellipsis: true,
                  render: (_, u) => (
                    <Typography.Link onClick={() => openUploadFile(detail.id, u.id).catch((e: Error) => message.error(e.message))} title={`${u.submittedBy} 于 ${u.submittedAt} 上传`}>
                      {u.fileName}
                    </Typography.Link>
                  ),
                },
                {
                  title: '状态',
                  dataIndex: 'status',
                  width: 150,
                  render: (_, u) => (
                    <Space size={4} direction="vertical">
                      <UploadStatusTag status={u.status} />
                      {u.reviewNote ? <Typography.Text type="secondary">{u.reviewNote}</Typography.Text> : null}
                      {can.reviewPaper && u.status === 'submitted' ? (
                        <Button size="small" type="primary" onClick={() => setReviewing(u)}>
                          审核
                        </Button>
                      ) : null}
                    </Space>
                  ),
                },
              ]}
            />
          </Card>
          <Card title="合同记录" size="small" className="coalx-contract-row">
            {detail.events.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
            ) : (
              <Timeline
                className="coalx-contract-timeline"
                items={detail.events.map((e) => ({
                  children: (
                    <div>
                      <div>
                        <b>{e.action}</b> · {e.actorName}
                      </div>
                      <div className="coalx-contract-timeline-at">{e.at}</div>
                      {e.note ? <div className="coalx-contract-timeline-note">{e.note}</div> : null}
                    </div>
                  ),
                }))}
              />
            )}
          </Card>
        </Col>
      </Row>

      <SignContractModal contract={dialog === 'sign' ? detail : null} onClose={() => setDialog(null)} onSigned={update} />
      <UploadPaperModal contract={dialog === 'upload' ? detail : null} onClose={() => setDialog(null)} onUploaded={update} />
      {can.editTerms ? <TermsModal detail={detail} open={dialog === 'terms'} onOpenChange={(open) => setDialog(open ? 'terms' : null)} onSaved={update} /> : null}
      {can.void || can.extend || can.reviewPaper ? (
        <>
          <VoidModal detail={detail} open={dialog === 'void'} onOpenChange={(open) => setDialog(open ? 'void' : null)} onDone={update} />
          <ExtendModal detail={detail} open={dialog === 'extend'} onOpenChange={(open) => setDialog(open ? 'extend' : null)} onDone={update} />
          <ReviewModal detail={detail} upload={reviewing} onClose={() => setReviewing(null)} onDone={update} />
        </>
      ) : null}
    </div>
  );
}
