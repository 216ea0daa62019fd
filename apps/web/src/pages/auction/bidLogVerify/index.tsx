import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Breadcrumb, Button, Card, Descriptions, Input, Space, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { bidLogLine, formatBidLogTime, formatPrice, isSale, verifyBidLog, type AuctionBidLog } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import BidLogTable, { HashText } from '@/components/auction/BidLogTable';
import { AUCTION_TYPE_TEXT } from '@/lib/auction';
import { bidLogFileName, parseBidLogText, sha256sumCommand } from '@/lib/bid-log';
import { getAuctionBidLog } from '@/services/auction';
import '@/components/auction/auction.css';

const HEX64 = /^[0-9a-fA-F]{64}$/;

function downloadJson(log: AuctionBidLog) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(log, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = bidLogFileName(log.tradeId);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const Verdict = ({ ok }: { ok: boolean }) =>
  ok ? <CheckCircleFilled style={{ color: '#389e0d', marginLeft: 6 }} aria-label="一致" /> : <CloseCircleFilled style={{ color: '#cf1322', marginLeft: 6 }} aria-label="不一致" />;

/**
 * 公开出价记录验证 (/bidLog/verify?tradeId=), open to anyone: loads an ended auction's bid log, or takes one pasted as
 * JSON, and recomputes every hash here in the browser (packages/shared bid-log.ts, no server involved): ✔ per row or
 * the first row where the chain breaks, the recomputed winner and final hash, and a comparison with the final hash
 * printed in the contract.
 */
export default function BidLogVerifyPage() {
  const [params, setParams] = useSearchParams();
  const tradeId = (params.get('tradeId') ?? '').trim();
  const [tradeInput, setTradeInput] = useState(tradeId);
  const server = useQuery({ queryKey: ['auction', 'bidLog', tradeId], queryFn: () => getAuctionBidLog(tradeId), enabled: Boolean(tradeId), retry: false });
  const [pasteText, setPasteText] = useState('');
  const [pasted, setPasted] = useState<AuctionBidLog | null>(null);
  const [pasteError, setPasteError] = useState<string | null>(null);
  const [anchor, setAnchor] = useState('');

  const log = pasted ?? server.data ?? null;
  const anchorHash = HEX64.test(anchor.trim()) ? anchor.trim().toLowerCase() : null;
  const check = useMemo(() => (log ? verifyBidLog(log, anchorHash) : null), [log, anchorHash]);

  const load = () => {
    setPasted(null);
    setParams(tradeInput.trim() ? { tradeId: tradeInput.trim() } : {});
  };
  const verifyPasted = () => {
    const parsed = parseBidLogText(pasteText);
    if ('error' in parsed) {
      setPasteError(parsed.error);
      return;
    }
    setPasteError(null);
    setPasted(parsed.log);
  };

  return (
    <div className="coalx-page" data-testid="bid-log-verify">
      <Breadcrumb items={[{ title: <Link to="/index">首页</Link> }, { title: '公开出价记录验证' }]} />
      <Card
        variant="borderless"
        className="coalx-section-card"
        title={
          <Space>
            <SafetyCertificateOutlined />
            公开出价记录验证
          </Space>
        }
        extra={tradeId && !pasted ? <Link to={`/biddingResults?tradeId=${tradeId}`}>查看结果公告 &gt;</Link> : null}
      >
        <div className="coalx-hint" style={{ marginBottom: 12 }}>
          竞价结束后，平台公布每一条有效出价（竞买人代号、出价、服务器时间）及其哈希。本页在您的浏览器中逐条重新计算哈希，不依赖服务器的计算结果：
          任何一条出价被改动、删除或插入，链条都会在该处断开；最终哈希与成交合同中写明的一致，即说明记录未被改动。
        </div>
        <Space.Compact style={{ width: 420, maxWidth: '100%' }}>
          <Input placeholder="交易编号，如 JJ202611220001" value={tradeInput} onChange={(e) => setTradeInput(e.target.value)} onPressEnter={load} allowClear />
          <Button type="primary" onClick={load}>
            加载并验证
          </Button>
        </Space.Compact>
        {tradeId && !pasted && server.isError && (
          <Alert style={{ marginTop: 16 }} type="warning" showIcon message={errorMessage(server.error, '出价记录加载失败，请稍后重试')} />
        )}
      </Card>

      {log && check && (
        <Card
          variant="borderless"
          className="coalx-section-card"
          title={pasted ? '验证结果（粘贴的出价记录）' : '验证结果'}
          extra={
            <Button icon={<DownloadOutlined />} onClick={() => downloadJson(log)}>
              下载出价记录 JSON
            </Button>
          }
        >
          <Alert
            data-testid="bid-log-verdict"
            type={check.ok ? 'success' : 'error'}
            showIcon
            message={check.ok ? '验证通过' : '验证未通过'}
            description={
              check.ok
                ? `${log.entries.length} 条出价的哈希链完整，重新计算的最终哈希与记录一致${log.deal !== undefined ? '，重新计算的中标结果与公告一致' : ''}${anchorHash ? '，且与合同中的哈希一致' : ''}。`
                : check.firstBroken!.seq !== null
                  ? `链条断在第 ${check.firstBroken!.index + 1} 行（序号 ${check.firstBroken!.seq}）：${check.firstBroken!.reason}`
                  : check.firstBroken!.reason
            }
          />
          <Descriptions size="small" column={2} bordered style={{ marginTop: 16 }} styles={{ label: { width: 170 } }}>
            <Descriptions.Item label="交易编号">{log.tradeId}</Descriptions.Item>
            <Descriptions.Item label="交易方式">
              {AUCTION_TYPE_TEXT[log.tradeType]}（{isSale(log.tradeType) ? '价高者得' : '价低者得'}）{log.productName ? ` · ${log.productName}` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="有效出价">{log.entries.length} 条</Descriptions.Item>
            <Descriptions.Item label="重新计算的中标">
              <span data-testid="bid-log-winner">{check.winner ? `${check.winner.bidder} · ${formatPrice(check.winner.price)} · ${formatBidLogTime(check.winner.at)}` : '无有效出价（流拍）'}</span>
            </Descriptions.Item>
            {log.deal !== undefined && (
              <Descriptions.Item label="公告的中标" span={2}>
                {log.deal ? `${log.deal.bidder} · ${formatPrice(log.deal.price)}` : '流拍'}
                <Verdict ok={(check.winner?.bidder ?? null) === (log.deal?.bidder ?? null) && (check.winner?.price ?? null) === (log.deal?.price ?? null)} />
              </Descriptions.Item>
            )}
            <Descriptions.Item label="起始哈希（交易编号的 SHA-256）" span={2}>
              <HashText hash={check.genesis} />
            </Descriptions.Item>
            <Descriptions.Item label="记录中的最终哈希" span={2}>
              <HashText hash={log.finalHash} />
            </Descriptions.Item>
            <Descriptions.Item label="重新计算的最终哈希" span={2}>
              <HashText hash={check.finalHash} testId="bid-log-recomputed" />
              <Verdict ok={check.finalHash === log.finalHash.toLowerCase()} />
            </Descriptions.Item>
            <Descriptions.Item label="合同中的最终哈希（可选）" span={2}>
              <Input
                placeholder="粘贴成交合同中“出价记录哈希”的 64 位十六进制，与重新计算的结果比对"
                value={anchor}
                onChange={(e) => setAnchor(e.target.value)}
                status={anchor.trim() && !anchorHash ? 'error' : undefined}
                allowClear
                style={{ maxWidth: 640 }}
                suffix={anchorHash ? <Verdict ok={anchorHash === check.finalHash} /> : null}
              />
            </Descriptions.Item>
          </Descriptions>
          <div style={{ marginTop: 16 }}>
            <BidLogTable entries={log.entries} verification={check} pageSize={20} />
          </div>
        </Card>
      )}

      <Card variant="borderless" className="coalx-section-card" title="离线验证：粘贴出价记录 JSON">
        <div className="coalx-hint" style={{ marginBottom: 8 }}>
          粘贴从本页下载的出价记录，或接口 GET /trade-api/api/bidRecord/log?tradeId=… 的返回内容，即可在不访问平台数据的情况下重新验证。
        </div>
        <Input.TextArea
          rows={6}
          value={pasteText}
          onChange={(e) => setPasteText(e.target.value)}
          placeholder='{"tradeId":"JJ…","tradeType":2,"entries":[{"seq":1,"bidder":"竞买人1","price":65000,"at":"2026-…Z","hash":"…"}],"finalHash":"…"}'
          style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}
          data-testid="bid-log-paste"
        />
        {pasteError && <Alert style={{ marginTop: 8 }} type="error" showIcon message={pasteError} />}
        <Space style={{ marginTop: 12 }}>
          <Button type="primary" onClick={verifyPasted}>
            验证粘贴的记录
          </Button>
          {pasted && <Button onClick={() => setPasted(null)}>清除粘贴的记录</Button>}
        </Space>
      </Card>

      <Card variant="borderless" className="coalx-section-card" title="算法">
        <Typography.Paragraph>
          每条出价的哈希 = SHA-256（前一条的哈希 <code>|</code> 交易编号 <code>|</code> 序号 <code>|</code> 竞买人 <code>|</code> 出价（分/吨，整数）<code>|</code>{' '}
          出价时间（UTC，ISO 8601，精确到毫秒））。文本按 UTF-8 编码，哈希写作 64 位小写十六进制；第一条的“前一条哈希”为交易编号的 SHA-256；最终哈希是最后一条出价的哈希
          （无出价时为起始哈希）。销售竞价逐次加价、价高者得，采购竞价逐次降价、价低者得。
        </Typography.Paragraph>
        {log && log.entries[0] && (
          <>
            <Typography.Paragraph style={{ marginBottom: 4 }}>第 1 条出价的原文，可用任何 SHA-256 工具核对：</Typography.Paragraph>
            <Typography.Paragraph code copyable className="coalx-hash">
              {sha256sumCommand(bidLogLine(check!.genesis, log.tradeId, log.entries[0]))}
            </Typography.Paragraph>
          </>
        )}
      </Card>
    </div>
  );
}
